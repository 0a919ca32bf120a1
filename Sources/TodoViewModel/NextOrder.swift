import TodoModel

/// What to do now, most pressing first: the open todos that are overdue, due within a
/// week, or of high priority, ordered by points that weigh the due date against the
/// priority, so that a todo two days overdue comes before a high-priority one with no date.
///
/// Points for the due date: 10 for today, plus 1 for each day overdue (at most 7 more);
/// 9 less the days until it for the week ahead (tomorrow 8 … in 7 days 2); none without
/// a date or later. Points for priority: high 6, normal 2, low 0. Scheduled for today or
/// before: 5 more (and such a todo is for now). More points first; on
/// a tie, the earlier due date and time (a time on a day before the whole day), then the lower number. A blocked todo (`isBlocked`: waiting for
/// an open one) comes after every todo that is not, whatever its points.
public enum NextOrder {
    /// How far ahead "soon" reaches, in days.
    public static let soonDays = TodoFilter.soonDays

    /// The todo's points, or nil when it is not for now (done, deleted, or neither dated
    /// within a week, of high priority, nor scheduled for today or before).
    public static func points(_ todo: Todo, today: LocalDate) -> Int? {
        guard !todo.isCompleted, !todo.isDeleted, TodoFilter.isPressing(todo, on: today) else { return nil }
        let days = todo.due.map { today.days(until: $0) }
        let duePoints: Int? = switch days {
        case let days? where days <= 0: 10 + min(-days, 7)
        case let days? where days <= soonDays: 9 - days
        default: nil
        }
        return (duePoints ?? 0) + priorityPoints(todo.priority) + scheduledPoints(todo, today: today)
    }

    /// 5 once its scheduled day has come, as Taskwarrior's urgency adds for a task
    /// scheduled in the past; none before it or without one.
    static func scheduledPoints(_ todo: Todo, today: LocalDate) -> Int {
        todo.scheduled.map { $0 <= today ? 5 : 0 } ?? 0
    }

    static func priorityPoints(_ priority: Priority) -> Int {
        switch priority {
        case .high: 6
        case .normal: 2
        case .low: 0
        }
    }

    /// The rows for now, most pressing first, the blocked ones last.
    public static func ordered(_ rows: [TodoViewModel], today: LocalDate) -> [TodoViewModel] {
        rows.compactMap { row in points(row.todo, today: today).map { (row, $0) } }
            .sorted { a, b in
                // A blocked todo cannot be done yet: after every one that can, as Taskwarrior's urgency sinks it.
                if a.0.isBlocked != b.0.isBlocked { return !a.0.isBlocked }
                if a.1 != b.1 { return a.1 > b.1 }
                // The earlier due minute: one due in 1 h before one due by the day's end.
                switch (a.0.todo.dueOrder, b.0.todo.dueOrder) {
                case let (x?, y?) where x != y: return x < y
                case (_?, nil): return true
                case (nil, _?): return false
                default: break
                }
                return a.0.number < b.0.number
            }
            .map(\.0)
    }
}
