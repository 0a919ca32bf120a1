import GRDB

/// The columns of a todo's days beyond due and wait, each `YYYY-MM-DD`, NULL for none:
/// `scheduled` (`Todo.scheduled`, the day work on it may begin) and `until`
/// (`Todo.until`, the last day it is kept open).
extension TodoStore {
    /// Adds `scheduled` to the todo table and to a journal made before, as
    /// `registerDependsMigration` does.
    static func registerScheduledMigration(_ migrator: inout DatabaseMigrator) {
        registerDayColumnMigration(&migrator, column: "scheduled")
    }

    /// Adds `until` likewise: an imported Taskwarrior `until` was only among the foreign fields.
    static func registerUntilMigration(_ migrator: inout DatabaseMigrator) {
        registerDayColumnMigration(&migrator, column: "until")
    }

    /// The migration named `column` that adds that day's column to the todo table and to a
    /// journal made before it (a journal made after has it from `JournalRecord.createTable`).
    private static func registerDayColumnMigration(_ migrator: inout DatabaseMigrator, column: String) {
        migrator.registerMigration(column) { db in
            if try db.tableExists("journal") {
                try db.execute(sql: "ALTER TABLE journal ADD COLUMN \(column) TEXT")
            }
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN \(column) TEXT")
        }
    }
}
