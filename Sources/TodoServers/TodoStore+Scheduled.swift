import GRDB

/// The `scheduled` column (`Todo.scheduled`): the day work on it may begin, `YYYY-MM-DD`;
/// NULL for none.
extension TodoStore {
    /// Adds `scheduled` (`Todo.scheduled`, `YYYY-MM-DD`; NULL for none) to the todo table and
    /// to a journal made before, as `registerDependsMigration` does.
    static func registerScheduledMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("scheduled") { db in
            if try db.tableExists("journal") {
                try db.execute(sql: "ALTER TABLE journal ADD COLUMN scheduled TEXT")
            }
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN scheduled TEXT")
        }
    }
}
