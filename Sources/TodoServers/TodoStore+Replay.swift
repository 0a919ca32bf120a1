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
            plan.append((current, todo))
        }
        for step in plan {
            if step.before == nil { transaction.useNumber(step.after.number) }
            try transaction.write(step.after, before: step.before)
        }
        return plan.isEmpty ? .failed(mutation, .invalid(field: "changes", reason: "nothing to replay")) : .written(mutation, [])
    }
}
