import Foundation

extension Todo {
    /// A new todo's row: numbered, created at `createdAt`, revision 1; a monthly rule
    /// remembers the due date's day. `previous`: the occurrence it repeats.
    public init(_ new: NewTodo, number: Int, createdAt: Date, previous: Int? = nil) {
        self.init(
            number: number, title: new.title, notes: new.notes, priority: new.priority, due: new.due, tags: new.tags,
            createdAt: createdAt, recurrence: new.recurrence.map { $0.dayOfMonth == nil ? $0.anchored(to: new.due) : $0 },
            parent: new.parent, wait: new.wait, previous: previous, project: new.project, scheduled: new.scheduled, until: new.until,
            dueTime: new.dueTime, waitTime: new.waitTime, scheduledTime: new.scheduledTime)
    }

    /// The next occurrence of a recurring todo completed on `completedOn`: the same todo
    /// (title, notes, priority, tags, project, parent, rule) due one period on, its wait and its scheduled day moved
    /// by the same span as its due date, each at the same time of day, and the series' last day (`until`) kept. Nil when the todo does not
    /// repeat, or its next day would be past the calendar's end or past `until`: the series ends
    /// there, as Taskwarrior makes no instance due after a template's until.
    public func nextOccurrence(completedOn: LocalDate) -> NewTodo? {
        guard let recurrence, let nextDue = recurrence.nextDue(after: due, completedOn: completedOn) else { return nil }
        if let until, nextDue > until { return nil }
        let nextWait = wait.map { wait in nextDue.adding(days: -wait.days(until: due ?? completedOn)) }
        let nextScheduled = scheduled.map { day in nextDue.adding(days: -day.days(until: due ?? completedOn)) }
        return NewTodo(
            title: title, notes: notes, priority: priority, due: nextDue, tags: tags,
            recurrence: recurrence.dayOfMonth == nil ? recurrence.anchored(to: nextDue) : recurrence,
            parent: parent, wait: nextWait, project: project, scheduled: nextScheduled, until: until,
            dueTime: dueTime, waitTime: waitTime, scheduledTime: scheduledTime)
    }
}

extension Todo {
    /// A next occurrence nobody touched since its completion made it: live, open, at its
    /// first revision, without subtasks. Reopening that completion, or undoing it, deletes
    /// (softly) only such a one; one edited, completed or given subtasks is kept, with its work.
    public func isUntouchedOccurrence(hasSubtasks: Bool) -> Bool {
        revision == 1 && !isCompleted && !isDeleted && !hasSubtasks
    }

    /// Live, open and repeating: the occurrence its series goes on from. A series has one;
    /// an older one open beside a later (reopened, or a later one restored) stops repeating.
    public var isOpenRepeating: Bool {
        recurrence != nil && !isCompleted && !isDeleted
    }
}
