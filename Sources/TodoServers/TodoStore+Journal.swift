import Foundation
import GRDB
import TodoModel

/// Reading the journal. Reads run on a pool reader, beside the writer (WAL), so call them
/// off the core.
extension TodoStore {
    /// One todo's changes, oldest first; empty when the journal holds none.
    /// Only changes up to `upTo` are read: later ones may not have been broadcast yet.
    public func history(of id: UUID, upTo: UInt64 = UInt64(Int64.max)) throws -> [JournalEntry] {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM journal WHERE number = (SELECT number FROM todo WHERE id = ?) AND seq <= ? ORDER BY seq"),
                arguments: [id.uuidString.lowercased(), Int64(upTo)])
            return try JournalRecord.entries(rows, in: db)
        }
    }

    /// The changes after `seq`, oldest first, at most `limit` of them.
    public func changes(after seq: UInt64, limit: Int, since: Date? = nil, upTo: UInt64 = UInt64(Int64.max)) throws -> [JournalEntry] {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM journal WHERE seq > ? AND seq <= ? AND at >= ? ORDER BY seq LIMIT ?"),
                arguments: [Int64(seq), Int64(upTo), since?.millisecondsSince1970 ?? Int64.min, limit])
            return try JournalRecord.entries(rows, in: db)
        }
    }

    /// How many changes the journal holds.
    public func journalCount() throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM journal") ?? 0 }
    }
}

extension TodoStore {
    /// Rebuilds every todo from the journal of the database at `path` and compares it
    /// with the table, read-only (a running daemon's database too). Returns what differs,
    /// and how many todos and changes were read.
    public static func checkJournal(at path: String) throws -> (differences: [String], todos: Int, changes: Int) {
        try DatabaseFile.check(path)
        var configuration = Configuration()
        configuration.readonly = true
        // Without a -wal and -shm no daemon has the file open and the file alone is whole:
        // read it as immutable, so that the check leaves no -wal or -shm behind.
        let idle = !["-wal", "-shm"].contains { FileManager.default.fileExists(atPath: path + $0) }
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        do {
            let queue = try DatabaseQueue(path: idle ? "file:\(escaped)?immutable=1" : path, configuration: configuration)
            return try queue.read { db in try checkJournal(db, path: path) }
        } catch let error as DatabaseError {
            throw TodoStoreError(error, database: path)
        }
    }

    private static func checkJournal(_ db: Database, path: String) throws -> (differences: [String], todos: Int, changes: Int) {
        // A damaged page may hold no todo or entry, and the comparison would not see it.
        let damage = try String.fetchAll(db, sql: "PRAGMA quick_check(5)").filter { $0 != "ok" }.map {
            "SQLite finds the file damaged: \($0); restore a backup (\(lastBackupAdvice(of: path)))"
        }
        guard try db.tableExists("journal") else {
            throw TodoStoreError("\(path) has no journal yet: start todod on it once, which adds one, then check again")
        }
        do {
            let journal = try JournalRecord.entries(Row.fetchAll(db, sql: "SELECT * FROM journal ORDER BY seq"), in: db)
            let table = try Row.fetchAll(db, sql: "SELECT * FROM todo ORDER BY number").map { row throws(TodoStoreError) in
                try TodoStore.todo(from: row, in: path)
            }
            let counters = try Counters.load(db)
            let differences = JournalCheck.differences(
                journal: journal, table: table, lastChange: UInt64(counters.change), lastNumber: counters.number)
            return (damage + differences, table.count, journal.count)
        } catch where !damage.isEmpty {
            // What could not be read is part of the damage already reported.
            return (damage + ["the rest could not be read: \(ModelServer.describe(error))"], 0, 0)
        }
    }
}
