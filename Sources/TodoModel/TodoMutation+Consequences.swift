import Foundation

/// What else changes, in the same transaction, when a mutation changes a todo that has
/// subtasks, repeats, or belongs to a parent. Pure: the store reads the related rows and
/// writes what this returns.
public struct TodoConsequences: Sendable, Equatable {
    /// Related todos as they are to be written (revision and `updatedAt` advanced).
    public var updates: [Todo] = []
    /// New todos to create: next occurrences, each with the number of the one it repeats.
    public var creations: [(previous: Int, todo: NewTodo)] = []
    /// The todo itself stops repeating: it was reopened, and its series goes on from a next
    /// occurrence kept because someone touched it (a series has one open occurrence).
    public var stopsRepeating = false

    public init() {}

    public static func == (a: TodoConsequences, b: TodoConsequences) -> Bool {
        a.updates == b.updates && a.creations.map(\.previous) == b.creations.map(\.previous)
            && a.creations.map(\.todo) == b.creations.map(\.todo) && a.stopsRepeating == b.stopsRepeating
    }
}

/// The todos related to one, read by the store before it writes.
public struct RelatedTodos: Sendable {
    /// Its subtasks, deleted ones included.
    public var subtasks: [Todo]
    /// Its parent, when it is a subtask.
    public var parent: Todo?
    /// The live todos that repeat it (made when it was completed).
    public var followers: [Todo]
    /// The numbers of those followers that have subtasks: work was added to them.
    public var followersWithSubtasks: Set<Int>
    /// The occurrence it repeats (`Todo.previous`), when it is one and is not purged.
    public var previous: Todo?

    public init(subtasks: [Todo] = [], parent: Todo? = nil, followers: [Todo] = [], followersWithSubtasks: Set<Int> = [], previous: Todo? = nil) {
        self.subtasks = subtasks
        self.parent = parent
        self.followers = followers
        self.followersWithSubtasks = followersWithSubtasks
        self.previous = previous
    }
}

extension TodoMutation {
    /// The changes that go with changing `before` into `after`, or the rule it breaks
    /// (checked before anything is written).
    ///
    /// - Completing: a parent with open subtasks is refused unless `completeWithChildren`,
    ///   which completes them too; a recurring todo (and each subtask completed with it)
    ///   gets its next occurrence.
    /// - Reopening: a next occurrence made by its completion is deleted (softly) if nobody
    ///   touched it since (open, revision 1); one that was changed is kept, and the todo
    ///   reopened then stops repeating, so that the series keeps one open occurrence: the kept
    ///   one, with the work done on it (or, when it was completed, the one that made).
    /// - Deleting a parent deletes its live subtasks at the same instant; restoring it
    ///   restores those (not subtasks deleted on their own before). A subtask is not
    ///   restored while its parent is deleted. Restoring a next occurrence while the one it
    ///   repeats is open (reopened) stops that one repeating: the series goes on from the
    ///   restored one, and keeps one open occurrence.
    public func consequences(of before: Todo, becoming after: Todo, related: RelatedTodos, at now: Date, today: LocalDate)
        throws(TodoModelError) -> TodoConsequences
    {
        var result = TodoConsequences()
        func changed(_ todo: Todo, _ change: (inout Todo) -> Void) {
            var next = todo
            change(&next)
            next.revision = todo.revision + 1
            next.updatedAt = now
            result.updates.append(next)
        }
        func occurrence(of todo: Todo) {
            if let next = todo.nextOccurrence(completedOn: today) { result.creations.append((todo.number, next)) }
        }
        if !before.isCompleted, after.isCompleted {
            let open = related.subtasks.filter { !$0.isCompleted && !$0.isDeleted }
            if case .completeWithChildren = self {} else {
                try SubtaskRule.checkCompletion(of: before, openSubtasks: open, withSubtasks: false)
            }
            occurrence(of: after)
            for subtask in open {
                changed(subtask) { $0.completedAt = now }
                occurrence(of: subtask)
            }
        }
        if before.isCompleted, !after.isCompleted {
            // Only an untouched occurrence goes: not edited, done, deleted, nor given subtasks.
            for follower in related.followers {
                if follower.isUntouchedOccurrence(hasSubtasks: related.followersWithSubtasks.contains(follower.number)) {
                    changed(follower) { $0.deletedAt = now }
                } else {
                    result.stopsRepeating = after.recurrence != nil
                }
            }
        }
        if !before.isDeleted, after.isDeleted {
            for subtask in related.subtasks where !subtask.isDeleted {
                changed(subtask) { $0.deletedAt = after.deletedAt }
            }
        }
        if before.isDeleted, !after.isDeleted {
            if let parent = related.parent, parent.isDeleted {
                throw .invalid(
                    field: "parent",
                    reason: "its parent #\(parent.number) is deleted: restore #\(parent.number), which restores its subtasks with it")
            }
            for subtask in related.subtasks where subtask.isDeleted && subtask.deletedAt == before.deletedAt {
                changed(subtask) { $0.deletedAt = nil }
            }
            if let previous = related.previous, after.recurrence != nil, previous.isOpenRepeating {
                changed(previous) { $0.recurrence = nil }
            }
        }
        return result
    }
}
