import Foundation
import GRDB
import SharedStoreContract
import TodoModel

/// The SQLite database as the replica of a shared store: changes committed elsewhere are
/// applied as they were made (same sequence numbers, same authors), not made again.
extension TodoStore {
    /// The last change and the highest number this database holds.
    public func counters() throws -> (number: Int, change: UInt64) {
        try pool.read { db in
            let counters = try Counters.load(db)
            return (counters.number, UInt64(counters.change))
        }
    }

    /// Applies changes committed through another daemon, in one transaction and in their
    /// order: each entry's todo replaces the row and the entry is journaled as it is; a
    /// purge removes its todos and their entries; the counters follow. Changes this
    /// database already holds are skipped, so applying twice changes nothing.
    /// - Returns: what was applied.
    @discardableResult
    public func apply(_ shared: SharedChanges) throws -> SharedChanges {
        try pool.write { db in try TodoStore.apply(shared, in: db) }
    }

    /// `apply(_:)` inside a transaction already begun (sharing pending changes takes the store's in it).
    static func apply(_ shared: SharedChanges, in db: Database) throws -> SharedChanges {
        var counters = try Counters.load(db)
        let journal = JournalRecord.Writer()
        var applied = SharedChanges(entries: [], number: shared.number, change: shared.change)
        var purges = shared.purges.filter { $0.seq > UInt64(counters.change) }[...]
        func purge(upTo seq: UInt64) throws {
            while let next = purges.first, next.seq <= seq {
                try TodoTransaction.remove(numbers: next.numbers, in: db)
                try PurgeMark.record(next.seq, in: db)
                applied.purges.append(purges.removeFirst())
            }
        }
        for entry in shared.entries where entry.seq > UInt64(counters.change) {
            try purge(upTo: entry.seq)
            if try TodoRecord.fetch(.id(entry.after.id), in: db).isEmpty {
                try TodoRecord(entry.after).insert(db)
            } else {
                try TodoRecord.update(entry.after, in: db)
            }
            try journal.append(entry, in: db)
            counters.change = Int64(entry.seq)
            counters.number = max(counters.number, entry.after.number)
            applied.entries.append(entry)
        }
        try purge(upTo: .max)
        counters.number = max(counters.number, shared.number)
        counters.change = max(counters.change, Int64(shared.change))
        try counters.save(db)
        return applied
    }

    /// "shared store: replica mark": the store a database is the replica of, so that it is not
    /// used alone by mistake (its changes would reach no other machine, and the store would
    /// refuse it afterwards, its history being its own).
    static func registerReplicaMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("shared store: replica mark") { db in
            try db.execute(sql: "CREATE TABLE replica (store TEXT NOT NULL)")
        }
    }

    /// The shared store this database is the replica of (as it was named), if any.
    public func replicaOf() throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT store FROM replica") }
    }

    /// Marks the database as the replica of `store` (named without secrets); nil unmarks it.
    public func markReplica(of store: String?) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM replica")
            if let store { try db.execute(sql: "INSERT INTO replica (store) VALUES (?)", arguments: [store]) }
        }
    }

    /// How many changes made here while the shared store was away wait to be shared.
    public func unsharedChangeCount() throws -> Int {
        try PendingChanges(store: self).count()
    }

    /// Makes the replica a database of its own: no longer marked the store's, and its changes
    /// not yet shared no longer waiting to be (they stay, as every change, in its journal).
    public func leaveSharedStore() throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM replica")
            try db.execute(sql: "DELETE FROM pending")
        }
    }

    /// Every journal entry, oldest first (for copying the database elsewhere).
    public func allChanges() throws -> [JournalEntry] {
        try changes(after: 0, limit: Int.max)
    }
}
