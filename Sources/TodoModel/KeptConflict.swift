import Foundation

/// A conflict as this replica keeps it (its `conflict` table): its number there, `n`, and
/// whether the user took this machine's value, left it (the store's stays), or not yet.
public struct KeptConflict: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        case open, taken, left
    }

    public var n: Int
    public var conflict: OfflineConflict
    public var state: State
    /// When it was taken or left; nil while open.
    public var settledAt: Date?
    /// The numbers of the todos a dependency conflict's two values name, as this replica held
    /// them when the conflict was read: people name todos by number (`#3`), and take gives the
    /// dependencies back by number, as `edit N depends:` does. A todo purged since has none.
    public var numbers: [UUID: Int]

    public init(n: Int, conflict: OfflineConflict, state: State = .open, settledAt: Date? = nil, numbers: [UUID: Int] = [:]) {
        self.n = n
        self.conflict = conflict
        self.state = state
        self.settledAt = settledAt
        self.numbers = numbers
    }

    /// The todos a dependency conflict's values name, whose numbers `numbers` should hold.
    public var namedTodos: Set<UUID> {
        conflict.field == .depends ? Set(conflict.local.depends + conflict.theirs.depends) : []
    }

    /// The ordinary change that gives `current` this machine's value of the field again: an
    /// edit, or a complete, reopen, delete or restore, journalled and shared as any other.
    /// nil for a field no such change sets: annotations (never a conflict: they merge as sets) and
    /// other programs' fields (an import sets them). Dependencies merge as sets too, but one
    /// that would close a cycle is a conflict: taking it gives back those whose todo is not
    /// purged, and the edit refuses a cycle as any edit does, saying which to take away.
    public func taking(onto current: Todo) -> TodoMutation? {
        let local = conflict.local
        let ref = TodoRef.id(current.id)
        let edit: TodoEdit
        switch conflict.field {
        case .title: edit = TodoEdit(title: local.title)
        case .notes: edit = TodoEdit(notes: local.notes)
        case .priority: edit = TodoEdit(priority: local.priority)
        case .due: edit = TodoEdit(due: local.due, clearDue: local.due == nil, dueTime: local.dueTime)
        case .tags: edit = TodoEdit(tags: local.tags)
        case .recurrence: edit = TodoEdit(recurrence: local.recurrence, clearRecurrence: local.recurrence == nil)
        case .parent: edit = TodoEdit(parent: local.parent, clearParent: local.parent == nil)
        case .wait: edit = TodoEdit(wait: local.wait, clearWait: local.wait == nil, waitTime: local.waitTime)
        case .project: edit = TodoEdit(project: local.project, clearProject: local.project == nil)
        // Started again now, as a start is: the time it was started here is not a field an edit sets.
        case .started: edit = TodoEdit(active: local.started != nil)
        case .completedAt: return local.completedAt == nil ? .reopen(ref) : .complete(ref)
        case .deletedAt: return local.deletedAt == nil ? .restore(ref) : .delete(ref)
        case .scheduled: edit = TodoEdit(scheduled: local.scheduled, clearScheduled: local.scheduled == nil, scheduledTime: local.scheduledTime)
        case .until: edit = TodoEdit(until: local.until, clearUntil: local.until == nil)
        case .depends: edit = TodoEdit(addDepends: local.depends.compactMap { numbers[$0] }.sorted(), clearDepends: true)
        case .annotations, .foreign: return nil
        }
        return .edit(ref, edit, expectedRevision: nil)
    }
}
