import Foundation
import TodoModel
import TodoTerminal
import TodoViewModel

/// `show`'s lines for the planning fields: how it repeats and when the next one would be
/// due, what it is a subtask of, what it waits for and what waits for it, until when it waits,
/// and the last day it is kept open.
struct PlanningLines {
    let fields: [(String, String)]

    /// `today`: the day "done today" means (todoctl's clock, which tests set).
    init(_ detail: TodoDetailViewModel, today: LocalDate) {
        var fields: [(String, String)] = []
        if let rule = detail.todo.recurrence, let next = detail.nextDue(completingOn: today) {
            let when = rule.basis == .due && detail.due != nil ? "the next is due \(next)" : "done today, the next would be due \(next)"
            // Past its until day no occurrence is made (`Todo.nextOccurrence`).
            let ends = detail.todo.until.map { next > $0 } == true
            fields.append(("repeats", ends ? "\(rule); the last: the next would be due \(next), after its until day" : "\(rule); \(when)"))
        }
        if let parent = detail.todo.parent {
            let title = detail.parentTodo.map { " " + TerminalText.escaped($0.title) } ?? ""
            fields.append(("parent", "#\(parent)\(title)"))
        }
        if !detail.todo.depends.isEmpty {
            // Each by number and title with its state, as `task info` lists them: open ones block it.
            var waitedFor = detail.dependsOn.map { "\($0.numberText) \(TerminalText.escaped($0.title)) (\(Self.state($0)))" }
            let purged = detail.todo.depends.count - detail.dependsOn.count
            if purged > 0 { waitedFor.append("\(purged) purged") }
            fields.append(("depends on", waitedFor.joined(separator: ", ")))
        }
        if !detail.blocks.isEmpty {
            fields.append(("blocks", detail.blocks.map { "\($0.numberText) \(TerminalText.escaped($0.title))\($0.isCompleted ? " (done)" : "")" }.joined(separator: ", ")))
        }
        if let scheduled = detail.todo.scheduled {
            fields.append(("scheduled", scheduled > LocalDate(Date()) ? "\(scheduled) (next weighs it from then)" : "\(scheduled)"))
        }
        if let until = detail.todo.until {
            let what = detail.todo.recurrence != nil ? "the series ends: no occurrence due after it, and one still open is deleted after it" : "deleted after it if still open"
            fields.append(("until", detail.todo.isCompleted || detail.todo.isDeleted ? "\(until)" : "\(until) (\(what))"))
        }
        if let wait = detail.todo.wait {
            let today = LocalDate(Date())
            fields.append(("waits", wait > today ? "until \(wait) (hidden from the list till then)" : "until \(wait) (over)"))
        }
        self.fields = fields
    }

    private static func state(_ row: TodoViewModel) -> String {
        row.isDeleted ? "deleted" : row.isCompleted ? "done" : "open"
    }
}
