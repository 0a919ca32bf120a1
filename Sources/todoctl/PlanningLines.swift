import Foundation
import TodoModel
import TodoTerminal
import TodoViewModel

/// `show`'s lines for the planning fields: how it repeats and when the next one would be
/// due, what it is a subtask of, what it waits for and what waits for it, until when it waits,
/// and the last day it is kept open.
struct PlanningLines {
    let fields: [(String, String)]

    /// `now`: todoctl's minute (its clock, which tests set): the day "done today" means, and
    /// whether a wait is over.
    init(_ detail: TodoDetailViewModel, now: LocalMinute) {
        var fields: [(String, String)] = []
        let today = now.date
        if let rule = detail.todo.recurrence, let nextDay = detail.nextDue(completingOn: today) {
            // The next one keeps the time of day (`Todo.nextOccurrence`): say it with its day.
            let next = nextDay.described(at: detail.todo.dueTime)
            let when = rule.basis == .due && detail.due != nil ? "the next is due \(next)" : "done today, the next would be due \(next)"
            // Past its until day no occurrence is made (`Todo.nextOccurrence`).
            let ends = detail.todo.until.map { nextDay > $0 } == true
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
            let when = scheduled.described(at: detail.todo.scheduledTime)
            // Still to come while its day is, or its minute on the day (`next` weighs it from then).
            let ahead = scheduled > today || (scheduled == today && detail.todo.scheduledTime.map { $0 > now.timeOfDay } == true)
            fields.append(("scheduled", ahead ? "\(when) (next weighs it from then)" : when))
        }
        if let until = detail.todo.until {
            let what = detail.todo.recurrence != nil ? "the series ends: no occurrence due after it, and one still open is deleted after it" : "deleted after it if still open"
            fields.append(("until", detail.todo.isCompleted || detail.todo.isDeleted ? "\(until)" : "\(until) (\(what))"))
        }
        if let wait = detail.todo.wait {
            let until = wait.described(at: detail.todo.waitTime)
            // Over only once its day, or its minute on that day, has come: a wait at 23:00 today
            // still hides it at 02:00 (it said "over" from the day's start).
            let over = wait < today || (wait == today && detail.todo.waitTime.map { $0 <= now.timeOfDay } ?? true)
            fields.append(("waits", over ? "until \(until) (over)" : "until \(until) (hidden from the list till then)"))
        }
        self.fields = fields
    }

    private static func state(_ row: TodoViewModel) -> String {
        row.isDeleted ? "deleted" : row.isCompleted ? "done" : "open"
    }
}
