import Foundation

/// Which todos a list shows. Deleted todos are left out unless asked for. Every condition
/// given must hold; dates are whole days, so a filter means the same to every reader
/// (todoctl turns words like `today` or `fri` into dates before sending).
public struct TodoFilter: Sendable, Hashable, Codable {
    /// Which states of todo the list holds.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case open, completed, deleted, all

        /// The next filter round the cycle open → all → completed → deleted → open.
        public var next: Status {
            switch self {
            case .open: .all
            case .all: .completed
            case .completed: .deleted
            case .deleted: .open
            }
        }
    }

    public var status: Status
    /// Tags the todo must all have.
    public var tags: [String]
    /// Tags the todo must have none of.
    public var notTags: [String]
    public var priority: Priority?
    /// Case-insensitive text to find in the title or the notes.
    public var search: String?
    /// Due strictly before this day (undated todos are left out).
    public var dueBefore: LocalDate?
    /// With `dueBefore`: the todos due on that day at this time or earlier match too, as a
    /// todo due at 09:00 is overdue from 09:00 (`--overdue` at 09:01 is "due before today, or
    /// today by 09:01"); one due that day without a time is due by its end and does not. The
    /// client's minute, as `dueBefore` is its day: the daemon reads no clock for a filter.
    public var dueByTime: TimeOfDay?
    /// Due strictly after this day (undated todos are left out).
    public var dueAfter: LocalDate?
    /// Due on this day.
    public var dueOn: LocalDate?
    /// Only todos with no due date.
    public var noDue: Bool
    /// Only the todos waiting for a later day (`list --waiting`); otherwise lists leave
    /// them out until their day.
    public var waiting: Bool
    /// Only the todos pressing on this day (`todoctl next`): overdue, due within
    /// `soonDays` of it, or of high priority. The daemon answers `next` with these alone,
    /// so the client reads the few rows it shows, not the whole list (at 300 todos, 75
    /// rows of the bench's rather than 300: docs/PERFORMANCE.md).
    public var pressingOn: LocalDate?
    /// Only the todos in this project or its sub-projects (`home` holds `home.garden`, not
    /// `homework`); empty: only the todos in no project, as Taskwarrior's `project:`.
    public var project: String?
    /// Only the todos started and not stopped (`+ACTIVE`).
    public var active: Bool
    /// true: only the todos waiting for an open one (`+BLOCKED`); false: only those that
    /// are not (`-BLOCKED`). Decided with every todo at hand (`Dependencies.matches`), not
    /// by `matches`: one todo alone cannot tell.
    public var blocked: Bool?
    /// true: only the open todos an open one waits for (`+BLOCKING`); false: the others.
    public var blocking: Bool?
    /// Only the todos that wait for every one of these todos, by number (`depends:12`),
    /// whatever state that one is in. Decided with every todo at hand (`Dependencies.matches`):
    /// a todo keeps the ids of those it waits for, not their numbers.
    public var dependsOn: [Int]
    /// Only the todos one can act on now, Taskwarrior's `+READY`: open, not waiting for a
    /// later day, not blocked (`Dependencies.matches`), and not scheduled after `today`.
    public var ready: Bool
    /// Only the todos with a scheduled day (`+SCHEDULED`).
    public var hasScheduled: Bool
    /// Scheduled strictly before this day (`scheduled.before:`; unscheduled todos are left out).
    public var scheduledBefore: LocalDate?
    /// Scheduled strictly after this day (`scheduled.after:`; unscheduled todos are left out).
    public var scheduledAfter: LocalDate?
    /// Only the todos with an until day (`+UNTIL`).
    public var hasUntil: Bool
    /// Kept open strictly before this day (`until.before:`; todos without an until day are left out).
    public var untilBefore: LocalDate?
    /// Kept open strictly after this day (`until.after:`; todos without an until day are left out).
    public var untilAfter: LocalDate?
    /// Not a filter: the shape of the answer's todos. When set, each comes as the members a
    /// list's table shows (`Todo.encodeRow`), not the whole todo: `todoctl list` of 10,000
    /// read three times the bytes it showed (docs/PERFORMANCE.md). A daemon that does not
    /// know it ignores it and answers whole todos; the answer's filter says which came.
    public var rows: Bool

    /// How far ahead "soon" reaches for `pressingOn`, in days.
    public static let soonDays = 7

    public init(
        status: Status = .open, tag: String? = nil, tags: [String] = [], notTags: [String] = [],
        priority: Priority? = nil, search: String? = nil,
        dueBefore: LocalDate? = nil, dueByTime: TimeOfDay? = nil, dueAfter: LocalDate? = nil, dueOn: LocalDate? = nil, noDue: Bool = false,
        waiting: Bool = false, pressingOn: LocalDate? = nil, project: String? = nil, active: Bool = false,
        blocked: Bool? = nil, blocking: Bool? = nil, dependsOn: [Int] = [], ready: Bool = false, hasScheduled: Bool = false,
        scheduledBefore: LocalDate? = nil, scheduledAfter: LocalDate? = nil,
        hasUntil: Bool = false, untilBefore: LocalDate? = nil, untilAfter: LocalDate? = nil, rows: Bool = false
    ) {
        self.status = status
        self.tags = (tag.map { [$0] } ?? []) + tags.filter { $0 != tag }
        self.notTags = notTags
        self.priority = priority
        self.search = search
        self.dueBefore = dueBefore
        self.dueByTime = dueBefore == nil ? nil : dueByTime
        self.dueAfter = dueAfter
        self.dueOn = dueOn
        self.noDue = noDue
        self.waiting = waiting
        self.pressingOn = pressingOn
        self.project = project
        self.active = active
        self.blocked = blocked
        self.blocking = blocking
        self.dependsOn = dependsOn
        self.ready = ready
        self.hasScheduled = hasScheduled
        self.scheduledBefore = scheduledBefore
        self.scheduledAfter = scheduledAfter
        self.hasUntil = hasUntil
        self.untilBefore = untilBefore
        self.untilAfter = untilAfter
        self.rows = rows
    }

    /// The first tag asked for: the one tag of a filter from before tags were a list.
    public var tag: String? {
        get { tags.first }
        set { tags = newValue.map { [$0] } ?? [] }
    }

    /// Whether the filter asks about other todos than the one it is given (`blocked`,
    /// `blocking`, `ready`, `dependsOn`): a live list under it cannot tell from a changed todo
    /// alone whether it now belongs, nor whether the todos waiting for it still do; it asks
    /// for the list again.
    public var readsOtherTodos: Bool { blocked != nil || blocking != nil || ready || !dependsOn.isEmpty }

    /// Whether `todo` belongs in a list with this filter today.
    public func matches(_ todo: Todo) -> Bool {
        matches(todo, today: nil)
    }

    /// Whether `todo` belongs in a list with this filter on `today` (nil: the day it is
    /// asked; only todos with a wait date read it).
    public func matches(_ todo: Todo, today: LocalDate?) -> Bool {
        if waiting || todo.wait != nil {
            let isWaiting = todo.isWaiting(on: today ?? LocalDate(Date()))
            if waiting != isWaiting { return false }
        }
        // Scheduled for today or before is actionable: Taskwarrior's scheduled before now.
        if ready, todo.isCompleted || todo.isDeleted || todo.scheduled.map({ $0 > today ?? LocalDate(Date()) }) == true { return false }
        switch status {
        case .open: if todo.isDeleted || todo.isCompleted { return false }
        case .completed: if todo.isDeleted || !todo.isCompleted { return false }
        case .deleted: if !todo.isDeleted { return false }
        case .all: if todo.isDeleted { return false }
        }
        return matchesIgnoringStatus(todo)
    }

    /// Whether `todo` meets every condition but the status: a change stream shows a todo
    /// being completed or deleted too.
    public func matchesIgnoringStatus(_ todo: Todo) -> Bool {
        if !tags.allSatisfy({ Self.todo(todo, has: $0) }) { return false }
        if notTags.contains(where: { Self.todo(todo, has: $0) }) { return false }
        if let project, !Self.project(todo.project, isIn: project) { return false }
        if let priority, todo.priority != priority { return false }
        if active && !todo.isActive { return false }
        if hasScheduled && todo.scheduled == nil { return false }
        if !Self.day(todo.scheduled, isAfter: scheduledAfter, before: scheduledBefore) { return false }
        if hasUntil && todo.until == nil { return false }
        if !Self.day(todo.until, isAfter: untilAfter, before: untilBefore) { return false }
        if let pressingOn, !Self.isPressing(todo, on: pressingOn) { return false }
        if let search, !search.isEmpty,
            todo.title.range(of: search, options: .caseInsensitive) == nil,
            todo.notes.range(of: search, options: .caseInsensitive) == nil
        {
            return false
        }
        return matchesDue(todo.due, at: todo.dueTime)
    }

    /// The tag that stood in for a project before todos had a project field: a client from
    /// then still sends `project:home` as a tag, which means the project `home`
    /// (TodoValidation moves it to the field; a filter's such tag asks for the project).
    public static let projectTagPrefix = "project:"

    /// Whether `todo` has the tag `wanted`; a project tag (an older client's filter) asks
    /// for the project instead, sub-projects included.
    private static func todo(_ todo: Todo, has wanted: String) -> Bool {
        if todo.tags.contains(wanted) { return true }
        guard wanted.hasPrefix(projectTagPrefix), wanted.count > projectTagPrefix.count else { return false }
        return project(todo.project, isIn: String(wanted.dropFirst(projectTagPrefix.count)))
    }

    /// Whether a todo in project `have` is in `wanted` or one of its sub-projects, as
    /// Taskwarrior's `project:home` matches `home.garden`, not `homework`; an empty
    /// `wanted` asks for no project.
    public static func project(_ have: String?, isIn wanted: String) -> Bool {
        guard !wanted.isEmpty else { return have == nil }
        guard let have, have.hasPrefix(wanted) else { return false }
        return have.count == wanted.count || have.dropFirst(wanted.count).first == "."
    }

    /// Whether `day` lies strictly between `after` and `before` (`scheduled.after:`,
    /// `until.before:` …); a todo without that day lies in no span, and any lies in none asked.
    static func day(_ day: LocalDate?, isAfter after: LocalDate?, before: LocalDate?) -> Bool {
        guard after != nil || before != nil else { return true }
        guard let day else { return false }
        return (after.map { day > $0 } ?? true) && (before.map { day < $0 } ?? true)
    }

    /// Whether `todo` is for now on `today`, whatever its state: overdue, due within
    /// `soonDays`, of high priority, or scheduled for today or before. `next` orders these (NextOrder).
    public static func isPressing(_ todo: Todo, on today: LocalDate) -> Bool {
        if todo.priority == .high { return true }
        if let scheduled = todo.scheduled, scheduled <= today { return true }
        guard let due = todo.due else { return false }
        return today.days(until: due) <= soonDays
    }

    /// Narrows the due span to end before `day` (by `time` on it, `dueByTime`): with a bound
    /// already set, the earlier holds, and on one day the earlier time (none is earliest).
    public mutating func narrowDue(before day: LocalDate, by time: TimeOfDay? = nil) {
        guard let held = dueBefore, held <= day else {
            (dueBefore, dueByTime) = (day, time)
            return
        }
        if held == day, let have = dueByTime { dueByTime = time.map { min(have, $0) } }
    }

    private func matchesDue(_ due: LocalDate?, at time: TimeOfDay?) -> Bool {
        if noDue { return due == nil }
        guard dueBefore != nil || dueAfter != nil || dueOn != nil else { return true }
        guard let due else { return false }
        if let dueBefore, !(due < dueBefore || (due == dueBefore && Self.time(time, isBy: dueByTime))) { return false }
        if let dueAfter, !(due > dueAfter) { return false }
        if let dueOn, due != dueOn { return false }
        return true
    }

    /// Whether a todo due at `time` on the day is due by `by`: a todo without a time is due
    /// by the day's end, never by a time on it.
    private static func time(_ time: TimeOfDay?, isBy by: TimeOfDay?) -> Bool {
        guard let time, let by else { return false }
        return time <= by
    }
}

extension TodoFilter {
    private enum CodingKeys: String, CodingKey {
        case status, tag, tags, notTags, priority, search, dueBefore, dueByTime, dueAfter, dueOn, noDue, waiting, pressingOn, project, active, blocked, blocking, dependsOn, ready, hasScheduled, scheduledBefore, scheduledAfter, hasUntil, untilBefore, untilAfter, rows
    }

    /// Every field may be absent. The old single `tag` is still read, as one more tag.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decodeIfPresent(Status.self, forKey: .status) ?? .open,
            tag: try container.decodeIfPresent(String.self, forKey: .tag),
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            notTags: try container.decodeIfPresent([String].self, forKey: .notTags) ?? [],
            priority: try container.decodeIfPresent(Priority.self, forKey: .priority),
            search: try container.decodeIfPresent(String.self, forKey: .search),
            dueBefore: try container.decodeIfPresent(LocalDate.self, forKey: .dueBefore),
            dueByTime: try container.decodeIfPresent(TimeOfDay.self, forKey: .dueByTime),
            dueAfter: try container.decodeIfPresent(LocalDate.self, forKey: .dueAfter),
            dueOn: try container.decodeIfPresent(LocalDate.self, forKey: .dueOn),
            noDue: try container.decodeIfPresent(Bool.self, forKey: .noDue) ?? false,
            waiting: try container.decodeIfPresent(Bool.self, forKey: .waiting) ?? false,
            pressingOn: try container.decodeIfPresent(LocalDate.self, forKey: .pressingOn),
            project: try container.decodeIfPresent(String.self, forKey: .project),
            active: try container.decodeIfPresent(Bool.self, forKey: .active) ?? false,
            blocked: try container.decodeIfPresent(Bool.self, forKey: .blocked),
            blocking: try container.decodeIfPresent(Bool.self, forKey: .blocking),
            dependsOn: try container.decodeIfPresent([Int].self, forKey: .dependsOn) ?? [],
            ready: try container.decodeIfPresent(Bool.self, forKey: .ready) ?? false,
            hasScheduled: try container.decodeIfPresent(Bool.self, forKey: .hasScheduled) ?? false,
            scheduledBefore: try container.decodeIfPresent(LocalDate.self, forKey: .scheduledBefore),
            scheduledAfter: try container.decodeIfPresent(LocalDate.self, forKey: .scheduledAfter),
            hasUntil: try container.decodeIfPresent(Bool.self, forKey: .hasUntil) ?? false,
            untilBefore: try container.decodeIfPresent(LocalDate.self, forKey: .untilBefore),
            untilAfter: try container.decodeIfPresent(LocalDate.self, forKey: .untilAfter),
            rows: try container.decodeIfPresent(Bool.self, forKey: .rows) ?? false)
    }

    /// Only the conditions given are written; one tag is written as `tag`, which a
    /// daemon from before tag lists reads too.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        if tags.count == 1 { try container.encode(tags[0], forKey: .tag) }
        if tags.count > 1 { try container.encode(tags, forKey: .tags) }
        if !notTags.isEmpty { try container.encode(notTags, forKey: .notTags) }
        try container.encodeIfPresent(priority, forKey: .priority)
        try container.encodeIfPresent(search, forKey: .search)
        try container.encodeIfPresent(dueBefore, forKey: .dueBefore)
        try container.encodeIfPresent(dueByTime, forKey: .dueByTime)
        try container.encodeIfPresent(dueAfter, forKey: .dueAfter)
        try container.encodeIfPresent(dueOn, forKey: .dueOn)
        if noDue { try container.encode(true, forKey: .noDue) }
        if waiting { try container.encode(true, forKey: .waiting) }
        try container.encodeIfPresent(pressingOn, forKey: .pressingOn)
        try container.encodeIfPresent(project, forKey: .project)
        if active { try container.encode(true, forKey: .active) }
        try container.encodeIfPresent(blocked, forKey: .blocked)
        try container.encodeIfPresent(blocking, forKey: .blocking)
        if !dependsOn.isEmpty { try container.encode(dependsOn, forKey: .dependsOn) }
        if ready { try container.encode(true, forKey: .ready) }
        if hasScheduled { try container.encode(true, forKey: .hasScheduled) }
        try container.encodeIfPresent(scheduledBefore, forKey: .scheduledBefore)
        try container.encodeIfPresent(scheduledAfter, forKey: .scheduledAfter)
        if hasUntil { try container.encode(true, forKey: .hasUntil) }
        try container.encodeIfPresent(untilBefore, forKey: .untilBefore)
        try container.encodeIfPresent(untilAfter, forKey: .untilAfter)
        if rows { try container.encode(true, forKey: .rows) }
    }
}
