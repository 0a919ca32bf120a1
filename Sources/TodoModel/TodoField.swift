import Foundation

/// A field of a todo that changes can set and undo can put back, one at a time: undo
/// works field by field, so that undoing an edit of the title leaves a later edit of the
/// notes alone.
public enum TodoField: String, Sendable, Codable, CaseIterable {
    case title, notes, priority, due, tags, completedAt, deletedAt
    case recurrence, parent, wait
    /// Other programs' fields (`Todo.foreign`), put back with the import that set them.
    case foreign
    /// All of them at once: an annotate or a denotate is undone as the list it changed.
    case annotations
    case project
    /// When it was started: a start or a stop is undone as any other field.
    case started
    /// The todos it waits for: merged as a set when shared, as tags are.
    case depends
    /// The day work on it may begin.
    case scheduled
    /// The last day it is kept open.
    case until

    /// A date and its time of day are one field (`due` is `due` and `dueTime`): set, undone and
    /// shared together, as a todo is due at one moment.
    public func isEqual(in a: Todo, and b: Todo) -> Bool {
        switch self {
        case .title: a.title == b.title
        case .notes: a.notes == b.notes
        case .priority: a.priority == b.priority
        case .due: a.due == b.due && a.dueTime == b.dueTime
        case .tags: a.tags == b.tags
        case .completedAt: a.completedAt == b.completedAt
        case .deletedAt: a.deletedAt == b.deletedAt
        case .recurrence: a.recurrence == b.recurrence
        case .parent: a.parent == b.parent
        case .wait: a.wait == b.wait && a.waitTime == b.waitTime
        case .foreign: a.foreign == b.foreign
        case .annotations: a.annotations == b.annotations
        case .project: a.project == b.project
        case .started: a.started == b.started
        case .depends: a.depends == b.depends
        case .scheduled: a.scheduled == b.scheduled && a.scheduledTime == b.scheduledTime
        case .until: a.until == b.until
        }
    }

    /// `todo` with this field as it is in `source`.
    public func copied(from source: Todo, to todo: Todo) -> Todo {
        var result = todo
        switch self {
        case .title: result.title = source.title
        case .notes: result.notes = source.notes
        case .priority: result.priority = source.priority
        case .due: (result.due, result.dueTime) = (source.due, source.dueTime)
        case .tags: result.tags = source.tags
        case .completedAt: result.completedAt = source.completedAt
        case .deletedAt: result.deletedAt = source.deletedAt
        case .recurrence: result.recurrence = source.recurrence
        case .parent: result.parent = source.parent
        case .wait: (result.wait, result.waitTime) = (source.wait, source.waitTime)
        case .foreign: result.foreign = source.foreign
        case .annotations: result.annotations = source.annotations
        case .project: result.project = source.project
        case .started: result.started = source.started
        case .depends: result.depends = source.depends
        case .scheduled: (result.scheduled, result.scheduledTime) = (source.scheduled, source.scheduledTime)
        case .until: result.until = source.until
        }
        return result
    }
}
