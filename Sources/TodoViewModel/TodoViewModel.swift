import Foundation
import TodoModel

/// One row of a list, display-ready: every text a View shows is derived here, so that
/// Views only lay it out.
///
/// The texts are computed when read, not when the row is made: the daemon makes rows
/// only to send them, and the texts (a due date in words) belong to the reader's day and
/// time zone. On the wire a row is coded as its Todo's fields.
///
/// The day is passed in by whoever owns time (todoctl's command, `watch`'s midnight timer,
/// through the wire's decoder): this layer reads no clock.
public struct TodoViewModel: Sendable, Identifiable, Codable {
    public let todo: Todo
    /// The day relative texts are read against; nil for a row made to be sent (the daemon's),
    /// whose texts nobody reads: it says its due date as the date, and is never overdue.
    private let today: LocalDate?
    /// The minute it is now on `today`, for a due time ("in 2 h", overdue from 15:00); nil:
    /// read by the day alone, a todo due today at a time not overdue before tomorrow.
    private let now: TimeOfDay?

    public var id: UUID { todo.id }
    public var number: Int { todo.number }
    public var title: String { todo.title }
    public var isCompleted: Bool { todo.isCompleted }
    public var isDeleted: Bool { todo.isDeleted }

    /// `#3`
    public var numberText: String { "#\(todo.number)" }
    /// Waiting for a todo still open (`+BLOCKED`): derived from the other todos, so set by
    /// the reader that asked which are (`markingBlocked`), never sent.
    public var isBlocked = false
    /// `[x]` done, `[>]` started (being worked on: Taskwarrior's `+ACTIVE`), `[b]` blocked
    /// (waiting for an open todo), `[ ]` open.
    public var doneBox: String { todo.isCompleted ? "[x]" : todo.isActive ? "[>]" : isBlocked ? "[b]" : "[ ]" }
    /// `!` for high, `·` for low, empty for normal.
    public var priorityMark: String { Self.mark(for: todo.priority) }
    /// The due date as people say it ("today", "in 3 days", "2 days overdue"), with its time
    /// of day when it has one ("tomorrow 15:00", today's "in 2 h", "45 min overdue"), or nil.
    public var dueText: String? {
        guard let due = todo.due else { return nil }
        guard let today else { return DayTime(due, todo.dueTime).description }
        return Self.describe(due: due, at: todo.dueTime, today: today, now: now)
    }
    /// When its wait ends, in the words `dueText` says a due date with ("tomorrow 08:00",
    /// today's "in 3 h", "2026-12-24"), or its day and time once that has come; nil when it
    /// waits for no day. `list --waiting` shows it: when each todo comes back.
    public var waitText: String? {
        guard let wait = todo.wait else { return nil }
        let ahead = today.map { today in
            wait > today || (wait == today && todo.waitTime.map { time in now.map { time > $0 } ?? true } == true)
        } ?? false
        guard ahead, let today else { return wait.described(at: todo.waitTime) }
        return Self.describe(due: wait, at: todo.waitTime, today: today, now: now)
    }
    /// `dueText` in at most 5 columns, for a table too narrow for it: `today`, `13d` (in 13
    /// days), `-3d` (3 days overdue), the year (`2029`) a thousand days or more away. Cut
    /// instead, `in 13 days` showed as `in 1…`, read as in one day (outside probe 10).
    public var shortDueText: String? {
        guard let due = todo.due else { return nil }
        guard let today else { return due.description }
        let days = today.days(until: due)
        switch days {
        case 0: return "today"
        case -999...999: return "\(days)d"
        default: return String(due.year)
        }
    }
    /// Still open, and due before today, or today at a time that has come.
    public var isOverdue: Bool {
        guard let today, let due = todo.due, !todo.isCompleted else { return false }
        if due < today { return true }
        guard due == today, let time = todo.dueTime, let now else { return false }
        return time <= now
    }
    /// `#home #errands`
    public var tagsLine: String {
        // Appended, not `joined(separator:)`: that generic's first call looked up its
        // associated types by a scan of the binary's conformance records, a third of the
        // instructions of a static `todoctl show` (callgrind).
        var line = ""
        for tag in todo.tags {
            if !line.isEmpty { line += " " }
            line += "#" + tag
        }
        return line
    }

    /// A row of `todo`; its relative texts are read against `today` (none: a row to send) and
    /// the minute it is `now` on it.
    public init(_ todo: Todo, today: LocalDate? = nil, now: TimeOfDay? = nil) {
        self.todo = todo
        self.today = today
        self.now = today == nil ? nil : now
    }

    /// The same row, its relative texts read against `today` (and `now`), its blocked mark kept (a View
    /// telling due dates against its own day showed a blocked todo `[ ]`).
    public func reading(on today: LocalDate, at now: TimeOfDay? = nil) -> TodoViewModel {
        var row = TodoViewModel(todo, today: today, now: now)
        row.isBlocked = isBlocked
        return row
    }

    public init(from decoder: any Decoder) throws {
        self.init(try Todo(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try todo.encode(to: encoder)
    }

    static func mark(for priority: Priority) -> String {
        switch priority {
        case .high: "!"
        case .normal: ""
        case .low: "·"
        }
    }

    /// "today", "tomorrow", "in 3 days", "yesterday"-free: "1 day overdue", "2 days overdue";
    /// the date itself from two weeks on.
    public static func describe(due: LocalDate, today: LocalDate) -> String {
        let days = today.days(until: due)
        switch days {
        case 0: return "today"
        case 1: return "tomorrow"
        case 2..<14: return "in \(days) days"
        case -1: return "1 day overdue"
        case ..<(-1): return "\(-days) days overdue"
        default: return due.description
        }
    }

    /// `describe(due:today:)` with the due time: today's counted from `now` in minutes or hours
    /// ("in 45 min", "in 2 h", "3 h overdue", "due now" in its minute; "today 15:00" when the minute is not known), another
    /// day's beside its words ("tomorrow 15:00", "in 3 days 09:30", "2026-12-24 15:00").
    public static func describe(due: LocalDate, at time: TimeOfDay?, today: LocalDate, now: TimeOfDay?) -> String {
        let day = describe(due: due, today: today)
        guard let time, due >= today else { return day }
        guard due == today, let now else { return "\(day) \(time)" }
        let minutes = time.minutes - now.minutes
        // Its own minute: overdue from it (`isOverdue`), but "0 min overdue" read oddly.
        if minutes == 0 { return "due now" }
        let span = abs(minutes) < 60 ? "\(abs(minutes)) min" : "\(abs(minutes) / 60) h"
        return minutes > 0 ? "in \(span)" : "\(span) overdue"
    }
}

extension Array where Element == TodoViewModel {
    /// The rows, those numbered in `blocked` marked blocked.
    public func markingBlocked(_ blocked: Set<Int>) -> [TodoViewModel] {
        guard !blocked.isEmpty else { return self }
        return map { row in
            var row = row
            row.isBlocked = blocked.contains(row.number)
            return row
        }
    }

    /// Whether any open row waits for another todo: only then can one be blocked.
    public var waitsForAny: Bool { contains { !$0.todo.depends.isEmpty && !$0.isCompleted && !$0.isDeleted } }
}

extension TodoViewModel: Equatable {
    /// Rows are equal when their todos are: the texts follow from the todo and the day.
    public static func == (lhs: TodoViewModel, rhs: TodoViewModel) -> Bool {
        lhs.todo == rhs.todo
    }
}
