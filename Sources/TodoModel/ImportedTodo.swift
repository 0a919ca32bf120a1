import Foundation

/// A todo as another program (Taskwarrior, an iCalendar file, todo.txt) holds it: with its
/// own id and times, so that importing it again finds it rather than making a twin.
public struct ImportedTodo: Sendable, Codable, Equatable {
    public var id: UUID
    public var title: String
    public var notes: String
    public var priority: Priority
    public var due: LocalDate?
    public var tags: [String]
    public var createdAt: Date
    /// When the source last changed it: an import replaces todod's todo only when this is
    /// not older than todod's own `updatedAt`.
    public var updatedAt: Date
    public var completedAt: Date?
    public var deletedAt: Date?
    /// The source's fields todod does not know, by format (see `Todo.foreign`).
    public var foreign: [String: String]
    /// How it repeats, when the source says so in a way todod can hold; nil leaves todod's.
    public var recurrence: Recurrence?
    /// The source's id of the todo this one is a subtask of: the store gives it that todo's
    /// number when todod has it (imported earlier, or earlier in the same batch); nil leaves todod's.
    public var parentID: UUID?
    /// The day it shows again (Taskwarrior's `wait`, todo.txt's `t:`); nil leaves todod's.
    public var wait: LocalDate?
    /// Timestamped lines (Taskwarrior's annotations); nil leaves todod's.
    public var annotations: [Annotation]?
    /// Its project (Taskwarrior's `project`, todo.txt's `+project`, iCalendar's
    /// `X-TODOD-PROJECT`): the source says which, so nil is none.
    public var project: String?
    /// When it was started (Taskwarrior's `start`): with `carriesStart`, nil is not started;
    /// without (a format that has no such thing), todod's stays.
    public var started: Date?
    /// Whether the source says whether it is started (Taskwarrior, todod's JSON).
    public var carriesStart: Bool
    /// The ids of the todos it waits for (Taskwarrior's `depends`): the source's ids, which
    /// an import keeps as todod's; nil (a format without them) leaves todod's.
    public var depends: [UUID]?
    /// The day work on it may begin (Taskwarrior's `scheduled`); nil leaves todod's, as `wait`.
    public var scheduled: LocalDate?
    /// The last day it is kept open (Taskwarrior's `until`); nil leaves todod's, as `scheduled`.
    public var until: LocalDate?
    /// The times of day on `due`, `wait` and `scheduled` (Taskwarrior's instants read in the
    /// local zone, iCalendar's DATE-TIME, todo.txt's `due:2026-12-24T15:00`); nil for the whole
    /// day when `carriesTimes`.
    public var dueTime: TimeOfDay?
    public var waitTime: TimeOfDay?
    public var scheduledTime: TimeOfDay?
    /// Whether the source says the time of day of the days it gives (a day without one is
    /// then the whole day); without (a client from before), todod's time stays while its day does.
    public var carriesTimes: Bool
    /// The format it comes from, as its key in `foreign` (`"taskwarrior"`, `"todotxt"`): an
    /// import replaces that format's fields (the key and its `key.` ones) and keeps the other
    /// formats', so a todo.txt round trip keeps a Taskwarrior series; nil (todod's own JSON,
    /// which carries them all, or a client from before) replaces them all.
    public var source: String?

    public init(
        id: UUID, title: String, notes: String = "", priority: Priority = .normal, due: LocalDate? = nil,
        tags: [String] = [], createdAt: Date, updatedAt: Date? = nil, completedAt: Date? = nil,
        deletedAt: Date? = nil, foreign: [String: String] = [:], recurrence: Recurrence? = nil, parentID: UUID? = nil,
        wait: LocalDate? = nil, annotations: [Annotation]? = nil, project: String? = nil, started: Date? = nil,
        carriesStart: Bool = false, depends: [UUID]? = nil, scheduled: LocalDate? = nil, until: LocalDate? = nil, source: String? = nil,
        dueTime: TimeOfDay? = nil, waitTime: TimeOfDay? = nil, scheduledTime: TimeOfDay? = nil, carriesTimes: Bool = false
    ) {
        self.id = id
        self.title = title
        self.notes = notes
        self.priority = priority
        self.due = due
        self.tags = tags
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
        self.deletedAt = deletedAt
        self.foreign = foreign
        self.recurrence = recurrence
        self.parentID = parentID
        self.wait = wait
        self.annotations = annotations
        self.project = project
        self.started = started
        self.carriesStart = carriesStart || started != nil
        self.depends = depends
        self.scheduled = scheduled
        self.until = until
        self.source = source
        self.dueTime = due == nil ? nil : dueTime
        self.waitTime = wait == nil ? nil : waitTime
        self.scheduledTime = scheduled == nil ? nil : scheduledTime
        self.carriesTimes = carriesTimes || self.dueTime != nil || self.waitTime != nil || self.scheduledTime != nil
    }

    /// The todo as `Todo` holds it, numbered `number` (a new todo at revision 1), a subtask
    /// of `parent` when given.
    public func todo(number: Int, revision: Int = 1, parent: Int? = nil) -> Todo {
        Todo(
            id: id, number: number, title: title, notes: notes, priority: priority, due: due, tags: tags,
            createdAt: createdAt, updatedAt: updatedAt, completedAt: completedAt, deletedAt: deletedAt,
            revision: revision, recurrence: recurrence?.anchored(to: due), parent: parent, wait: wait, foreign: foreign,
            annotations: annotations?.map { Annotation(entry: $0.entry.roundedToMilliseconds, description: $0.description) } ?? [],
            project: project, started: started?.roundedToMilliseconds, depends: depends ?? [],
            scheduled: scheduled, until: until, dueTime: dueTime, waitTime: waitTime, scheduledTime: scheduledTime)
    }

    /// `current` replaced by this import, or nil when it changes nothing: the fields are
    /// already these, or todod's todo changed in a later second than the source's (todod's edit wins).
    /// Times are compared at todod's millisecond precision; the creation time stays todod's.
    /// `parent` is the number `parentID` names in todod, when the store found it.
    public func replacing(_ current: Todo, parent: Int? = nil) -> Todo? {
        let stamp = updatedAt.roundedToMilliseconds
        // To the second: other programs record no finer, so a change in todod's same second is not newer.
        guard stamp.timeIntervalSince1970.rounded(.down) >= current.updatedAt.timeIntervalSince1970.rounded(.down) else { return nil }
        var next = todo(number: current.number, revision: current.revision)
        next.updatedAt = current.updatedAt
        // Fields the source does not carry stay todod's.
        if recurrence == nil { next.recurrence = current.recurrence }
        next.parent = parent ?? current.parent
        next.wait = wait ?? current.wait
        if let source {
            next.foreign = current.foreign.filter { $0.key != source && !$0.key.hasPrefix(source + ".") }.merging(foreign) { $1 }
        }
        if annotations == nil { next.annotations = current.annotations }
        if !carriesStart { next.started = current.started }
        if depends == nil { next.depends = current.depends }
        next.scheduled = scheduled ?? current.scheduled
        next.until = until ?? current.until
        // A day the source leaves keeps todod's time with it; a day it gives comes with its
        // time when the source says times, else todod's time stays while the day does.
        if wait == nil || !carriesTimes, next.wait == current.wait { next.waitTime = current.waitTime }
        if scheduled == nil || !carriesTimes, next.scheduled == current.scheduled { next.scheduledTime = current.scheduledTime }
        if !carriesTimes, next.due == current.due { next.dueTime = current.dueTime }
        next.previous = current.previous
        // A todo was made once; and a completion the source dates by its day alone (todo.txt)
        // is the same completion as todod's on that day.
        next.createdAt = current.createdAt
        next.completedAt = next.completedAt?.roundedToMilliseconds
        if let done = next.completedAt, let was = current.completedAt, LocalDate(done) == LocalDate(was) { next.completedAt = was }
        next.deletedAt = next.deletedAt?.roundedToMilliseconds
        guard next != current else { return nil }
        next.revision = current.revision + 1
        next.updatedAt = stamp
        return next
    }
}

extension ImportedTodo {
    // Required: id, title, createdAt; the rest have a new todo's defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(UUID.self, forKey: .id), title: try c.decode(String.self, forKey: .title),
            notes: try c.decodeIfPresent(String.self, forKey: .notes) ?? "",
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority) ?? .normal,
            due: try c.decodeIfPresent(LocalDate.self, forKey: .due),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [],
            createdAt: try c.decode(Date.self, forKey: .createdAt),
            updatedAt: try c.decodeIfPresent(Date.self, forKey: .updatedAt),
            completedAt: try c.decodeIfPresent(Date.self, forKey: .completedAt),
            deletedAt: try c.decodeIfPresent(Date.self, forKey: .deletedAt),
            foreign: try c.decodeIfPresent([String: String].self, forKey: .foreign) ?? [:],
            recurrence: try c.decodeIfPresent(Recurrence.self, forKey: .recurrence),
            parentID: try c.decodeIfPresent(UUID.self, forKey: .parentID),
            wait: try c.decodeIfPresent(LocalDate.self, forKey: .wait),
            annotations: try c.decodeIfPresent([Annotation].self, forKey: .annotations),
            project: try c.decodeIfPresent(String.self, forKey: .project),
            started: try c.decodeIfPresent(Date.self, forKey: .started),
            carriesStart: try c.decodeIfPresent(Bool.self, forKey: .carriesStart) ?? false,
            depends: try c.decodeIfPresent([UUID].self, forKey: .depends),
            scheduled: try c.decodeIfPresent(LocalDate.self, forKey: .scheduled),
            until: try c.decodeIfPresent(LocalDate.self, forKey: .until),
            source: try c.decodeIfPresent(String.self, forKey: .source),
            dueTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .dueTime),
            waitTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .waitTime),
            scheduledTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .scheduledTime),
            carriesTimes: try c.decodeIfPresent(Bool.self, forKey: .carriesTimes) ?? false)
    }
}
