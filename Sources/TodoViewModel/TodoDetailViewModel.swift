import Foundation
import TodoClock
import TodoModel

/// One todo in full, with its editable fields and the revision they were read at.
///
/// It also renders and reads back the small text form that `todoctl edit` opens in an
/// editor, so that the form is tested without a terminal.
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

    /// The form an editor shows: one `field: value` line each, then the notes.
    public var editForm: String {
        """
        # Editing #\(todo.number) at revision \(todo.revision). Lines starting with # are ignored.
        # Save and quit to apply; empty the title to cancel.
        title: \(todo.title)
        priority: \(todo.priority.rawValue)
        due: \(todo.due?.description ?? "")
        tags: \(todo.tags.joined(separator: " "))
        \(planningFormLines)
        notes:
        \(todo.notes)
        """
    }

    /// The edit a filled-in form asks for, holding only what differs from this todo;
    /// nil when the title was emptied (the person cancelled).
    /// `today` reads the words of `due:` (`fri`, `+3d`) as `--due` does.
    public func edit(fromForm form: String, today: LocalDate = WallClock.today()) throws(TodoError) -> TodoEdit? {
        var fields: [String: String] = [:]
        var notesLines: [Substring] = []
        var inNotes = false
        for line in form.split(separator: "\n", omittingEmptySubsequences: false) {
            if inNotes { notesLines.append(line); continue }
            if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw .validation("form", "the line \"\(line)\" is not `field: value`")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard ["title", "priority", "due", "tags", "every", "parent", "wait", "notes"].contains(name) else {
                throw .validation("form", "unknown field \"\(name)\"; the fields are title, priority, due, tags, every, parent, wait, notes")
            }
            if name == "notes" { inNotes = true; if !value.isEmpty { notesLines.append(Substring(value)) } }
            else { fields[name] = value }
        }
        guard let rawTitle = fields["title"], !rawTitle.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        while notesLines.last?.allSatisfy(\.isWhitespace) == true { notesLines.removeLast() }
        return try difference(fields: fields, notes: notesLines.joined(separator: "\n"), today: today)
    }

    /// The form again, with `problem` as `#` lines at its top (replacing those of an
    /// earlier round), for another round in the editor.
    public static func form(_ form: String, withProblem problem: String) -> String {
        let kept = form.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix(problemPrefix) }
        let problemLines = problem.split(separator: "\n").map { "\(problemPrefix) \($0)" }
        return (problemLines + [problemPrefix + " Fix it, then save and quit; empty the title to cancel."] + kept.map(String.init))
            .joined(separator: "\n")
    }

    private static let problemPrefix = "# ERROR:"

    private func difference(fields: [String: String], notes: String, today: LocalDate) throws(TodoError) -> TodoEdit {
        var edit = TodoEdit()
        let title = try TodoValidation.title(fields["title"] ?? todo.title)
        if title != todo.title { edit.title = title }
        // The form cannot show trailing newlines, so they are no change.
        if notes != todo.notes.trimmingTrailingNewlines { edit.notes = try TodoValidation.notes(notes) }
        if let text = fields["priority"], !text.isEmpty {
            guard let priority = TaskwarriorWords.priority(text) else {
                throw .validation("priority", "\"\(text)\" is not low, normal or high (or H, M, L, medium, any case)")
            }
            if priority != todo.priority { edit.priority = priority }
        }
        let dueText = fields["due"] ?? ""
        if dueText.isEmpty {
            edit.clearDue = todo.due != nil
        } else {
            guard let due = DueDateParser.parse(dueText, today: today) else {
                throw .validation("due", "\"\(dueText)\" is not a date; write \(DueDateParser.accepted), or nothing")
            }
            if due != todo.due { edit.due = due }
        }
        let tags = try TodoValidation.tags((fields["tags"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init))
        if tags != todo.tags { edit.tags = tags }
        try planningDifference(fields: fields, today: today, into: &edit)
        return edit
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
