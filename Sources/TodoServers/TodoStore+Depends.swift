import Foundation
import GRDB
import TodoModel

/// The `depends` column (`Todo.depends`): the ids of the todos it waits for, comma-separated;
/// NULL for none. Blocked is derived from them, never stored.
extension TodoStore {
    /// Adds `depends` to the todo table and to a journal made before this migration, as
    /// `registerStartedMigration` does; a todo from before waited for none.
    static func registerDependsMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("depends") { db in
            if try db.tableExists("journal") {
                try db.execute(sql: "ALTER TABLE journal ADD COLUMN depends TEXT")
            }
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN depends TEXT")
        }
    }

    /// What `mutation` leaves `next` (`current` before it; nil: a new todo) waiting for, by
    /// `DependencyRule`, read from the rows; `.success(nil)` when it names no dependency.
    static func dependencies(_ mutation: TodoMutation, current: Todo?, in db: Database) throws -> Result<[UUID]?, TodoModelError> {
        let (clear, added, removed): (Bool, [Int], [Int])
        switch mutation {
        case .create(let new) where new.depends != nil: (clear, added, removed) = (false, new.depends ?? [], [])
        case .edit(_, let edit, _) where edit.changesDepends: (clear, added, removed) = (edit.clearDepends, edit.addDepends, edit.removeDepends)
        default: return .success(nil)
        }
        return try DependencyRule.resolve(
            todo: current, current: current?.depends ?? [], clear: clear, added: added, removed: removed,
            byNumber: { try TodoRecord.fetch(.number($0), in: db).first },
            byID: { try TodoRecord.fetch(.id($0), in: db).first }
        ).map { $0 }
    }
}
