import Foundation
import GRDB
import TodoModel

/// Replay inside a commit: every todo is checked against the rows (and the ones before it
/// in the same replay) before the first is written, so a replay applies whole or not at all.
extension TodoStore {
    static func applyReplay(_ todos: [Todo], as mutation: TodoMutation, in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        var latest: [UUID: Todo] = [:]
        var numbers: [Int: UUID] = [:]
        var plan: [(before: Todo?, after: Todo)] = []
        for todo in todos {
            let current = try latest[todo.id] ?? transaction.todos(.id(todo.id)).first
            if let current {
                guard todo.revision > current.revision, todo.number == current.number, todo.createdAt == current.createdAt else {
                    return .failed(mutation, .invalid(
                        field: "todo", reason: "#\(todo.number) revision \(todo.revision) does not follow revision \(current.revision) of the same todo: replay a whole log, in order, into an empty database"))
                }
            } else {
                let holder = try numbers[todo.number] ?? transaction.todos(.number(todo.number)).first?.id
                guard holder == nil || holder == todo.id else {
                    return .failed(mutation, .invalid(field: "todo", reason: "#\(todo.number) is another todo's number here: replay into an empty database"))
                }
            }
            numbers[todo.number] = todo.id
            latest[todo.id] = todo
            if let refusal = try replayedParentRefusal(todo, latest: latest, numbers: numbers, in: transaction) {
                return .failed(mutation, .invalid(field: "parent", reason: refusal))
            }
            plan.append((current, todo))
        }
        for step in plan {
            if step.before == nil { transaction.useNumber(step.after.number) }
            try transaction.write(step.after, before: step.before)
        }
        return plan.isEmpty ? .failed(mutation, .invalid(field: "changes", reason: "nothing to replay")) : .written(mutation, [])
    }

    /// Why `todo`'s parent cannot be, or nil: it must be a todo here (replayed before it, or
    /// stored) that is not a subtask itself, as `SubtaskRule` keeps every database.
    private static func replayedParentRefusal(
        _ todo: Todo, latest: [UUID: Todo], numbers: [Int: UUID], in transaction: TodoTransaction
    ) throws -> String? {
        guard let number = todo.parent else { return nil }
        let parent = try numbers[number].flatMap { latest[$0] } ?? transaction.todos(.number(number)).first
        guard let parent else { return "#\(todo.number) names #\(number) as its parent, which is not a todo here: replay a whole log, in order" }
        if let grandparent = parent.parent {
            return "#\(todo.number) names #\(number) as its parent, itself a subtask of #\(grandparent); subtasks are one level deep"
        }
        return nil
    }
}
