import Foundation
import GRDB
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

    /// Applies changes committed through another daemon, in one transaction: each entry's
    /// todo replaces the row, the entry is journaled as it is, the counters follow.
    /// Entries this database already holds are skipped, so applying twice changes nothing.
    /// - Returns: the entries applied.
    @discardableResult
    public func apply(_ shared: SharedChanges) throws -> [JournalEntry] {
        try pool.write { db in
            var counters = try Counters.load(db)
            let journal = JournalRecord.Writer()
            var applied: [JournalEntry] = []
            for entry in shared.entries where entry.seq > UInt64(counters.change) {
                if try TodoRecord.fetch(.id(entry.after.id), in: db).isEmpty {
                    try TodoRecord(entry.after).insert(db)
                } else {
                    try TodoRecord.update(entry.after, in: db)
                }
                try journal.append(entry, in: db)
                counters.change = Int64(entry.seq)
                counters.number = max(counters.number, entry.after.number)
                applied.append(entry)
            }
            counters.number = max(counters.number, shared.number)
            counters.change = max(counters.change, Int64(shared.change))
            try counters.save(db)
            return applied
        }
    }

    /// Every journal entry, oldest first (for copying the database elsewhere).
    public func allChanges() throws -> [JournalEntry] {
        try changes(after: 0, limit: Int.max)
    }
}
