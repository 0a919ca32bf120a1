import Foundation
import TodoModel

/// One todo in full, with its editable fields and the revision they were read at. The
/// text form `todoctl edit` opens in an editor is the View's (TodoTerminal's EditForm.swift).
public struct TodoDetailViewModel: Sendable, Equatable, Codable {
    public let summary: TodoViewModel
    public var todo: Todo { summary.todo }
    public var title: String { todo.title }
    public var notes: String { todo.notes }
    public var priority: Priority { todo.priority }
    public var due: LocalDate? { todo.due }
    public var tags: [String] { todo.tags }
    public var revision: Int { todo.revision }
    /// "open", "done", or "deleted".
    public let stateText: String
    /// The todo this is a subtask of, when it is one.
    public let parentTodo: TodoViewModel?
    /// Its subtasks, in number order.
    public let subtasks: [TodoViewModel]

    public init(_ todo: Todo, today: LocalDate? = nil, parent: Todo? = nil, subtasks: [Todo] = []) {
        summary = TodoViewModel(todo, today: today)
        stateText = todo.isDeleted ? "deleted" : (todo.isCompleted ? "done" : "open")
        parentTodo = parent.map { TodoViewModel($0, today: today) }
        self.subtasks = subtasks.map { TodoViewModel($0, today: today) }
    }

    /// `2/5` of its live subtasks done, or nil without subtasks.
    public var progress: SubtaskProgress? {
        let progress = SubtaskProgress(parent: todo.number, subtasks: subtasks.map(\.todo))
        return progress.total == 0 ? nil : progress
    }

    /// "every week", "3 days after completion", or nil when it does not repeat.
    public var repeatText: String? { todo.recurrence?.description }

    /// When the next occurrence would be due if it were completed on `today` (nil: today).
    public func nextDue(completingOn today: LocalDate? = nil) -> LocalDate? {
        todo.recurrence.flatMap { $0.nextDue(after: todo.due, completedOn: today ?? LocalDate(Date())) }
    }

    private enum PlanningKeys: String, CodingKey {
        case parentTodo, subtasks
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PlanningKeys.self)
        self.init(
            try Todo(from: decoder), parent: try c.decodeIfPresent(TodoViewModel.self, forKey: .parentTodo)?.todo,
            subtasks: try c.decodeIfPresent([TodoViewModel].self, forKey: .subtasks)?.map(\.todo) ?? [])
    }

    /// The todo's fields, then its parent and subtasks when it has them.
    public func encode(to encoder: any Encoder) throws {
        try todo.encode(to: encoder)
        var c = encoder.container(keyedBy: PlanningKeys.self)
        try c.encodeIfPresent(parentTodo, forKey: .parentTodo)
        if !subtasks.isEmpty { try c.encode(subtasks, forKey: .subtasks) }
    }
}

extension String {
    /// The text without the line breaks at its end (an editor adds one).
    public var trimmingTrailingNewlines: String {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isNewline { end = index(before: end) }
        return String(self[..<end])
    }
}
