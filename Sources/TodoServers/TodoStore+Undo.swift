import Foundation
import GRDB
import TodoModel

/// Undo inside a commit: the store reads what to take back from the journal, `JournalUndo`
/// works out the todos, and `TodoTransaction.write` journals them like any change.
extension TodoStore {
    static func applyUndo(_ undo: TodoUndo, as mutation: TodoMutation, in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        let db = transaction.db
        let steps: [UInt64]
        let what: String
        let last = UInt64(transaction.counters.change)
        if let seq = undo.seq {
            steps = try Int64.fetchOne(db, sql: "SELECT step FROM journal WHERE seq = ?", arguments: [Int64(seq)]).map { [UInt64($0)] } ?? []
            what = (1...max(last, 1)).contains(seq) && last > 0
                ? "change \(seq) is not in the journal: it was a purge, or a change to todos purged since, and neither can be undone"
                : "the journal holds no change \(seq); the last is \(last)"
        } else if let since = undo.since {
            var journal = try JournalSteps(in: db)
            // By time, not number: changes shared after an outage are numbered after newer ones (O7).
            let oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM journal WHERE at >= ?", arguments: [since.millisecondsSince1970])
            // As plain undo, --since does not step back past a purge: only what came after it.
            let found = try UndoWalk.changes(since: since, from: oldest.map(UInt64.init), through: undo.through,
                                             lastPurge: PurgeMark.newest(in: db)) { try journal.next() }
            steps = found.steps.map(\.step)
            // An empty journal said "no change made since then is still in effect", as if there were older ones (outside probe 10).
            what = last == 0 ? "the journal is empty"
                : found.stoppedAtPurge
                ? "a purge (`todoctl purge`) removed deleted todos and their history since then, and undo does not step back past a purge; no change made after it is still in effect; an older change can still be undone by its number: `todoctl undo SEQ`"
                : "no change made since then is still in effect (undos, redos and changes already undone are stepped past)"
        } else {
            var journal = try JournalSteps(in: db)
            switch try UndoWalk.undoTarget(lastPurge: PurgeMark.newest(in: db), { try journal.next() }) {
            case .change(let step): steps = [step.step]
            case .purged:
                // Reaching past a purge would surprise: what it removed took part of the history with it.
                return .failed(mutation, .nothingToUndo(
                    "a purge (`todoctl purge`) removed deleted todos and their history after the last change still in effect, and undo does not step back past a purge; an older change can still be undone by its number: `todoctl undo SEQ`"))
            case .none: steps = []
            }
            what = last == 0 ? "the journal is empty" : "every change in the journal is undone already (redo with `todoctl redo`)"
        }
        // A change undone already would only clash with its own undo: say so instead.
        if let seq = undo.seq, let step = steps.first {
            var journal = try JournalSteps(in: db)
            if let by = try UndoWalk.takenBack(step, { try journal.next() }) {
                return .failed(mutation, .nothingToUndo(
                    "change \(seq) was taken back already, by change \(by); `todoctl undo \(by)` puts it back"))
            }
        }
        // Taking back an undo (naming it, `todoctl undo SEQ`) redoes it, as `todoctl redo` would.
        let isRedo = try undo.seq != nil && steps.count == 1 && isUndo(step: steps[0], in: db)
        let result = try takeBack(steps: steps, isRedo: isRedo, preview: undo.preview, force: undo.force, nothing: .nothingToUndo(what), as: mutation, in: &transaction)
        // A plain undo's step was picked here, not by the user: advice to undo a seq first or
        // to add --force would name what they never aimed at.
        if undo.seq == nil, undo.since == nil, case .failed(_, .undoConflict(let field, let undoing, let later, let current)) = result {
            return .failed(mutation, .nothingToUndo(
                "the last change still in effect, change \(undoing), set #\(current.number)'s \(field), and change \(later) set it again since (see `todoctl history \(current.number)`)"))
        }
        return result
    }

    /// Takes back the newest undo still in effect; a change made since ends the chain.
    static func applyRedo(as mutation: TodoMutation, in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        var journal = try JournalSteps(in: transaction.db)
        switch try UndoWalk.redoTarget({ try journal.next() }) {
        case .undo(let undo):
            // As undo does not step back past a purge, redo does not reach back past one: the
            // purge took a change number with no row, and may have removed the change that
            // ended the chain (redo deleted a todo restored since, found by an outside probe).
            guard try PurgeMark.newest(in: transaction.db) < undo.seqs.upperBound else {
                return .failed(mutation, .nothingToRedo(
                    "a purge (`todoctl purge`) came after the last undo, and redo does not reach back past a purge: "
                        + "what it removed may have been the change that ended the redo chain"))
            }
            return try takeBack(steps: [undo.step], isRedo: true, preview: false, force: false,
                                nothing: .nothingToRedo("the todos are already as the redo would leave them"), as: mutation, in: &transaction)
        case .endedBy(let change):
            let db = transaction.db
            // Only on this refusal, so that a redo reads no further back than its walk: a chain
            // needs an undo before the change that ended it.
            let anyUndo = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM journal WHERE seq < ? AND (undoes IS NOT NULL OR undoneSteps IS NOT NULL))",
                arguments: [Int64(change.step)]) ?? false
            guard anyUndo else { return .failed(mutation, .nothingToRedo(try nothingUndone(in: transaction))) }
            let entry = try JournalRecord.entries(stepRows(of: Int64(change.step), in: db), in: db).first
            let named = entry.map { " (\(TodoStore.describe($0)))" } ?? ""
            // Undo does not step back past a purge: pointing at it then would send the user to a refusal.
            var journal = try JournalSteps(in: db)
            let undoable = try UndoWalk.undoTarget(lastPurge: PurgeMark.newest(in: db), { try journal.next() }) != .purged
            return .failed(mutation, .nothingToRedo(
                "change \(change.step)\(named) was made after the last undo, and a new change ends the redo chain, as in editors"
                    + (undoable ? "; `todoctl undo` takes it back" : "")))
        case .allRedone:
            return .failed(mutation, .nothingToRedo("every undo since the last change is redone already"))
        case .noUndo:
            return .failed(mutation, .nothingToRedo(transaction.counters.change == 0 ? "the journal is empty" : try nothingUndone(in: transaction)))
        }
    }

    /// Why no undo is left to redo: none was made, or a purge since took it away. A purge
    /// takes a change number but leaves no row, and removes the rows of the todos it
    /// purges, an undo of them among them: so the newest row is older than the purge.
    private static func nothingUndone(in transaction: TodoTransaction) throws -> String {
        let newest = try Int64.fetchOne(transaction.db, sql: "SELECT MAX(seq) FROM journal") ?? 0
        guard try PurgeMark.newest(in: transaction.db) > newest else { return "nothing has been undone" }
        return "a purge (`todoctl purge`) came after the last change and removed deleted todos with their history, "
            + "any undo of them included, and what it removed cannot be redone"
    }

    /// `#3 updated by watch (client 7)`: a change named in a message.
    static func describe(_ entry: JournalEntry) -> String {
        "#\(entry.after.number) \(entry.kind.rawValue) by \(entry.author.description)"
    }

    /// Whether `step` is an undo (one that took back changes or a redo), not a change or a redo.
    private static func isUndo(step: UInt64, in db: Database) throws -> Bool {
        var journal = try JournalSteps(in: db, only: step)
        guard let found = try journal.next() else { return false }
        return !found.isChange && !found.isRedo
    }

    /// Takes back the journal steps `steps`, as one step of its own that records them
    /// (`JournalEntry.undoneSteps`); with `preview`, only lists their changes.
    private static func takeBack(steps: [UInt64], isRedo: Bool, preview: Bool, force: Bool, nothing: TodoModelError,
                                 as mutation: TodoMutation, in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        let db = transaction.db
        var rows = try stepRows(of: steps.count == 1 ? Int64(steps[0]) : nil, in: db)
        var count = rows.count
        if steps.count > 1, let first = steps.min() {
            // Several steps (--since): one range read from the oldest, not a read per step
            // (each would scan to the journal's end: 20,000 steps took 42 s). Counted first,
            // on the step column alone, so that a refused undo reads no todos.
            let wanted = Set(steps)
            count = try Int64.fetchAll(db, sql: "SELECT step FROM journal WHERE seq >= ?", arguments: [Int64(first)])
                .filter { wanted.contains(UInt64($0)) }.count
            if count <= maximumUndoneChanges {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq >= ? ORDER BY seq", arguments: [Int64(first)])
                    .filter { wanted.contains(UInt64($0["step"] as Int64)) }
            }
        }
        guard count <= maximumUndoneChanges else {
            return .failed(mutation, .invalid(
                field: "since",
                reason: "that undo would take back \(count) changes at once; the most is \(maximumUndoneChanges): undo a later time, or one step at a time (todoctl undo, or todoctl undo SEQ)"))
        }
        let undone = try JournalRecord.entries(rows, in: db)
        guard let oldest = undone.map(\.seq).min() else { return .failed(mutation, nothing) }
        if preview { return .previewed(mutation, undone) }
        let ids = Set(undone.map(\.after.id)).map { $0.uuidString.lowercased() }
        let history = try JournalRecord.entries(
            Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq > ? AND id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY seq",
                         arguments: StatementArguments([Int64(oldest)] as [any DatabaseValueConvertible] + ids)),
            in: db)
        var current: [UUID: Todo] = [:]
        for todo in try TodoRecord.fetchAll(db, sql: "SELECT * FROM todo WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                                            arguments: StatementArguments(ids)).map(\.todo) {
            current[todo.id] = todo
        }
        var writes: [JournalUndo.Write]
        do {
            writes = try JournalUndo.writes(undoing: undone, history: history, current: current, at: transaction.now, force: force)
        } catch .undoConflict(let field, _, let later, let current) where mutation == .redo {
            // Not reached through the chain (a later change ends it), but a redo never
            // overwrites what someone changed after the undo.
            return .failed(mutation, .nothingToRedo(
                "#\(current.number)'s \(field) was changed by change \(later) after the undo, and a redo never overwrites it: nothing was redone"))
        } catch {
            return .failed(mutation, error)
        }
        writes = try keepingTouchedOccurrences(writes, undoing: undone, in: db)
        writes = try endingOlderOccurrences(writes, at: transaction.now, in: db)
        if let refusal = try parentRefusal(of: writes, in: transaction) ?? dependencyRefusal(of: writes, in: transaction) {
            return .failed(mutation, refusal)
        }
        let changing = try withSubtasks(writes, at: transaction.now, in: db)
        // One that changes nothing is journaled still (`JournalUndo.unchanged`): the walk steps past it.
        let recorded = changing.isEmpty ? JournalUndo.unchanged(undoing: undone, current: current, at: transaction.now) : changing
        guard !recorded.isEmpty else { return .failed(mutation, nothing) }
        for write in recorded {
            try transaction.write(write.after, before: write.before, undoes: write.undoes, undoneSteps: steps, isRedo: isRedo)
        }
        return .written(mutation, [])
    }

    /// Undoing a repeating todo's completion takes back the next occurrence it made as
    /// `reopen` does (PROTOCOL.md): only one nobody touched since (open, at its first
    /// revision, without subtasks) is deleted; one that was edited or completed is kept,
    /// with the work done on it, and the todo reopened stops repeating, as with `reopen`:
    /// a series keeps one open occurrence. What the undone changes did to it themselves is
    /// no touch: `done 1 2` on a repeating #1 completes the #2 it made, and one undo takes
    /// the whole command back, #2 with it (it stayed done, and #1 stopped repeating; outside probe).
    private static func keepingTouchedOccurrences(_ writes: [JournalUndo.Write], undoing undone: [JournalEntry], in db: Database) throws -> [JournalUndo.Write] {
        let completed = Set(undone.filter { $0.before.map { !$0.isCompleted } == true && $0.after.isCompleted }.map(\.after.number))
        let occurrences = Set(undone.filter { $0.before == nil && $0.after.previous.map(completed.contains) == true }.map(\.after.id))
        // The revision each todo was left at by the changes undone: one still at it was changed by nothing since.
        let leftAt = Dictionary(undone.map { ($0.after.id, $0.after.revision) }, uniquingKeysWith: max)
        var kept: Set<Int> = []
        var filtered = try writes.filter { write in
            guard occurrences.contains(write.after.id), write.before.deletedAt == nil, write.after.deletedAt != nil else { return true }
            let hasSubtasks = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM todo WHERE parent = ?)"), arguments: [write.before.number]) ?? false
            if write.before.isUntouchedOccurrence(hasSubtasks: hasSubtasks) || (!hasSubtasks && write.before.revision == leftAt[write.after.id]) {
                return true
            }
            if let previous = write.before.previous { kept.insert(previous) }
            return false
        }
        for index in filtered.indices where kept.contains(filtered[index].after.number)
            && filtered[index].before.isCompleted && !filtered[index].after.isCompleted {
            filtered[index].after.recurrence = nil
        }
        return filtered
    }

    /// An undo that brings back a next occurrence (undoing its delete) while the one it
    /// repeats is open stops that one repeating, in the same step, as `restore` does: a series
    /// keeps one open occurrence.
    private static func endingOlderOccurrences(_ writes: [JournalUndo.Write], at now: Date, in db: Database) throws -> [JournalUndo.Write] {
        var all = writes
        for write in writes where write.before.isDeleted && !write.after.isDeleted && write.after.recurrence != nil {
            guard let number = write.after.previous else { continue }
            if let index = all.firstIndex(where: { $0.after.number == number }) {
                if all[index].after.isOpenRepeating { all[index].after.recurrence = nil }
            } else if let previous = try TodoRecord.fetch(.number(number), in: db).first, previous.isOpenRepeating {
                var after = previous
                after.recurrence = nil
                after.revision += 1
                after.updatedAt = now
                all.append(JournalUndo.Write(before: previous, after: after, undoes: write.undoes))
            }
        }
        return all
    }

    /// The most changes one undo takes back: an undo step is one transaction, and a step over a
    /// whole import (100,000 changes) held every writer for minutes.
    static let maximumUndoneChanges = 1000

    /// Undo puts fields back one by one; a parent put back must still make the one-level tree
    /// an edit would (the parent there, not a subtask itself, the todo without subtasks of its
    /// own), or a cycle or a purged parent would come back. `--force` does not lift this.
    private static func parentRefusal(of writes: [JournalUndo.Write], in transaction: TodoTransaction) throws -> TodoModelError? {
        let undone = Dictionary(writes.map { ($0.after.number, $0.after) }) { $1 }
        for write in writes where write.after.parent != write.before.parent {
            guard let number = write.after.parent else { continue }
            let parent = try undone[number] ?? transaction.todos(.number(number)).first
            let children = try subtasks(of: write.after, in: transaction.db).map { undone[$0.number] ?? $0 }
                + writes.map(\.after).filter { $0.parent == write.after.number }
            let hasSubtasks = children.contains { $0.parent == write.after.number && !$0.isDeleted }
            do throws(TodoModelError) {
                try SubtaskRule.check(child: write.after, parentNumber: number, parent: parent, childHasSubtasks: hasSubtasks)
            } catch {
                if case .invalid(let field, let reason) = error {
                    return .invalid(field: field, reason: "cannot undo: it would make #\(write.after.number) a subtask of #\(number), but \(reason)")
                }
                return error
            }
        }
        return nil
    }

    /// A dependency put back must not close a cycle, as an edit's may not (`DependencyRule`):
    /// undoing `depends:-7` after #7 came to wait for #6 made both wait for ever (outside
    /// probe P7-7). `--force` does not lift this either.
    private static func dependencyRefusal(of writes: [JournalUndo.Write], in transaction: TodoTransaction) throws -> TodoModelError? {
        let undone = Dictionary(writes.map { ($0.after.id, $0.after) }) { $1 }
        let lookUp = { (id: UUID) throws -> Todo? in try undone[id] ?? transaction.todos(.id(id)).first }
        for write in writes {
            for id in write.after.depends where !write.before.depends.contains(id) {
                guard let other = try lookUp(id), let path = try DependencyRule.path(from: other, to: write.after.id, byID: lookUp) else { continue }
                let round = ([write.after.number] + path.map(\.number) + [write.after.number]).map { "#\($0)" }.joined(separator: " → ")
                return .invalid(field: "depends", reason: """
                    cannot undo: it would make #\(write.after.number) wait for #\(other.number) again, which waits for it now (\(round)): \
                    take one dependency away first (todoctl edit \(path.last?.number ?? other.number) depends:-\(write.after.number)), then undo
                    """)
            }
        }
        return nil
    }

    /// An undo that deletes a parent (undoing its creation, or its restore) deletes its live
    /// subtasks too, as `rm` does, at the same instant and in the same step: a live subtask
    /// never has a deleted parent, and a redo (or an undo of this undo) brings them all back.
    private static func withSubtasks(_ writes: [JournalUndo.Write], at now: Date, in db: Database) throws -> [JournalUndo.Write] {
        var all = writes
        for write in writes where write.before.deletedAt == nil && write.after.deletedAt != nil {
            for subtask in try subtasks(of: write.after, in: db) {
                let index = all.firstIndex { $0.after.id == subtask.id }
                var after = index.map { all[$0].after } ?? subtask
                guard after.deletedAt == nil else { continue }
                after.deletedAt = write.after.deletedAt
                if let index {
                    all[index].after = after
                } else {
                    after.revision += 1
                    after.updatedAt = now
                    all.append(JournalUndo.Write(before: subtask, after: after, undoes: write.undoes))
                }
            }
        }
        return all
    }

    /// The rows of one step: they come at or after its first seq, so SQLite reads a range, not the table.
    private static func stepRows(of step: Int64?, in db: Database) throws -> [Row] {
        guard let step else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq >= ? AND step = ? ORDER BY seq", arguments: [step, step])
    }
}
