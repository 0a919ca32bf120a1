import GRDB

/// The `started` column (`Todo.started`): when it was started, in whole milliseconds; NULL
/// while it is not being worked on.
extension TodoStore {
    /// Adds `started` to the todo table and to a journal made before this migration (the
    /// journal repeats the todo table's columns, so that undo and history see a start and a
    /// stop). Registered before the journal's migration, whose table has the column from the
    /// start and whose import of existing todos reads it. A todo from before was never started.
    static func registerStartedMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("started") { db in
            if try db.tableExists("journal") {
                try db.execute(sql: "ALTER TABLE journal ADD COLUMN started INTEGER")
            }
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN started INTEGER")
        }
    }
}
