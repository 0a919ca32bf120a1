import Foundation
import TodoModel
import TodoViewModel

/// One todo in full for the watch's detail pane: every field, then the notes, then the
/// annotations (each its time and text, as `todoctl show` lists them), wrapped to the pane's width. Its lines follow the todo, so the pane is as live as the list.
public struct TodoDetailPane: Sendable {
    public let todo: Todo
    public let today: LocalDate

    public init(_ todo: Todo, today: LocalDate) {
        self.todo = todo
        self.today = today
    }

    /// The pane's lines, at most `columns` wide; the notes keep their line breaks.
    public func lines(columns: Int) -> [String] {
        let row = TodoViewModel(todo, today: today)
        let state = todo.isDeleted ? "deleted" : (todo.isCompleted ? "done" : todo.started.map { "started \(Self.stamp($0))" } ?? "open")
        // Due, wait and scheduled each with its time of day, as `todoctl show` says them
        // (`LocalDate.described(at:)`): the day alone read as due all day.
        let due = todo.due.map { "\($0.described(at: todo.dueTime)) (\(TodoViewModel.describe(due: $0, today: today)))" } ?? "none"
        var fields = [
            "\(row.numberText) \(TerminalText.escaped(todo.title))",
            "state: \(state)  priority: \(todo.priority.rawValue)  due: \(due)",
            "tags: " + (todo.tags.isEmpty ? "none" : TerminalText.escaped(row.tagsLine))
                + "  project: " + (todo.project.map { TerminalText.escaped($0) } ?? "none"),
            "repeats: \(todo.recurrence?.description ?? "no")  parent: \(todo.parent.map { "#\($0)" } ?? "none")  waits until: \(todo.wait.map { $0.described(at: todo.waitTime) } ?? "no day")",
            "created \(Self.stamp(todo.createdAt))  updated \(Self.stamp(todo.updatedAt))  revision \(todo.revision)",
            todo.notes.isEmpty ? "notes: none (E to write some)" : "notes:",
        ]
        // Only when set: most todos have neither, and the pane keeps its lines for them. The
        // pane has the todo alone, so the todos it waits for are counted; `show` names them.
        if todo.scheduled != nil || !todo.depends.isEmpty || todo.until != nil {
            let waits = todo.depends.isEmpty ? "none" : "\(todo.depends.count) todo\(todo.depends.count == 1 ? "" : "s") (todoctl show \(todo.number) names them)"
            let until = todo.until.map { "  until: \($0)" } ?? ""
            fields.insert("scheduled: \(todo.scheduled.map { $0.described(at: todo.scheduledTime) } ?? "no day")\(until)  depends on: \(waits)", at: 4)
        }
        var lines = fields.flatMap { TerminalText.wrapped($0, toWidth: columns) }
        let notes = TerminalText.escaped(todo.notes.replacingOccurrences(of: "\t", with: "    "), keeping: ["\n"])
        for paragraph in notes.split(separator: "\n", omittingEmptySubsequences: false) where !todo.notes.isEmpty {
            lines += TerminalText.wrapped(String(paragraph), toWidth: columns)
        }
        for annotation in todo.annotations {
            lines += TerminalText.wrapped("\(Self.stamp(annotation.entry))  \(TerminalText.escaped(annotation.description))", toWidth: columns)
        }
        return lines
    }

    /// Local day and time to the minute, as people read it.
    private static func stamp(_ date: Date) -> String {
        LocalMinute(date).description
    }
}
