import Foundation
import GRDB
import TodoModel

/// Undo inside a commit: the store reads what to take back from the journal, `JournalUndo`
/// works out the todos, and `TodoTransaction.write` journals them like any change.
extension TodoStore {
    static func applyUndo(_ undo: TodoUndo, as mutation: TodoMutation, in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        let db = transaction.db
        let rows: [Row]
        let what: String
        if let seq = undo.seq {
            rows = try stepRows(of: Int64.fetchOne(db, sql: "SELECT step FROM journal WHERE seq = ?", arguments: [Int64(seq)]), in: db)
            what = "the journal holds no change \(seq)"
        } else if let since = undo.since {
            rows = try Row.fetchAll(db, sql: "SELECT * FROM journal WHERE at >= ? ORDER BY seq", arguments: [since.millisecondsSince1970])
            what = "no change was made since then"
        } else {
            rows = try stepRows(of: Int64.fetchOne(db, sql: "SELECT step FROM journal ORDER BY seq DESC LIMIT 1"), in: db)
            what = "the journal is empty"
        }
        let undone = try JournalRecord.entries(rows, in: db)
        guard let oldest = undone.map(\.seq).min() else { return .failed(mutation, .nothingToUndo(what)) }
        let ids = Set(undone.map(\.after.id)).map { $0.uuidString.lowercased() }
        let history = try JournalRecord.entries(
            Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq > ? AND id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY seq",
                         arguments: StatementArguments([Int64(oldest)] as [any DatabaseValueConvertible] + ids)),
            in: db)
        var current: [UUID: Todo] = [:]
        for todo in try TodoRecord.fetchAll(db, sql: "SELECT * FROM todo WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                                            arguments: StatementArguments(ids)).map(\.todo) {
            current[todo.id] = todo
        }
        let writes: [JournalUndo.Write]
        do {
            writes = try JournalUndo.writes(undoing: undone, history: history, current: current, at: transaction.now, force: undo.force)
        } catch {
            return .failed(mutation, error)
        }
        guard !writes.isEmpty else {
            guard let todo = current.values.first else { return .failed(mutation, .nothingToUndo(what)) }
            return .unchanged(mutation, todo)
        }
        for write in writes { try transaction.write(write.after, before: write.before, undoes: write.undoes) }
        return .written(mutation, [])
    }

    /// The rows of one step: they come at or after its first seq, so SQLite reads a range, not the table.
    private static func stepRows(of step: Int64?, in db: Database) throws -> [Row] {
        guard let step else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq >= ? AND step = ? ORDER BY seq", arguments: [step, step])
    }
}
