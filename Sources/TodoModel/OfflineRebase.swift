import Foundation

/// A change made while the shared store was away, taken onto the todo as the store holds
/// it now, field by field as undo works: a field the change set and nobody else changed
/// since takes the change's value; a field changed on both sides keeps the store's value,
/// and the change's is a conflict, kept for the user to take (`OfflineConflict`); tags,
/// annotations and dependencies are sets, as on one machine: what each side added or took away is kept.
///
/// Both sides completing, deleting or starting a todo agree, at whatever time each did it:
/// that is no conflict, and the store's time stays. Pure: the replica's sync reads the todos and
/// writes the result (TodoServers' `PendingChanges`).
public enum OfflineRebase {
    /// What became of one change.
    public struct Outcome: Sendable, Equatable {
        /// The todo to write, one revision after the store's; nil when nothing is left to
        /// change (every field it set is already so there, or each is a conflict).
        public var todo: Todo?
        /// The fields whose change was not taken: the store changed them too.
        public var conflicts: [TodoField]
    }

    /// `before` → `after` was the change on this machine; `current` is the todo as the store holds it now.
    public static func rebase(before: Todo, after: Todo, onto current: Todo) -> Outcome {
        var result = current
        var conflicts: [TodoField] = []
        for field in TodoField.allCases where !field.isEqual(in: before, and: after) {
            if field.isEqual(in: current, and: before) {
                result = field.copied(from: after, to: result)
            } else if field.isEqual(in: current, and: after) || bothSet(field, after, current) {
                continue
            } else if field == .tags {
                // Tags and annotations are sets, as on one machine: what this side added or took away, on theirs.
                let tags = merged(before.tags, after.tags, onto: current.tags)
                if tags.count > Todo.maximumTagCount { conflicts.append(field) } else { result.tags = tags }
            } else if field == .depends {
                result.depends = merged(before.depends, after.depends, onto: current.depends)
            } else if field == .annotations {
                // Past the most a todo may hold, as tags: a todo no import would take (outside probe P7-17).
                let annotations = merged(before.annotations, after.annotations, onto: current.annotations)
                if annotations.count > Annotation.maximumCount { conflicts.append(field) } else { result.annotations = annotations }
            } else {
                conflicts.append(field)
            }
        }
        // One machine refuses a repeat from the due date without a due date: the field this side
        // took that makes one is a conflict, the store's kept (outside probe P7-15).
        if result.recurrence?.basis == .due, result.due == nil, !(current.recurrence?.basis == .due && current.due == nil) {
            for field in [TodoField.due, .recurrence] where !field.isEqual(in: result, and: current) {
                result = field.copied(from: current, to: result)
                conflicts.append(field)
            }
        }
        guard result != current else { return Outcome(todo: nil, conflicts: conflicts) }
        result.revision = current.revision + 1
        result.updatedAt = max(after.updatedAt, current.updatedAt)
        return Outcome(todo: result, conflicts: conflicts)
    }

    /// `current` with what `before` → `after` added (at its end, in order) and took away.
    private static func merged<Element: Equatable>(_ before: [Element], _ after: [Element], onto current: [Element]) -> [Element] {
        let removed = before.filter { !after.contains($0) }
        let added = after.filter { !before.contains($0) && !current.contains($0) }
        return current.filter { !removed.contains($0) } + added
    }

    /// Completed, deleted or started on both sides: the same thing done twice, not two wishes
    /// (a start on both was a conflict of two instants seconds apart, shown as the same minute).
    private static func bothSet(_ field: TodoField, _ after: Todo, _ current: Todo) -> Bool {
        switch field {
        case .completedAt: after.completedAt != nil && current.completedAt != nil
        case .deletedAt: after.deletedAt != nil && current.deletedAt != nil
        case .started: after.started != nil && current.started != nil
        default: false
        }
    }
}
