import Foundation
import PostgresNIO
import SharedStoreContract
import TodoModel

/// `todod --migrate-to`: an SQLite database's todos, counters and journal, copied into an
/// empty shared store in one transaction.
extension PostgresStore {
    /// Copies a database whole: its `todos` as its table holds them, its `journal`, and its
    /// counters (the highest `number` given, the last `change`); refuses (writing nothing) when
    /// the store holds anything. Values, not the SQLite store: this target knows only the contract.
    /// - Returns: how many todos and journal entries were copied.
    public func copy(todos: [Todo], journal entries: [JournalEntry], number: Int, change: UInt64) throws -> (todos: Int, changes: Int) {
        let connection = try writerConnection()
        let advice = "nothing was copied"
        try PostgresStore.attempt("start a transaction in \(uri)", nothing: advice, whenUnreachable: "try again once PostgreSQL is back") {
            try PostgresStore.run("BEGIN", on: connection, logger: logger)
        }
        do {
            try PostgresStore.attempt("copy into \(uri)", nothing: advice, whenUnreachable: "try again once PostgreSQL is back") {
                let held = try PostgresSchema.counters(on: connection, lock: true, logger: logger)
                let rows = try PostgresStore.rows("SELECT count(*) FROM todo", on: connection, logger: logger)
                let count = try rows.first?.decode(Int64.self) ?? 0
                guard held.change == 0, held.number == 0, count == 0 else {
                    throw SharedStoreError("""
                        \(uri) is not empty (\(count) todos, \(held.change) changes), so nothing was copied: todod copies only \
                        into an empty database; create one (createdb NAME) and give its URI, or start todod on this one with --store
                        """)
                }
                for entry in entries { try PostgresStore.run(PostgresSchema.append(entry), on: connection, logger: logger) }
                // Every todo as the table holds it, also one whose journal was purged away.
                for todo in todos { try PostgresStore.run(PostgresSchema.store(todo), on: connection, logger: logger) }
                // Announced: a daemon already on this (empty) store takes the copy at once.
                try PostgresStore.run(PostgresSchema.setCounters(number: number, change: change, announce: true), on: connection, logger: logger)
                try PostgresStore.run("COMMIT", on: connection, logger: logger)
            }
        } catch {
            try? PostgresStore.run("ROLLBACK", on: connection, logger: logger)
            throw error
        }
        return (todos.count, entries.count)
    }
}
