import Foundation

/// The fields of a todo to be created; the ModelServer gives it its id and number.
public struct NewTodo: Sendable, Codable, Equatable {
    public var title: String
    public var notes: String
    public var priority: Priority
    public var due: LocalDate?
    public var tags: [String]
    public var recurrence: Recurrence?
    /// The number of the todo this is a subtask of.
    public var parent: Int?
    public var wait: LocalDate?
    /// Its project (`home.garden`); nil for none.
    public var project: String?
    /// The numbers of the todos it waits for (`depends:3,5`); the store keeps their ids.
    /// nil for none, so that a request without any is the bytes it was.
    public var depends: [Int]?
    /// The day work on it may begin (`scheduled:fri`).
    public var scheduled: LocalDate?
    /// The last day it is kept open (`until:fri`).
    public var until: LocalDate?
    /// The times of day on `due`, `wait` and `scheduled` (`due:2026-12-24T15:00`); nil for the whole day.
    public var dueTime: TimeOfDay?
    public var waitTime: TimeOfDay?
    public var scheduledTime: TimeOfDay?

    public init(
        title: String, notes: String = "", priority: Priority = .normal, due: LocalDate? = nil, tags: [String] = [],
        recurrence: Recurrence? = nil, parent: Int? = nil, wait: LocalDate? = nil, project: String? = nil, depends: [Int]? = nil,
        scheduled: LocalDate? = nil, until: LocalDate? = nil,
        dueTime: TimeOfDay? = nil, waitTime: TimeOfDay? = nil, scheduledTime: TimeOfDay? = nil
    ) {
        self.title = title
        self.notes = notes
        self.priority = priority
        self.due = due
        self.tags = tags
        self.recurrence = recurrence
        self.parent = parent
        self.wait = wait
        self.project = project
        self.depends = depends?.isEmpty == true ? nil : depends
        self.scheduled = scheduled
        self.until = until
        self.dueTime = due == nil ? nil : dueTime
        self.waitTime = wait == nil ? nil : waitTime
        self.scheduledTime = scheduled == nil ? nil : scheduledTime
    }
}

/// Field edits; a nil field is left as it is.
public struct TodoEdit: Sendable, Codable, Equatable {
    public var title: String?
    public var notes: String?
    public var priority: Priority?
    public var due: LocalDate?
    /// Removes the due date (wins over `due`).
    public var clearDue: Bool
    /// Replaces all tags before `addTags` and `removeTags` apply.
    public var tags: [String]?
    public var addTags: [String]
    public var removeTags: [String]
    public var recurrence: Recurrence?
    /// Stops the repeating (wins over `recurrence`).
    public var clearRecurrence: Bool
    /// The number of the new parent.
    public var parent: Int?
    /// Makes it a todo of its own again (wins over `parent`).
    public var clearParent: Bool
    public var wait: LocalDate?
    /// Stops the waiting (wins over `wait`).
    public var clearWait: Bool
    /// A line to add to the annotations, stamped with the time of the write.
    public var annotate: String?
    /// Removes the annotation this text names (`[Annotation].index(naming:of:)`), before `annotate` adds one.
    public var denotate: String?
    /// A new project.
    public var project: String?
    /// Takes it out of its project (wins over `project`).
    public var clearProject: Bool
    /// true starts it (`todoctl start`: `started` is the time of the write), false stops it;
    /// nil leaves it as it is. Starting a started todo keeps its start.
    public var active: Bool?
    /// The numbers of todos it comes to wait for (`depends:3`), after `clearDepends`.
    public var addDepends: [Int]
    /// The numbers of todos it no longer waits for (`depends:-3`).
    public var removeDepends: [Int]
    /// Waits for none any more (`depends:`), before `addDepends` applies.
    public var clearDepends: Bool
    /// A new day work on it may begin.
    public var scheduled: LocalDate?
    /// Not scheduled any more (wins over `scheduled`).
    public var clearScheduled: Bool
    /// A new last day it is kept open.
    public var until: LocalDate?
    /// Kept open for good (`until:`; wins over `until`).
    public var clearUntil: Bool
    /// The time of day on the new `due` (`wait`, `scheduled`): applied with its day only, which
    /// it is part of, so a new day without one is due for the whole day (an edit from a client
    /// that knows no times does that too).
    public var dueTime: TimeOfDay?
    public var waitTime: TimeOfDay?
    public var scheduledTime: TimeOfDay?

    public init(
        title: String? = nil, notes: String? = nil, priority: Priority? = nil, due: LocalDate? = nil,
        clearDue: Bool = false, tags: [String]? = nil, addTags: [String] = [], removeTags: [String] = [],
        recurrence: Recurrence? = nil, clearRecurrence: Bool = false, parent: Int? = nil, clearParent: Bool = false,
        wait: LocalDate? = nil, clearWait: Bool = false, annotate: String? = nil, denotate: String? = nil,
        project: String? = nil, clearProject: Bool = false, active: Bool? = nil,
        addDepends: [Int] = [], removeDepends: [Int] = [], clearDepends: Bool = false,
        scheduled: LocalDate? = nil, clearScheduled: Bool = false, until: LocalDate? = nil, clearUntil: Bool = false,
        dueTime: TimeOfDay? = nil, waitTime: TimeOfDay? = nil, scheduledTime: TimeOfDay? = nil
    ) {
        self.title = title
        self.notes = notes
        self.priority = priority
        self.due = due
        self.clearDue = clearDue
        self.tags = tags
        self.addTags = addTags
        self.removeTags = removeTags
        self.recurrence = recurrence
        self.clearRecurrence = clearRecurrence
        self.parent = parent
        self.clearParent = clearParent
        self.wait = wait
        self.clearWait = clearWait
        self.annotate = annotate
        self.denotate = denotate
        self.project = project
        self.clearProject = clearProject
        self.active = active
        self.addDepends = addDepends
        self.removeDepends = removeDepends
        self.clearDepends = clearDepends
        self.scheduled = scheduled
        self.clearScheduled = clearScheduled
        self.until = until
        self.clearUntil = clearUntil
        self.dueTime = due == nil ? nil : dueTime
        self.waitTime = wait == nil ? nil : waitTime
        self.scheduledTime = scheduled == nil ? nil : scheduledTime
    }

    /// Whether it changes what the todo waits for (the store resolves the numbers: `DependencyRule`).
    public var changesDepends: Bool { clearDepends || !addDepends.isEmpty || !removeDepends.isEmpty }

    /// `todo` with these edits applied (revision and timestamps untouched).
    public func applied(to todo: Todo) -> Todo {
        var edited = todo
        if let title { edited.title = title }
        if let notes { edited.notes = notes }
        if let priority { edited.priority = priority }
        if clearDue { edited.due = nil } else if let due { (edited.due, edited.dueTime) = (due, dueTime) }
        var tagList = tags ?? todo.tags
        for tag in addTags where !tagList.contains(tag) { tagList.append(tag) }
        tagList.removeAll { removeTags.contains($0) }
        edited.tags = tagList
        if clearRecurrence { edited.recurrence = nil } else if let recurrence { edited.recurrence = recurrence }
        // A month's day to come back to follows the due date it was counted from.
        edited.recurrence = edited.recurrence?.anchored(to: edited.due)
        if clearParent { edited.parent = nil } else if let parent { edited.parent = parent }
        if clearWait { edited.wait = nil } else if let wait { (edited.wait, edited.waitTime) = (wait, waitTime) }
        if clearProject { edited.project = nil } else if let project { edited.project = project }
        if clearScheduled {
            edited.scheduled = nil
        } else if let scheduled {
            (edited.scheduled, edited.scheduledTime) = (scheduled, scheduledTime)
        }
        if clearUntil { edited.until = nil } else if let until { edited.until = until }
        return edited
    }
}

extension TodoEdit {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decodeIfPresent(String.self, forKey: .title),
            notes: try c.decodeIfPresent(String.self, forKey: .notes),
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority),
            due: try c.decodeIfPresent(LocalDate.self, forKey: .due),
            clearDue: try c.decodeIfPresent(Bool.self, forKey: .clearDue) ?? false,
            tags: try c.decodeIfPresent([String].self, forKey: .tags),
            addTags: try c.decodeIfPresent([String].self, forKey: .addTags) ?? [],
            removeTags: try c.decodeIfPresent([String].self, forKey: .removeTags) ?? [],
            recurrence: try c.decodeIfPresent(Recurrence.self, forKey: .recurrence),
            clearRecurrence: try c.decodeIfPresent(Bool.self, forKey: .clearRecurrence) ?? false,
            parent: try c.decodeIfPresent(Int.self, forKey: .parent),
            clearParent: try c.decodeIfPresent(Bool.self, forKey: .clearParent) ?? false,
            wait: try c.decodeIfPresent(LocalDate.self, forKey: .wait),
            clearWait: try c.decodeIfPresent(Bool.self, forKey: .clearWait) ?? false,
            annotate: try c.decodeIfPresent(String.self, forKey: .annotate),
            denotate: try c.decodeIfPresent(String.self, forKey: .denotate),
            project: try c.decodeIfPresent(String.self, forKey: .project),
            clearProject: try c.decodeIfPresent(Bool.self, forKey: .clearProject) ?? false,
            active: try c.decodeIfPresent(Bool.self, forKey: .active),
            addDepends: try c.decodeIfPresent([Int].self, forKey: .addDepends) ?? [],
            removeDepends: try c.decodeIfPresent([Int].self, forKey: .removeDepends) ?? [],
            clearDepends: try c.decodeIfPresent(Bool.self, forKey: .clearDepends) ?? false,
            scheduled: try c.decodeIfPresent(LocalDate.self, forKey: .scheduled),
            clearScheduled: try c.decodeIfPresent(Bool.self, forKey: .clearScheduled) ?? false,
            until: try c.decodeIfPresent(LocalDate.self, forKey: .until),
            clearUntil: try c.decodeIfPresent(Bool.self, forKey: .clearUntil) ?? false,
            dueTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .dueTime),
            waitTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .waitTime),
            scheduledTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .scheduledTime))
    }
}

/// An atomic change to one todo, applied by id to the current row inside a transaction,
/// so that two clients never overwrite each other's edits.
public enum TodoMutation: Sendable, Codable, Equatable {
    case create(NewTodo)
    case complete(TodoRef)
    /// Completes a parent and its open subtasks together.
    case completeWithChildren(TodoRef)
    case reopen(TodoRef)
    case toggleComplete(TodoRef)
    case delete(TodoRef)
    case restore(TodoRef)
    /// Field edits; with `expectedRevision`, refused with a conflict when the todo has
    /// moved on since.
    case edit(TodoRef, TodoEdit, expectedRevision: Int?)
    /// A todo from another program, by its id: created when todod has none with that id,
    /// otherwise replaced unless todod's is newer (`ImportedTodo.replacing`).
    case importTodo(ImportedTodo)
    /// Takes back journaled changes (the store works them out with `JournalUndo`).
    case undo(TodoUndo)
    /// Takes back the newest undo still in effect (`UndoWalk.redoTarget`): re-applies what it took back.
    case redo
    /// Writes todos exactly as given (another database's log), each following its
    /// current revision; all or none. Their steps, undos and redos are kept: `sources`
    /// names the changes of that log they refer to but do not carry.
    case replay([ReplayedChange], sources: [ReplaySource])
    /// Removes deleted todos for good (deleted at or before the date, when given), with
    /// their journal entries.
    case purge(deletedBefore: Date?)

    /// The todo this mutation changes; nil for `create`.
    public var target: TodoRef? {
        switch self {
        case .create, .undo, .redo, .replay, .purge: nil
        case .complete(let ref), .completeWithChildren(let ref), .reopen(let ref), .toggleComplete(let ref), .delete(let ref), .restore(let ref):
            ref
        case .edit(let ref, _, _): ref
        case .importTodo(let imported): .id(imported.id)
        }
    }

    /// The todo after this mutation, or nil when it changes nothing.
    ///
    /// Revision and `updatedAt` advance on every real change. Throws when the mutation
    /// cannot apply to this todo (a stale revision, an edit of a deleted todo).
    /// `depends`: what an edit leaves the todo waiting for, resolved from the other todos
    /// (`DependencyRule`); nil leaves it as it is.
    public func applied(to todo: Todo, at now: Date, depends: [UUID]? = nil) throws(TodoModelError) -> Todo? {
        var next = todo
        switch self {
        case .create, .undo, .redo, .replay, .purge:
            return nil
        case .importTodo(let imported):
            // Keeps the source's times: re-importing the same record then changes nothing.
            return imported.replacing(todo)
        case .complete, .completeWithChildren:
            try Self.requireLive(todo)
            next.completedAt = todo.completedAt ?? now
            // Done stops it, as Taskwarrior's `done` does: the time spent ends here.
            next.started = nil
        case .reopen:
            try Self.requireLive(todo)
            next.completedAt = nil
        case .toggleComplete:
            try Self.requireLive(todo)
            next.completedAt = todo.isCompleted ? nil : now
            if next.isCompleted { next.started = nil }
        case .delete:
            next.deletedAt = todo.deletedAt ?? now
        case .restore:
            next.deletedAt = nil
        case .edit(_, let edit, let expectedRevision):
            if let expectedRevision, expectedRevision != todo.revision { throw .conflict(current: todo) }
            try Self.requireLive(todo)
            next = edit.applied(to: todo)
            try Self.annotations(of: &next, by: edit, at: now)
            if let depends { next.depends = depends }
            if let active = edit.active {
                // Here, not in `TodoEdit.applied`: the start is the time of the write.
                if active, todo.isCompleted {
                    throw .invalid(field: "started", reason: "#\(todo.number) is done, and a done todo is not worked on: reopen it first, then start it")
                }
                next.started = active ? todo.started ?? now.roundedToMilliseconds : nil
            }
            // As in add (TodoValidation): an edit that gives a todo without a due date a repeat
            // from it, or removes the due date of one that repeats from it, is refused.
            // Only then: a todo imported so is still edited.
            if (edit.recurrence != nil || edit.clearDue), next.recurrence?.basis == .due, next.due == nil {
                let fix = edit.clearDue ? RuleAdvice.stopTheRepeat : RuleAdvice.giveADueDate
                throw .invalid(field: "due", reason: "#\(todo.number) \(edit.clearDue ? "repeats from its due date" : "has no due date to repeat from"): \(fix)")
            }
            if next.tags.count > Todo.maximumTagCount {
                throw .invalid(field: "tags", reason: "#\(todo.number) would have \(next.tags.count) tags; the most is \(Todo.maximumTagCount)")
            }
        }
        guard next != todo else { return nil }
        next.revision = todo.revision + 1
        next.updatedAt = now
        return next
    }

    /// The annotations after `edit`'s denotate and annotate. Here, not in `TodoEdit.applied`:
    /// the new line is stamped with the time of the write, and only the current todo can
    /// tell which line a denotate names and whether another one still fits.
    private static func annotations(of todo: inout Todo, by edit: TodoEdit, at now: Date) throws(TodoModelError) {
        if let text = edit.denotate { todo.annotations.remove(at: try todo.annotations.index(naming: text, of: todo)) }
        guard let text = edit.annotate else { return }
        guard todo.annotations.count < Annotation.maximumCount else {
            throw .invalid(field: "annotations", reason: "#\(todo.number) has \(todo.annotations.count) annotations, the most it may hold; \(RuleAdvice.removeAnAnnotation)")
        }
        todo.annotations.append(Annotation(entry: now.roundedToMilliseconds, description: text))
    }

    private static func requireLive(_ todo: Todo) throws(TodoModelError) {
        if todo.isDeleted { throw .deleted(todo) }
    }
}

extension NewTodo {
    // Only the title is required; the rest have their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(String.self, forKey: .title),
            notes: try c.decodeIfPresent(String.self, forKey: .notes) ?? "",
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority) ?? .normal,
            due: try c.decodeIfPresent(LocalDate.self, forKey: .due),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [],
            recurrence: try c.decodeIfPresent(Recurrence.self, forKey: .recurrence),
            parent: try c.decodeIfPresent(Int.self, forKey: .parent),
            wait: try c.decodeIfPresent(LocalDate.self, forKey: .wait),
            project: try c.decodeIfPresent(String.self, forKey: .project),
            depends: try c.decodeIfPresent([Int].self, forKey: .depends),
            scheduled: try c.decodeIfPresent(LocalDate.self, forKey: .scheduled),
            until: try c.decodeIfPresent(LocalDate.self, forKey: .until),
            dueTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .dueTime),
            waitTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .waitTime),
            scheduledTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .scheduledTime))
    }
}
