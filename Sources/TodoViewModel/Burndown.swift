import Foundation
import TodoModel

/// `todoctl burndown`'s numbers: for each day (or ISO week, Monday first) from a first day
/// to today, the todos open at its end and those done, added during it. Read from the
/// journal, oldest change first, one page at a time (`add(_:)`): a todo is open while it
/// is neither done nor deleted (and meets the filter, if any); a todo done counts on the
/// day of its `completed` change, one added on the day of its `created` (the todos that
/// were there when the journal started are open, not added); an undo takes either back.
public struct Burndown: Sendable {
    /// One day's or week's numbers; `date` is the day, or the Monday of the week.
    public struct Period: Sendable, Equatable, Codable {
        public var date: LocalDate
        public var open: Int
        public var done: Int
        public var added: Int

        public init(date: LocalDate, open: Int, done: Int, added: Int) {
            (self.date, self.open, self.done, self.added) = (date, open, done, added)
        }
    }

    /// The todos counted: nil for all.
    public let filter: TodoFilter?
    private let timeZone: TimeZone
    /// Whether each todo seen is open now.
    private var isOpen: [UUID: Bool] = [:]
    private var openNow = 0
    /// Per day with a change: the open count at its end, done and added during it.
    private var days: [LocalDate: Period] = [:]
    private var lastDay: LocalDate?
    /// The day of each completion and addition counted, by seq: an undo of one takes it
    /// back from its day (a completion undone was not work done).
    private var countedOn: [UInt64: (day: LocalDate, done: Bool)] = [:]

    public init(filter: TodoFilter? = nil, timeZone: TimeZone = .current) {
        self.filter = filter
        self.timeZone = timeZone
    }

    /// The day of the journal's first change, nil before any.
    public private(set) var firstDay: LocalDate?

    /// Takes the next changes, oldest first.
    public mutating func add(_ changes: [JournaledChange]) {
        for change in changes {
            // A clock set back must not move counts into a day already closed.
            let day = max(LocalDate(change.at, in: timeZone), lastDay ?? LocalDate(change.at, in: timeZone))
            if firstDay == nil { firstDay = day }
            lastDay = day
            let todo = change.todo.todo
            let counted = filter?.matchesIgnoringStatus(todo) ?? true
            let open = counted && !todo.isCompleted && !todo.isDeleted
            openNow += (open ? 1 : 0) - (isOpen[todo.id] == true ? 1 : 0)
            isOpen[todo.id] = open
            var period = days[day] ?? Period(date: day, open: 0, done: 0, added: 0)
            period.open = openNow
            if counted, change.kind == .completed || (change.kind == .created && change.imported != true) {
                if change.kind == .completed { period.done += 1 } else { period.added += 1 }
                countedOn[change.sequence] = (day, change.kind == .completed)
            }
            days[day] = period
            // An undo names the oldest change of the todo it takes back: a completion taken
            // back leaves the todo open, an addition leaves it deleted.
            if let undone = change.undoes, let counted = countedOn[undone], var then = days[counted.day],
                counted.done ? !todo.isCompleted : todo.isDeleted
            {
                if counted.done { then.done = max(0, then.done - 1) } else { then.added = max(0, then.added - 1) }
                days[counted.day] = then
                countedOn[undone] = nil
            }
        }
    }

    /// Day by day (or week by week) from `first` to `today`, both included: a day without
    /// a change keeps the open count of the day before.
    public func periods(from first: LocalDate, to today: LocalDate, weekly: Bool) -> [Period] {
        guard first <= today else { return [] }
        // The open count at the end of the last changed day before `first`.
        var open = days.values.filter { $0.date < first }.max { $0.date < $1.date }?.open ?? 0
        var daily: [Period] = []
        var day = first
        while day <= today {
            let changed = days[day]
            open = changed?.open ?? open
            daily.append(Period(date: day, open: open, done: changed?.done ?? 0, added: changed?.added ?? 0))
            day = day.adding(days: 1)
        }
        guard weekly else { return daily }
        var weeks: [Period] = []
        for period in daily {
            let monday = Self.monday(of: period.date)
            if let last = weeks.last, last.date == monday {
                weeks[weeks.count - 1] = Period(date: monday, open: period.open, done: last.done + period.done, added: last.added + period.added)
            } else {
                weeks.append(Period(date: monday, open: period.open, done: period.done, added: period.added))
            }
        }
        return weeks
    }

    /// The Monday on or before `date`.
    public static func monday(of date: LocalDate) -> LocalDate {
        date.adding(days: -((date.weekday + 5) % 7))
    }
}
