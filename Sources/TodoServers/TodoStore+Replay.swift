import Foundation
import GRDB
import TodoModel

/// Replay inside a commit: every todo is checked against the rows (and the ones before it
/// in the same replay) before the first is written, so a replay applies whole or not at all.
///
/// A change already here, with the same content, is skipped: after a crash in the middle of
/// a replay no one can tell whether the batch that was committing is durable, so the answer
/// to "where do I go on from" is "from the start, again" and that must be safe.
///
/// Into an empty database, each change keeps its seq (and so a purge's gap, which undo does
/// not step back past); into one whose journal has passed it, it takes the next, and a jump in
/// the other one's seqs still leaves a gap here.
///
/// The journal keeps the other one's steps, undos, redos, times and authors (`ReplayJournal`),
/// so that `undo` on the copy takes back what it would have taken back there.
extension TodoStore {
    static func applyReplay(_ changes: [ReplayedChange], sources: [ReplaySource], as mutation: TodoMutation,
                            in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        var latest: [UUID: Todo] = [:]
        var numbers: [Int: UUID] = [:]
        var plan: [(before: Todo?, change: ReplayedChange, gap: Bool)] = []
        // Their seq of the change before in this request: a jump between two shows a purge there.
        var previousSeq: UInt64?
        var journal = try ReplayJournal(sources: sources, in: transaction.db)
        var renumbering = ReplayNumbers(last: transaction.counters.number)
        for var change in changes {
            let current = try latest[change.todo.id] ?? transaction.todos(.id(change.todo.id)).first
            let holder = try current == nil ? numbers[change.todo.number] ?? transaction.todos(.number(change.todo.number)).first?.id : nil
            change.todo = renumbering.numbered(change.todo, here: current, numberHeldByAnother: holder.map { $0 != change.todo.id } ?? false)
            let todo = change.todo
            let gap = previousSeq.map { change.seq > $0 + 1 } ?? false
            previousSeq = change.seq
            if let current {
                if todo.revision <= current.revision, try isStored(todo, current: current, in: transaction) {
                    try journal.skipped(change)
                    continue
                }
                guard todo.revision > current.revision, todo.number == current.number, todo.createdAt == current.createdAt else {
                    return .failed(mutation, .invalid(
                        field: "todo", reason: "#\(todo.number) revision \(todo.revision) does not follow revision \(current.revision) of the same todo, and is not that revision as stored here: replay a whole log, in order, into an empty database (or into the one it was replayed into before); into a shared store's replica, another machine changed this todo since"))
                }
            }
            numbers[todo.number] = todo.id
            latest[todo.id] = todo
            if let refusal = try replayedParentRefusal(todo, latest: latest, numbers: numbers, in: transaction) {
                return .failed(mutation, .invalid(field: "parent", reason: refusal))
            }
            plan.append((current, change, gap))
        }
        for step in plan {
            if step.before == nil { transaction.useNumber(step.change.todo.number) }
            let counted = transaction.counters.change
            transaction.numberNextChange(step.change.seq, gap: step.gap)
            // A number the other journal left unused was its purge (or a change to todos it purged): kept as one.
            if transaction.counters.change > counted { try PurgeMark.record(UInt64(transaction.counters.change), in: transaction.db) }
            let (now, before) = (transaction.now, step.before)
            let entry = try transaction.write(step.change.todo, before: before) { seq in
                journal.entry(step.change, seq: seq, before: before, now: now)
            }
            journal.wrote(entry, for: step.change)
        }
        // Every change already here is an answer too (an empty list): the asker counts them skipped.
        return changes.isEmpty ? .failed(mutation, .invalid(field: "changes", reason: "nothing to replay")) : .written(mutation, [])
    }

    /// Whether `todo` (at or before `current`'s revision) is a revision this database holds
    /// exactly so: the row itself, or that revision's journal entry.
    private static func isStored(_ todo: Todo, current: Todo, in transaction: TodoTransaction) throws -> Bool {
        if todo.revision == current.revision { return todo == current }
        let row = try Row.fetchOne(
            transaction.db.cachedStatement(sql: "SELECT * FROM journal WHERE number = ? AND revision = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [current.number, todo.revision])
        return try row.map { try TodoRecord(row: $0).todo == todo } ?? false
    }

    /// Why `todo`'s parent cannot be, or nil: it must be a todo here (replayed before it, or
    /// stored) that is not a subtask itself, as `SubtaskRule` keeps every database; and a
    /// live subtask's parent is live (todod deletes subtasks with their parent, after it in
    /// the same step, and restores a subtask only with its parent).
    private static func replayedParentRefusal(
        _ todo: Todo, latest: [UUID: Todo], numbers: [Int: UUID], in transaction: TodoTransaction
    ) throws -> String? {
        guard let number = todo.parent else { return nil }
        let parent = try numbers[number].flatMap { latest[$0] } ?? transaction.todos(.number(number)).first
        guard let parent else { return "#\(todo.number) names #\(number) as its parent, which is not a todo here: replay a whole log, in order" }
        if let grandparent = parent.parent {
            return "#\(todo.number) names #\(number) as its parent, itself a subtask of #\(grandparent); subtasks are one level deep"
        }
        if !todo.isDeleted, parent.isDeleted {
            return "#\(todo.number) revision \(todo.revision) is a live subtask of #\(number), which is deleted; todod deletes subtasks with their parent: the log was changed, or is not whole"
        }
        return nil
    }
}
