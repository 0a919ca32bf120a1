import Foundation
import Synchronization

/// A todo: the one Model of the system.
///
/// `id` is its identity; `==` compares every field (the article's "two notions of
/// equality"). `number` is the short, stable handle people type (`#3`), never reused.
public struct Todo: Sendable, Codable, Equatable, Identifiable, CustomReflectable {
    /// The fields, behind one immutable reference: a copy of a todo is one retain. Stored
    /// inline, a copy retained each string, array and dictionary in it, and a list of
    /// 10,000 is copied on its way through the daemon (the table's match, the rows, the
    /// encoder's cache) and the client (the outline, the table): those retains were a third
    /// of the daemon's time answering it (perf `-e cpu-clock`). Setting a field makes a new
    /// box; todos are read far more often than written.
    private var box: Box

    private final class Box: Sendable {
        let fields: Fields
        /// The fields' encodings (`encoded(_:orMake:)`), each made once. Behind a lock, not in an
        /// `AtomicLazyReference`: its `load()`, not specialised outside the standard library,
        /// looked up `Unmanaged`'s generic metadata on every call, 640 instructions (callgrind).
        let encodings = Mutex(Encodings())
        init(_ fields: Fields) { self.fields = fields }
    }

    private struct Encodings {
        var whole: [UInt8]?
        var row: [UInt8]?
    }

    /// A todo's two encodings: the whole todo (`encode(to:)`) or its list row (`encodeRow(to:)`).
    public enum EncodedForm: Sendable {
        case whole, row
    }

    /// The bytes `make` encodes the todo to in `form`, made once and kept with its fields, for
    /// every copy of the todo: a list sent again splices them instead of encoding every field
    /// again (TodoWire's `EncodedTodoCache`). They cannot go stale, since setting a field makes
    /// new fields, with nothing kept. Any thread may ask; two asking at once may both make
    /// them, and the first one's are kept.
    public func encoded(_ form: EncodedForm, orMake make: () throws -> [UInt8]) rethrows -> [UInt8] {
        let kept = box.encodings.withLock { form == .whole ? $0.whole : $0.row }
        if let kept { return kept }
        let made = try make()
        return box.encodings.withLock { encodings in
            switch form {
            case .whole:
                if encodings.whole == nil { encodings.whole = made }
                return encodings.whole ?? made
            case .row:
                if encodings.row == nil { encodings.row = made }
                return encodings.row ?? made
            }
        }
    }

    private struct Fields: Sendable, Equatable {
        var id: UUID
        var number: Int
        var title: String
        var notes: String
        var priority: Priority
        var due: LocalDate?
        var tags: [String]
        var createdAt: Date
        var updatedAt: Date
        var completedAt: Date?
        var deletedAt: Date?
        var revision: Int
        var recurrence: Recurrence?
        var parent: Int?
        var wait: LocalDate?
        var previous: Int?
        var foreign: [String: String]
        var annotations: [Annotation]
        var project: String?
        var started: Date?
        var depends: [UUID]
        var scheduled: LocalDate?
        var until: LocalDate?
        var dueTime: TimeOfDay?
        var waitTime: TimeOfDay?
        var scheduledTime: TimeOfDay?
    }

    public var id: UUID {
        get { box.fields.id }
        set { update { $0.id = newValue } }
    }
    public var number: Int {
        get { box.fields.number }
        set { update { $0.number = newValue } }
    }
    public var title: String {
        get { box.fields.title }
        set { update { $0.title = newValue } }
    }
    public var notes: String {
        get { box.fields.notes }
        set { update { $0.notes = newValue } }
    }
    public var priority: Priority {
        get { box.fields.priority }
        set { update { $0.priority = newValue } }
    }
    public var due: LocalDate? {
        get { box.fields.due }
        // A time belongs to its day: taking the day away takes the time too.
        set { update { $0.due = newValue; if newValue == nil { $0.dueTime = nil } } }
    }
    public var tags: [String] {
        get { box.fields.tags }
        set { update { $0.tags = newValue } }
    }
    public var createdAt: Date {
        get { box.fields.createdAt }
        set { update { $0.createdAt = newValue } }
    }
    public var updatedAt: Date {
        get { box.fields.updatedAt }
        set { update { $0.updatedAt = newValue } }
    }
    /// nil while the todo is open.
    public var completedAt: Date? {
        get { box.fields.completedAt }
        set { update { $0.completedAt = newValue } }
    }
    /// nil while the todo is live; set by a (soft) delete so that it can be restored.
    public var deletedAt: Date? {
        get { box.fields.deletedAt }
        set { update { $0.deletedAt = newValue } }
    }
    /// Increments on every write; an edit names the revision it was based on.
    public var revision: Int {
        get { box.fields.revision }
        set { update { $0.revision = newValue } }
    }
    /// How it repeats; completing it makes the next occurrence.
    public var recurrence: Recurrence? {
        get { box.fields.recurrence }
        set { update { $0.recurrence = newValue } }
    }
    /// The number of the todo it is a subtask of (numbers are stable and never reused).
    public var parent: Int? {
        get { box.fields.parent }
        set { update { $0.parent = newValue } }
    }
    /// Hidden from the default list until this day.
    public var wait: LocalDate? {
        get { box.fields.wait }
        // A time belongs to its day: taking the day away takes the time too.
        set { update { $0.wait = newValue; if newValue == nil { $0.waitTime = nil } } }
    }
    /// The number of the occurrence this one repeats (set when completing that one made it).
    public var previous: Int? {
        get { box.fields.previous }
        set { update { $0.previous = newValue } }
    }
    /// What other programs know of this todo and todod does not (Taskwarrior's UDAs, an
    /// iCalendar file's other properties), by format name; kept so that an export gives it back.
    public var foreign: [String: String] {
        get { box.fields.foreign }
        set { update { $0.foreign = newValue } }
    }
    /// Timestamped lines added one at a time (`todoctl annotate`), oldest first.
    public var annotations: [Annotation] {
        get { box.fields.annotations }
        set { update { $0.annotations = newValue } }
    }
    /// The project it belongs to (`home`, `home.garden`: dots make sub-projects), as
    /// Taskwarrior's `project`; nil for none. A field, not a tag: a todo is in one project.
    public var project: String? {
        get { box.fields.project }
        set { update { $0.project = newValue } }
    }

    /// When it was started (`todoctl start`, Taskwarrior's `start`): nil while it is not
    /// being worked on. The time spent is summed from the journal's starts and stops.
    public var started: Date? {
        get { box.fields.started }
        set { update { $0.started = newValue } }
    }

    /// The todos it waits for (Taskwarrior's `depends`), by id, sorted and each once: by
    /// id, not number, as Taskwarrior keeps them and as a todo renumbered by sharing stays
    /// the same todo. Blocked (`+BLOCKED`) is derived from them while one is open, never stored.
    public var depends: [UUID] {
        get { box.fields.depends }
        set { update { $0.depends = Self.dependencySet(newValue) } }
    }

    /// The day work on it may begin (Taskwarrior's `scheduled`): `next` weighs it from that
    /// day on; nil for none.
    public var scheduled: LocalDate? {
        get { box.fields.scheduled }
        // A time belongs to its day: taking the day away takes the time too.
        set { update { $0.scheduled = newValue; if newValue == nil { $0.scheduledTime = nil } } }
    }

    /// The last day it is kept open (Taskwarrior's `until`): once that day has passed an open
    /// todo expires (the daemon deletes it), and a repeating one makes no occurrence due
    /// after it; nil for none.
    public var until: LocalDate? {
        get { box.fields.until }
        set { update { $0.until = newValue } }
    }

    /// The time of day it is due on its due day (`due:2026-12-24T15:00`): overdue from then;
    /// nil for the whole day, as a todo without a time has always been. Set and cleared
    /// with `due` (TodoEdit), undone, shared and in conflict with it (`TodoField.due`).
    public var dueTime: TimeOfDay? {
        get { box.fields.dueTime }
        set { update { $0.dueTime = newValue } }
    }

    /// The time of day its waiting ends on its wait day; nil for that day's start (midnight).
    public var waitTime: TimeOfDay? {
        get { box.fields.waitTime }
        set { update { $0.waitTime = newValue } }
    }

    /// The time of day work on it may begin on its scheduled day; nil for the whole day.
    public var scheduledTime: TimeOfDay? {
        get { box.fields.scheduledTime }
        set { update { $0.scheduledTime = newValue } }
    }

    /// Where it falls among due todos, a number to compare: its day, then its time, a whole
    /// day's after every time of that day (it is due by the day's end); nil without a due date.
    public var dueOrder: Int? {
        due.map { $0.daysSince1970 * 1441 + (dueTime?.minutes ?? 1440) }
    }

    /// `ids` sorted and each once, as `depends` holds them.
    public static func dependencySet(_ ids: [UUID]) -> [UUID] {
        Set(ids).sorted { $0.uuidString < $1.uuidString }
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    /// Printed and dumped as its fields, as before they were boxed (test failures, logs).
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: box.fields).children, displayStyle: .struct)
    }

    /// Every field alike (the article's "value" equality); the same box is equal at once.
    public static func == (a: Todo, b: Todo) -> Bool {
        a.box === b.box || a.box.fields == b.box.fields
    }

    public init(
        id: UUID = UUID(), number: Int, title: String, notes: String = "",
        priority: Priority = .normal, due: LocalDate? = nil, tags: [String] = [],
        createdAt: Date, updatedAt: Date? = nil, completedAt: Date? = nil,
        deletedAt: Date? = nil, revision: Int = 1,
        recurrence: Recurrence? = nil, parent: Int? = nil, wait: LocalDate? = nil, previous: Int? = nil,
        foreign: [String: String] = [:], annotations: [Annotation] = [], project: String? = nil,
        started: Date? = nil, depends: [UUID] = [], scheduled: LocalDate? = nil, until: LocalDate? = nil,
        dueTime: TimeOfDay? = nil, waitTime: TimeOfDay? = nil, scheduledTime: TimeOfDay? = nil
    ) {
        box = Box(
            Fields(
                id: id, number: number, title: title, notes: notes, priority: priority, due: due, tags: tags,
                createdAt: createdAt, updatedAt: updatedAt ?? createdAt, completedAt: completedAt, deletedAt: deletedAt,
                revision: revision, recurrence: recurrence, parent: parent, wait: wait, previous: previous,
                foreign: foreign, annotations: annotations, project: project, started: started,
                depends: depends.isEmpty ? [] : Self.dependencySet(depends), scheduled: scheduled, until: until,
                // A time belongs to its day: none without one.
                dueTime: due == nil ? nil : dueTime, waitTime: wait == nil ? nil : waitTime,
                scheduledTime: scheduled == nil ? nil : scheduledTime))
    }

    /// The most tags a todo holds; also checked where edits add tags to the stored ones.
    public static let maximumTagCount = 32

    public var isCompleted: Bool { completedAt != nil }

    /// Open (neither done nor deleted) with its until day before `today`: the daemon deletes it.
    public func isExpired(on today: LocalDate) -> Bool {
        guard let until, until < today else { return false }
        return !isCompleted && !isDeleted
    }
    /// Started and not stopped (Taskwarrior's `+ACTIVE`).
    public var isActive: Bool { started != nil }
    public var isDeleted: Bool { deletedAt != nil }
    /// Open, live, and waiting until a day after `today`, or until a time on it: a timed wait
    /// lasts through its day until the daemon ends it at that minute (`waitEnds`), so every
    /// reader agrees with the daemon's list without a minute of its own.
    public func isWaiting(on today: LocalDate) -> Bool {
        guard let wait, !isCompleted, !isDeleted else { return false }
        return wait > today || (wait == today && waitTime != nil)
    }

    /// Open, live, and its wait over by `now` on `today`: its day is past, or it is today,
    /// all day or at a time that has come.
    public func isWaitOver(on today: LocalDate, at now: TimeOfDay) -> Bool {
        guard let wait, !isCompleted, !isDeleted else { return false }
        return wait < today || (wait == today && (waitTime.map { $0 <= now } ?? true))
    }

    /// When its wait ends if at a time of day (`wait:fri@9am`): the daemon's timer wakes then.
    /// Nil when it waits for no time, or is done or deleted.
    public var waitEnds: (day: LocalDate, time: TimeOfDay)? {
        guard let wait, let waitTime, !isCompleted, !isDeleted else { return nil }
        return (wait, waitTime)
    }

    /// Same todo, whatever its fields now hold.
    public func isSameTodo(as other: Todo) -> Bool { id == other.id }
}

extension Todo {
    private enum CodingKeys: String, CodingKey {
        case id, number, title, notes, priority, due, tags, createdAt, updatedAt, completedAt, deletedAt, revision
        case recurrence, parent, wait, previous, foreign, annotations, project, started, depends, scheduled, until
        case dueTime, waitTime, scheduledTime
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, row: false)
    }

    /// A todo as a list's row carries it (`encodeRow`): what it leaves out takes the row's
    /// placeholders (`rowID`, revision 0, updated when created, no notes).
    public init(rowFrom decoder: any Decoder) throws {
        try self.init(from: decoder, row: true)
    }

    /// The id of a todo read from a list's row, which carries none: the nil UUID.
    public static let rowID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    private init(from decoder: any Decoder, row: Bool) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try row ? Self.rowID : c.decode(UUID.self, forKey: .id), number: try c.decode(Int.self, forKey: .number),
            title: try c.decode(String.self, forKey: .title),
            notes: try c.decodeIfPresent(String.self, forKey: .notes) ?? "",
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority) ?? .normal,
            due: try c.decodeIfPresent(LocalDate.self, forKey: .due),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [],
            createdAt: try c.decode(Date.self, forKey: .createdAt),
            updatedAt: try row ? nil : c.decode(Date.self, forKey: .updatedAt),
            completedAt: try c.decodeIfPresent(Date.self, forKey: .completedAt),
            deletedAt: try c.decodeIfPresent(Date.self, forKey: .deletedAt),
            revision: try row ? 0 : c.decode(Int.self, forKey: .revision),
            recurrence: try c.decodeIfPresent(Recurrence.self, forKey: .recurrence),
            parent: try c.decodeIfPresent(Int.self, forKey: .parent),
            wait: try c.decodeIfPresent(LocalDate.self, forKey: .wait),
            previous: try c.decodeIfPresent(Int.self, forKey: .previous),
            foreign: try c.decodeIfPresent([String: String].self, forKey: .foreign) ?? [:],
            annotations: try c.decodeIfPresent([Annotation].self, forKey: .annotations) ?? [],
            project: try c.decodeIfPresent(String.self, forKey: .project),
            started: try c.decodeIfPresent(Date.self, forKey: .started),
            depends: try c.decodeIfPresent([UUID].self, forKey: .depends) ?? [],
            scheduled: try c.decodeIfPresent(LocalDate.self, forKey: .scheduled),
            until: try c.decodeIfPresent(LocalDate.self, forKey: .until),
            dueTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .dueTime),
            waitTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .waitTime),
            scheduledTime: try c.decodeIfPresent(TimeOfDay.self, forKey: .scheduledTime))
    }

    /// Every field is written, absent ones as `null`, so that the JSON schema is stable;
    /// the id in lowercase, as `uuidgen` prints it. `foreign` only when it holds something:
    /// most todos never came from another program; `annotations` likewise, so that a todo
    /// without them is the same bytes as before they existed; `project` too (an older
    /// client reads a todo without one as it always did); `started`, `depends`, `scheduled` and `until` likewise,
    /// and the times of day beside due, wait and scheduled (an older client skips them, and
    /// reads the day alone).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encode(number, forKey: .number)
        try c.encode(title, forKey: .title)
        try c.encode(notes, forKey: .notes)
        try c.encode(priority, forKey: .priority)
        try c.encode(due, forKey: .due)
        try c.encode(tags, forKey: .tags)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(completedAt, forKey: .completedAt)
        try c.encode(deletedAt, forKey: .deletedAt)
        try c.encode(revision, forKey: .revision)
        try c.encode(recurrence, forKey: .recurrence)
        try c.encode(parent, forKey: .parent)
        try c.encode(wait, forKey: .wait)
        try c.encode(previous, forKey: .previous)
        if !foreign.isEmpty { try c.encode(foreign, forKey: .foreign) }
        if !annotations.isEmpty { try c.encode(annotations, forKey: .annotations) }
        if let project { try c.encode(project, forKey: .project) }
        if let started { try c.encode(started, forKey: .started) }
        if !depends.isEmpty { try c.encode(depends.map { $0.uuidString.lowercased() }, forKey: .depends) }
        if let scheduled { try c.encode(scheduled, forKey: .scheduled) }
        if let until { try c.encode(until, forKey: .until) }
        if let dueTime { try c.encode(dueTime, forKey: .dueTime) }
        if let waitTime { try c.encode(waitTime, forKey: .waitTime) }
        if let scheduledTime { try c.encode(scheduledTime, forKey: .scheduledTime) }
    }

    /// What a list's table, its `--columns` (but `id` and `updated`), its `--sort` (but
    /// `updated`) and its outline read of the todo, and no more; an absent member is its
    /// field's default (normal priority, no tags, null). A whole todo of the bench's was
    /// 340–370 bytes, a third of them nulls and instants the list never shows.
    public func encodeRow(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .number)
        try c.encode(title, forKey: .title)
        try c.encode(createdAt, forKey: .createdAt)
        if priority != .normal { try c.encode(priority, forKey: .priority) }
        try c.encodeIfPresent(due, forKey: .due)
        if !tags.isEmpty { try c.encode(tags, forKey: .tags) }
        try c.encodeIfPresent(completedAt, forKey: .completedAt)
        try c.encodeIfPresent(deletedAt, forKey: .deletedAt)
        try c.encodeIfPresent(parent, forKey: .parent)
        try c.encodeIfPresent(wait, forKey: .wait)
        try c.encodeIfPresent(project, forKey: .project)
        try c.encodeIfPresent(started, forKey: .started)
        // Whether it waits for any: the list asks which are blocked only when one does.
        if !depends.isEmpty { try c.encode(depends.map { $0.uuidString.lowercased() }, forKey: .depends) }
        // `next` weighs it, from the rows.
        try c.encodeIfPresent(scheduled, forKey: .scheduled)
        // A list marks what is overdue and waiting by the minute, and shows the times.
        try c.encodeIfPresent(dueTime, forKey: .dueTime)
        try c.encodeIfPresent(waitTime, forKey: .waitTime)
        try c.encodeIfPresent(scheduledTime, forKey: .scheduledTime)
    }

    /// The todo as a list's row reads back (`init(rowFrom:)`): its row's fields, the others
    /// the placeholders.
    public var row: Todo {
        Todo(
            id: Self.rowID, number: number, title: title, priority: priority, due: due, tags: tags, createdAt: createdAt,
            completedAt: completedAt, deletedAt: deletedAt, revision: 0, parent: parent, wait: wait, project: project, started: started,
            depends: depends, scheduled: scheduled, dueTime: dueTime, waitTime: waitTime, scheduledTime: scheduledTime)
    }
}

extension Todo {
    /// The default order: open before completed, then high priority first, then by due
    /// date and time (undated last; on one day a time before the whole day), then newest first. `number` breaks the remaining ties so
    /// that the order is total and every View agrees on it.
    public static func precedesInDefaultOrder(_ a: Todo, _ b: Todo) -> Bool {
        if a.isCompleted != b.isCompleted { return !a.isCompleted }
        if a.priority != b.priority { return a.priority > b.priority }
        switch (a.dueOrder, b.dueOrder) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
        return a.number > b.number
    }
}
