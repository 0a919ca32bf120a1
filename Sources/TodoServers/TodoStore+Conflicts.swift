import Foundation
import GRDB
import TodoModel

/// This replica's conflicts (the `conflict` table `PendingChanges` writes when it shares):
/// read for `todoctl conflicts`, and marked taken or left, once.
extension TodoStore {
    /// "shared store: conflicts left": taken had its column from the start; left is the other
    /// way a conflict ends, and kept apart so that `--all` says which.
    static func registerConflictMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("shared store: conflicts left") { db in
            try db.execute(sql: "ALTER TABLE conflict ADD COLUMN leftAt INTEGER")
        }
    }

    /// "shared store: conflict causes": why this machine's value was not taken
    /// (`OfflineConflict.Cause`); NULL, as in the conflicts kept before, is changedOnBoth.
    static func registerConflictCauseMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("shared store: conflict causes") { db in
            try db.execute(sql: "ALTER TABLE conflict ADD COLUMN cause TEXT")
        }
    }

    /// Oldest first; only the open ones unless `all`.
    func conflicts(all: Bool) throws -> [KeptConflict] {
        try pool.read { db in
            let open = all ? "" : " WHERE takenAt IS NULL AND leftAt IS NULL"
            return try Row.fetchAll(db, sql: "SELECT * FROM conflict\(open) ORDER BY n").map { try Self.keptConflict($0, in: db) }
        }
    }

    /// Conflict `n`; nil when this replica keeps none with that number.
    func conflict(_ n: Int) throws -> KeptConflict? {
        try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM conflict WHERE n = ?", arguments: [n]).map { try Self.keptConflict($0, in: db) } }
    }

    /// Marks conflict `n` taken or left at `at` when it is still open, and returns it so; nil
    /// when there is none, or it was taken or left before (it keeps what it was).
    func settleConflict(_ n: Int, as state: KeptConflict.State, at: Date) throws -> KeptConflict? {
        let column = state == .taken ? "takenAt" : "leftAt"
        return try pool.write { db in
            try db.execute(
                sql: "UPDATE conflict SET \(column) = ? WHERE n = ? AND takenAt IS NULL AND leftAt IS NULL",
                arguments: [at.millisecondsSince1970, n])
            guard db.changesCount > 0 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM conflict WHERE n = ?", arguments: [n]).map { try Self.keptConflict($0, in: db, asNow: true) }
        }
    }

    /// The conflict in `row`, with the numbers of the todos its dependencies name as `db` holds them;
    /// an open one (or, `asNow`, one just settled) with the todo as it is now: the value the store
    /// kept then may have changed since, and leaving keeps what the todo has (it showed the
    /// sharing's; outside probe 11, F5).
    private static func keptConflict(_ row: Row, in db: Database, asNow: Bool = false) throws -> KeptConflict {
        let n: Int = row["n"]
        let id: String = row["id"], field: String = row["field"], local: String = row["local"], theirs: String = row["theirs"]
        guard let uuid = UUID(uuidString: id), let field = TodoField(rawValue: field) else {
            throw TodoStoreError("conflict \(n) in the conflict table names a bad id \(id) or field \(field)")
        }
        let decoder = JSONDecoder()
        var conflict = OfflineConflict(
            id: uuid, number: row["number"], field: field, local: try decoder.decode(Todo.self, from: Data(local.utf8)),
            theirs: try decoder.decode(Todo.self, from: Data(theirs.utf8)), at: Date(millisecondsSince1970: row["at"]),
            cause: (row["cause"] as String?).flatMap(OfflineConflict.Cause.init(rawValue:)) ?? .changedOnBoth)
        let takenAt: Int64? = row["takenAt"], leftAt: Int64? = row["leftAt"]
        let state: KeptConflict.State = takenAt != nil ? .taken : leftAt != nil ? .left : .open
        if state == .open || asNow,
           let current = try TodoRecord.fetchOne(db, sql: "SELECT * FROM todo WHERE id = ?", arguments: [uuid.uuidString.lowercased()])?.todo {
            (conflict.theirs, conflict.number) = (current, current.number)
        }
        var kept = KeptConflict(n: n, conflict: conflict, state: state, settledAt: (takenAt ?? leftAt).map(Date.init(millisecondsSince1970:)))
        for id in kept.namedTodos {
            let number = try Int.fetchOne(db.cachedStatement(sql: "SELECT number FROM todo WHERE id = ?"), arguments: [id.uuidString.lowercased()])
            kept.numbers[id] = number
        }
        return kept
    }
}
