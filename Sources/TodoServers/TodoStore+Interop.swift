import GRDB
import TodoModel

/// Todos from other programs: the `foreignFields` column (`Todo.foreign`) and the import
/// of one todo by its id, written through the journal like any change.
extension TodoStore {
    /// Adds `foreignFields`, a JSON object, to the todo table and to a journal made before
    /// this migration (the journal repeats the todo table's columns). Registered before the
    /// journal's migration, whose table has the column from the start and whose import of
    /// existing todos reads it.
    static func registerInteropMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("interop: foreign fields") { db in
            if try db.tableExists("journal") {
                try db.execute(sql: "ALTER TABLE journal ADD COLUMN foreignFields TEXT NOT NULL DEFAULT '{}'")
            }
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN foreignFields TEXT NOT NULL DEFAULT '{}'")
        }
    }

    /// Creates the todo when todod has none with its id, otherwise replaces it unless
    /// todod's is newer (`ImportedTodo.replacing`). The source is taken as it is: an
    /// imported completion makes no next occurrence and carries no subtasks along, since
    /// the other program keeps its own (Taskwarrior makes its own recurrences).
    static func applyImport(_ imported: ImportedTodo, as mutation: TodoMutation, in transaction: inout TodoTransaction) throws
        -> TodoWriteResult
    {
        let current = try transaction.todos(.id(imported.id)).first
        let parent = try parentNumber(of: imported, current: current, in: transaction)
        guard let current else {
            try transaction.write(imported.todo(number: transaction.nextNumber(), parent: parent), before: nil)
            return .written(mutation, [])
        }
        guard let next = imported.replacing(current, parent: parent) else { return .unchanged(mutation, current) }
        try transaction.write(next, before: current)
        return .written(mutation, [])
    }

    /// The number of the todo `imported.parentID` names, when todod has it and it may be
    /// the parent (`SubtaskRule`); otherwise nil, and the source's link stays in `foreign`.
    private static func parentNumber(of imported: ImportedTodo, current: Todo?, in transaction: TodoTransaction) throws -> Int? {
        guard let parentID = imported.parentID, let parent = try transaction.todos(.id(parentID)).first else { return nil }
        let hasSubtasks = try current.map { try !subtasks(of: $0, in: transaction.db).isEmpty } ?? false
        // The child as the import leaves it: a completed subtask may go under a completed parent.
        var child = current ?? imported.todo(number: 0)
        child.completedAt = imported.completedAt
        do throws(TodoModelError) {
            try SubtaskRule.check(child: child, parentNumber: parent.number, parent: parent, childHasSubtasks: hasSubtasks)
            return parent.number
        } catch {
            return nil
        }
    }
}
