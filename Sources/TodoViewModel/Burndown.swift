import Foundation
import TodoModel

/// `todoctl burndown`'s numbers: for each day (or ISO week, Monday first) from a first day
/// to today, the todos open at its end and those done, added during it. Read from the
/// journal, oldest change first, one page at a time (`add(_:)`).
///
/// Each day is counted from the changes made that day alone, comparing each todo they
/// touched as it was when the day began with how it is when the day ends, so a day once
/// over never changes (an undo on a later day counts on that later day):
/// - open: the todos neither done nor deleted at the day's end (and meeting the filter);
/// - done: the todos done at the day's end that were not done when it began (done,
///   reopened and done again is one; done and then reopened, or undone, is none);
/// - added: the todos whose creation is in effect at the day's end and was not when it
///   began: created that day, or their creation redone that day after an undo took it
///   back. The todos that were there when the journal started are open, not added.
/// A day's local date is read as the rest of todoctl reads it (`LocalDate(_:)`, the C
/// library's local time).
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

    /// What a day's counts compare for one todo.
    private struct State: Equatable {
        /// Meets the filter (as it is now).
        var counted = false
        var completed = false
        var deleted = false
        /// Its creation is in effect (not taken back by an undo); false for an imported todo.
        var created = false

        var isOpen: Bool { counted && !completed && !deleted }
    }

    /// The todos counted: nil for all.
    public let filter: TodoFilter?
    private var states: [UUID: State] = [:]
    private var openNow = 0
    /// Per closed day with a change: the open count at its end, done and added during it.
    private var days: [LocalDate: Period] = [:]
    /// The day being read, and each todo its changes touched as it was when it began.
    private var lastDay: LocalDate?
    private var dayStart: [UUID: State] = [:]
    /// Whether each change that made or took back a creation left it in effect, by seq:
    /// an undo names the change it took back, a redo the undo.
    private var creationEffect: [UInt64: Bool] = [:]

    public init(filter: TodoFilter? = nil) {
        self.filter = filter
    }

    /// The day of the journal's first change, nil before any.
    public private(set) var firstDay: LocalDate?

    /// Takes the next changes, oldest first.
    public mutating func add(_ changes: [JournaledChange]) {
        for change in changes {
            // A clock set back must not move counts into a day already closed.
            let changed = LocalDate(change.at)
            let day = max(changed, lastDay ?? changed)
            if firstDay == nil { firstDay = day }
            if let lastDay, day != lastDay { close(lastDay) }
            lastDay = day
            let todo = change.todo.todo
            let before = states[todo.id] ?? State()
            if dayStart[todo.id] == nil { dayStart[todo.id] = before }
            var after = before
            after.counted = filter?.matchesIgnoringStatus(todo) ?? true
            after.completed = todo.isCompleted
            after.deleted = todo.isDeleted
            if change.kind == .created {
                after.created = change.imported != true
                creationEffect[change.sequence] = after.created
            } else if let undone = change.undoes, let effect = creationEffect[undone] {
                after.created = !effect
                creationEffect[change.sequence] = after.created
            }
            openNow += (after.isOpen ? 1 : 0) - (before.isOpen ? 1 : 0)
            states[todo.id] = after
        }
    }

    /// The day being read, with its counts so far.
    private var current: Period? {
        guard let lastDay else { return nil }
        var period = Period(date: lastDay, open: openNow, done: 0, added: 0)
        for (id, start) in dayStart {
            guard let end = states[id], end.counted else { continue }
            if end.completed && !end.deleted && !start.completed { period.done += 1 }
            if end.created && !start.created { period.added += 1 }
        }
        return period
    }

    private mutating func close(_ day: LocalDate) {
        days[day] = current
        dayStart = [:]
    }

    /// Day by day (or week by week) from `first` to `today`, both included: a day without
    /// a change keeps the open count of the day before.
    public func periods(from first: LocalDate, to today: LocalDate, weekly: Bool) -> [Period] {
        guard first <= today else { return [] }
        // The open count at the end of the last changed day before `first`.
        var days = days
        if let current { days[current.date] = current }
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
