import Foundation

/// Undo, worked out from the journal alone: pure, so the store only reads and writes.
///
/// It goes field by field: a change is undone by putting back, in the todo as it is now,
/// the fields that change set. A field changed again by a later change (one not undone
/// with it), and not back to the value this change set, is a conflict naming that change,
/// unless forced. Undoing a creation deletes
/// (softly).
public enum JournalUndo {
    /// One todo's new state, and the oldest change of it that the undo takes back.
    public struct Write: Sendable, Equatable {
        public var before: Todo
        public var after: Todo
        public var undoes: UInt64

        public init(before: Todo, after: Todo, undoes: UInt64) {
            self.before = before
            self.after = after
            self.undoes = undoes
        }
    }

    /// The writes that record an undo which changes nothing (its changes were taken back
    /// by hand, or a later undo put their fields back): each todo it undoes, as it is, at
    /// its next revision. Journaled, they say which steps were taken back, so the next
    /// undo steps past them instead of meeting the same changes again.
    public static func unchanged(undoing undone: [JournalEntry], current: [UUID: Todo], at now: Date) -> [Write] {
        var order: [UUID] = []
        var oldest: [UUID: UInt64] = [:]
        for entry in undone.sorted(by: { $0.seq > $1.seq }) {
            if oldest[entry.after.id] == nil { order.append(entry.after.id) }
            oldest[entry.after.id] = entry.seq
        }
        return order.compactMap { id in
            guard let before = current[id], let undoes = oldest[id] else { return nil }
            var after = before
            after.revision += 1
            after.updatedAt = now
            return Write(before: before, after: after, undoes: undoes)
        }
    }

    /// - Parameters:
    ///   - undone: the changes to take back.
    ///   - history: every change, after the oldest of `undone`, of the todos they changed
    ///     (the undone ones among them).
    ///   - current: those todos as they are now, by id.
    /// - Returns: one write per todo that changes, in the order their newest undone change
    ///   was made, newest first; empty when nothing needs changing.
    public static func writes(undoing undone: [JournalEntry], history: [JournalEntry], current: [UUID: Todo], at now: Date,
                              force: Bool) throws(TodoModelError) -> [Write] {
        let undoneSeqs = Set(undone.map(\.seq))
        var states = current
        var order: [UUID] = []
        var oldest: [UUID: UInt64] = [:]
        for entry in undone.sorted(by: { $0.seq > $1.seq }) {
            let id = entry.after.id
            guard var todo = states[id] else { throw .notFound(.id(id)) }
            let later = history.filter { $0.after.id == id && $0.seq > entry.seq && !undoneSeqs.contains($0.seq) }
            if let before = entry.before {
                for field in entry.changedFields {
                    // The field's last setter is an undo of an older change (`undo SEQ --force`
                    // past this one): it holds a value from before this change already, which
                    // undoing this one too leaves, as undoing the two in order would have.
                    if !field.isEqual(in: todo, and: entry.after), let last = later.last(where: { $0.changedFields.contains(field) }),
                       !last.isRedo, let undid = last.undoes, undid < entry.seq {
                        continue
                    }
                    // A field that is as this change left it is put back whatever happened in
                    // between: a later change to it and its undo (stepping back past an undo) cancel out.
                    if !force, !field.isEqual(in: todo, and: entry.after), let clash = later.first(where: { $0.changedFields.contains(field) }) {
                        throw .undoConflict(field: field.rawValue, undoing: entry.seq, later: clash.seq, current: todo)
                    }
                    todo = field.copied(from: before, to: todo)
                }
            } else if todo.deletedAt == nil {
                todo.deletedAt = now
            }
            if !order.contains(id) { order.append(id) }
            oldest[id] = entry.seq
            states[id] = todo
        }
        return order.compactMap { id in
            guard let before = current[id], var after = states[id] else { return nil }
            // Deleted (or done) before and after: the same state, whatever time the steps give it.
            if before.deletedAt != nil, after.deletedAt != nil { after.deletedAt = before.deletedAt }
            if before.completedAt != nil, after.completedAt != nil { after.completedAt = before.completedAt }
            guard after != before else { return nil }
            after.revision = before.revision + 1
            after.updatedAt = now
            return Write(before: before, after: after, undoes: oldest[id] ?? 0)
        }
    }
}
