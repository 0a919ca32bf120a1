import GRDB

/// The columns of a todo's days beyond due and wait, each `YYYY-MM-DD`, NULL for none:
/// `scheduled` (`Todo.scheduled`, the day work on it may begin) and `until`
/// (`Todo.until`, the last day it is kept open); and the times of day on due, wait and scheduled.
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

    /// Adds the times of day beside due, wait and scheduled (`Todo.dueTime` …), as minutes
    /// since midnight, NULL for none: a todo from before has none and reads as it did.
    static func registerTimeOfDayMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("times of day") { db in
            for column in ["dueTime", "waitTime", "scheduledTime"] {
                if try db.tableExists("journal") {
                    try db.execute(sql: "ALTER TABLE journal ADD COLUMN \(column) INTEGER")
                }
                try db.execute(sql: "ALTER TABLE todo ADD COLUMN \(column) INTEGER")
            }
        }
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
