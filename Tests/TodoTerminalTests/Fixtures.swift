import Foundation
import TodoModel
import TodoViewModel

let base = Date(millisecondsSince1970: 1_780_000_000_000)

func todo(
    _ number: Int, _ title: String, priority: Priority = .normal, due: LocalDate? = nil, tags: [String] = [], notes: String = "",
    completed: Bool = false, revision: Int = 1, minutes: Int = 0, project: String? = nil
) -> Todo {
    Todo(
        id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!, number: number, title: title, notes: notes,
        priority: priority, due: due, tags: tags, createdAt: base.addingTimeInterval(Double(minutes + number) * 60),
        completedAt: completed ? base : nil, revision: revision, project: project)
}

func list(_ todos: [Todo], filter: TodoFilter = TodoFilter(), asOf: UInt64 = 1) -> TodoViewModelList {
    TodoViewModelList(filter: filter, todos: todos.map { TodoViewModel($0) }, asOf: asOf)
}

func change(_ todo: Todo, _ kind: TodoChange.Kind = .updated, sequence: UInt64) -> TodoChange {
    TodoChange(kind: kind, todo: TodoViewModel(todo), sequence: sequence)
}
