import Foundation
import Logging
import PostgresNIO
import SharedStoreContract
import TodoModel

/// The transaction of one write, its counters locked.
final class PostgresWrite: SharedWrite {
    let connection: PostgresConnection
    let logger: Logger
    let uri: StoreURI
    let locked: (number: Int, change: UInt64, base: SharedChangeMark?)
    /// Reads, on a connection that works, whether the store holds these changes (the
    /// outcome of a COMMIT whose answer was lost); throws when it cannot be reached.
    let holds: (SharedChanges) throws -> Bool
    private(set) var committed = false

    init(connection: PostgresConnection, logger: Logger, uri: StoreURI, locked: (number: Int, change: UInt64, base: SharedChangeMark?),
         holds: @escaping (SharedChanges) throws -> Bool) {
        self.connection = connection
        self.logger = logger
        self.uri = uri
        self.locked = locked
        self.holds = holds
    }

    func changes(after seq: UInt64) throws -> SharedChanges {
        try PostgresStore.attempt("read the changes of \(uri)") {
            try PostgresSchema.changes(
                after: seq, upTo: locked.change, number: locked.number, base: locked.base, on: connection, logger: logger)
        }
    }

    func pushed(_ id: UUID) throws -> UInt64 {
        try PostgresStore.attempt("read how far this replica's offline changes reached \(uri)") {
            try PostgresSchema.pushed(id, on: connection, logger: logger)
        }
    }

    func commit(_ changes: SharedChanges) throws {
        // A push may leave a gap: its changes follow the numbers the replica's clients saw.
        if let first = changes.firstSeq, first != locked.change + 1, changes.push == nil || first <= locked.change {
            throw SharedStoreError("the local database was not caught up (its next change is \(first), the store's \(locked.change + 1)): nothing was written; try again")
        }
        let now = Date()
        // The rows and the COMMIT queued together, waited for once (`StatementQueue`).
        let appends = try PostgresStore.attempt("commit to \(uri)") { try changes.entries.map(PostgresSchema.append) }
        var queue = StatementQueue(on: connection, logger: logger)
        for append in appends { queue.send(append) }
        for purge in changes.purges { queue.send(PostgresSchema.purge(purge, at: now)) }
        if let push = changes.push { queue.send(PostgresSchema.record(push, at: now)) }
        if changes.firstSeq != nil || changes.push != nil {
            queue.send(PostgresSchema.setCounters(number: changes.number, change: changes.change, announce: true))
        }
        queue.send("COMMIT")
        var outcomes = queue.outcomes()
        let committing = outcomes.removeLast()
        // A failed row aborts the transaction, and its COMMIT is answered ROLLBACK: the row's error is the one told.
        try PostgresStore.attempt("commit to \(uri)") { for row in outcomes { _ = try row.get() } }
        do {
            let answer = try committing.get()
            guard answer.metadata.command == "COMMIT" else {
                throw SharedStoreError("could not commit to \(uri): PostgreSQL ended the transaction with \(answer.metadata.command); \(PostgresStore.nothingWritten)")
            }
        } catch let error as SharedStoreError {
            throw error
        } catch {
            // PostgreSQL's own error (even a FATAL one, as at a fast shutdown): not committed.
            // Cut off without a word, or past the deadline: the COMMIT may have taken effect,
            // and only the store can say whether it did.
            let answered = (error as? PSQLError)?.serverInfo != nil
            guard !answered, changes.firstSeq != nil else { return try PostgresStore.attempt("commit to \(uri)") { throw error } }
            try settle(changes, lost: error)
        }
        committed = true
    }

    /// Learns from the store whether a COMMIT whose answer was lost took effect: returns
    /// when it did, throws saying nothing was written when it did not, and throws an
    /// in-doubt error when the store cannot be asked.
    private func settle(_ changes: SharedChanges, lost error: any Error) throws {
        let reason = PostgresStore.reason(error)
        let held: Bool
        do {
            held = try holds(changes)
        } catch {
            logger.warning("a commit's outcome is unknown until the shared store is back", metadata: ["store": "\(uri)", "error": "\(reason)"])
            throw SharedStoreError("""
                the connection to \(uri) was lost while it committed this change (\(reason)), so todod cannot tell yet whether it \
                was written: once PostgreSQL is back, every daemon shows it if it was (todoctl log); check there before repeating it
                """, kind: .inDoubt)
        }
        guard held else {
            throw SharedStoreError("could not commit to \(uri): \(reason); \(PostgresStore.nothingWritten)")
        }
        logger.notice("a commit whose answer was lost took effect", metadata: ["store": "\(uri)", "change": "\(changes.firstSeq ?? 0)"])
    }
}
