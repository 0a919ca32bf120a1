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
    /// The todos it waits for (`depends`) that are still kept, in number order.
    public let dependsOn: [TodoViewModel]
    /// The live todos that wait for it, in number order.
    public let blocks: [TodoViewModel]

    public init(
        _ todo: Todo, today: LocalDate? = nil, now: TimeOfDay? = nil, parent: Todo? = nil, subtasks: [Todo] = [], dependsOn: [Todo] = [],
        blocks: [Todo] = []
    ) {
        summary = TodoViewModel(todo, today: today, now: now)
        stateText = todo.isDeleted ? "deleted" : (todo.isCompleted ? "done" : "open")
        parentTodo = parent.map { TodoViewModel($0, today: today) }
        self.subtasks = subtasks.map { TodoViewModel($0, today: today) }
        self.dependsOn = dependsOn.sorted { $0.number < $1.number }.map { TodoViewModel($0, today: today) }
        self.blocks = blocks.sorted { $0.number < $1.number }.map { TodoViewModel($0, today: today) }
    }

    /// Waiting for a todo still open (`+BLOCKED`).
    public var isBlocked: Bool {
        !todo.isCompleted && !todo.isDeleted && dependsOn.contains { !$0.isCompleted && !$0.isDeleted }
    }

    /// Whether it has a parent, subtasks or dependencies: more than its todo's fields to send.
    public var hasRelations: Bool { parentTodo != nil || !subtasks.isEmpty || !dependsOn.isEmpty || !blocks.isEmpty }

    /// `2/5` of its live subtasks done, or nil without subtasks.
    public var progress: SubtaskProgress? {
        let progress = SubtaskProgress(parent: todo.number, subtasks: subtasks.map(\.todo))
        return progress.total == 0 ? nil : progress
    }

    /// "every week", "3 days after completion", or nil when it does not repeat.
    public var repeatText: String? { todo.recurrence?.description }

    /// When the next occurrence would be due if it were completed on `today` (the caller's
    /// day: this layer reads no clock).
    public func nextDue(completingOn today: LocalDate) -> LocalDate? {
        todo.recurrence.flatMap { $0.nextDue(after: todo.due, completedOn: today) }
    }

    private enum PlanningKeys: String, CodingKey {
        case parentTodo, subtasks, dependsOn, blocks
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PlanningKeys.self)
        self.init(
            try Todo(from: decoder), parent: try c.decodeIfPresent(TodoViewModel.self, forKey: .parentTodo)?.todo,
            subtasks: try c.decodeIfPresent([TodoViewModel].self, forKey: .subtasks)?.map(\.todo) ?? [],
            dependsOn: try c.decodeIfPresent([TodoViewModel].self, forKey: .dependsOn)?.map(\.todo) ?? [],
            blocks: try c.decodeIfPresent([TodoViewModel].self, forKey: .blocks)?.map(\.todo) ?? [])
    }

    /// The todo's fields, then its parent, subtasks and dependencies when it has them.
    public func encode(to encoder: any Encoder) throws {
        try todo.encode(to: encoder)
        var c = encoder.container(keyedBy: PlanningKeys.self)
        try c.encodeIfPresent(parentTodo, forKey: .parentTodo)
        if !subtasks.isEmpty { try c.encode(subtasks, forKey: .subtasks) }
        if !dependsOn.isEmpty { try c.encode(dependsOn, forKey: .dependsOn) }
        if !blocks.isEmpty { try c.encode(blocks, forKey: .blocks) }
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
