import Foundation
import GRDB
import TodoModel

/// Journal answers cut by size as well as by count: a todo may hold up to ~140 KB of text
/// (title, notes, tags, other programs' fields) and a change carries it twice (before and
/// after), so a thousand changes of big todos made one answer of hundreds of MB, which the
/// daemon built whole in memory and todoctl could not read. Each page stops once its todos'
/// text passes `JournalReadResult.maximumPageBytes` (it always holds one change), and says whether
/// more follow; the asker goes on after its last change.
extension TodoStore {
    /// The changes after `seq`, oldest first, at most `limit` of them, cut by size.
    public func logPage(after seq: UInt64, limit: Int, since: Date? = nil, upTo: UInt64) throws -> (entries: [JournalEntry], more: Bool) {
        try pool.read { db in
            try Self.page(
                db, sql: "SELECT *, \(Self.textBytes) FROM journal WHERE seq > ? AND seq <= ? AND at >= ? ORDER BY seq LIMIT ?",
                arguments: [Int64(seq), Int64(upTo), since?.millisecondsSince1970 ?? Int64.min, limit])
        }
    }

    /// The last `limit` changes made at or after `since`, oldest first, cut by size: the
    /// first page of them (the asker reads on after its last change).
    public func logPage(since: Date?, last limit: Int, upTo: UInt64) throws -> (entries: [JournalEntry], more: Bool) {
        try pool.read { db in
            let since = since?.millisecondsSince1970 ?? Int64.min
            // Where the last `limit` start: found on the seq index alone, so that no row is sorted whole.
            let first = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM journal WHERE at >= ? AND seq <= ? ORDER BY seq DESC LIMIT 1 OFFSET ?"),
                arguments: [since, Int64(upTo), limit - 1]) ?? 0
            return try Self.page(
                db, sql: "SELECT *, \(Self.textBytes) FROM journal WHERE seq >= ? AND seq <= ? AND at >= ? ORDER BY seq LIMIT ?",
                arguments: [first, Int64(upTo), since, limit])
        }
    }

    /// One todo's changes after `seq`, oldest first, cut by size.
    public func historyPage(of id: UUID, after seq: UInt64, upTo: UInt64) throws -> (entries: [JournalEntry], more: Bool) {
        try pool.read { db in
            try Self.page(
                db, sql: """
                    SELECT *, \(Self.textBytes) FROM journal
                    WHERE number = (SELECT number FROM todo WHERE id = ?) AND seq > ? AND seq <= ? ORDER BY seq
                    """,
                arguments: [id.uuidString.lowercased(), Int64(seq), Int64(upTo)])
        }
    }

    /// A row's text in bytes, counted by SQLite without building the row's strings.
    private static let textBytes = """
        length(CAST(title AS BLOB)) + length(CAST(notes AS BLOB)) + length(CAST(tags AS BLOB)) \
        + length(CAST(foreignFields AS BLOB)) + length(CAST(annotations AS BLOB)) + coalesce(length(CAST(project AS BLOB)), 0) + length(CAST(program AS BLOB)) AS textBytes
        """

    /// The rows `sql` selects, read one at a time until the next would pass the size
    /// budget (a change counts its todo twice, for `before`), as entries.
    private static func page(_ db: Database, sql: String, arguments: StatementArguments) throws -> (entries: [JournalEntry], more: Bool) {
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var rows: [Row] = []
        var bytes = 0
        while let row = try cursor.next() {
            let size = 2 * (row["textBytes"] as Int? ?? 0)
            if !rows.isEmpty, bytes + size > JournalReadResult.maximumPageBytes { return (try JournalRecord.entries(rows, in: db), true) }
            rows.append(row.copy())
            bytes += size
        }
        return (try JournalRecord.entries(rows, in: db), false)
    }
}
