import Foundation
import GRDB
import TodoModel

/// The pending changes made again, in order, on the todos as the store holds them.
struct PendingRebase {
    var transaction: TodoTransaction
    /// The store's last change the pending ones followed.
    let base: UInt64
    private(set) var conflicts: [OfflineConflict] = []
    private(set) var renumbered: [(was: Int, now: Int)] = []
    private(set) var remade: [Todo] = []
    /// A todo added here that the store's own todo stands for (a next occurrence made on both sides).
    private var sameAs: [UUID: UUID] = [:]
    private var numbers: [Int: Int] = [:]
    /// Old seq → new, for the steps, undos and redos the later changes name.
    private var seqs: [UInt64: UInt64] = [:]
    private var shared: [JournalEntry] = []

    /// The higher of the store's last change and the pending ones'.
    private let after: UInt64
    /// The todos each step completed (a parent with its subtasks: the parent's change comes
    /// first), and reopened (an undone completion deletes the next occurrence first).
    private let completedInStep: [UInt64: Set<UUID>]
    private let reopenedInStep: [UInt64: Set<UUID>]
    /// When each todo a step reopened had been completed, as this machine had it (step → id → time).
    private let reopenedCompletion: [UInt64: [UUID: Date]]

    /// The first change made again is numbered two after `after`: no client sees a number
    /// twice, and the gap tells every View to read its list again. With none made again,
    /// `finish` leaves the gap all the same.
    /// `held`: the store's number of each pending change it holds already, not made again.
    init(db: Database, now: Date, base: UInt64, after: UInt64, pending: [JournalEntry], held: [UInt64: UInt64]) throws {
        self.base = base
        self.after = after
        seqs = held
        completedInStep = Self.steps(of: pending) { $0.after.isCompleted && $0.before?.isCompleted == false }
        reopenedInStep = Self.steps(of: pending) { !$0.after.isCompleted && $0.before?.isCompleted == true }
        reopenedCompletion = pending.reduce(into: [:]) { steps, entry in
            if !entry.after.isCompleted, let completed = entry.before?.completedAt { steps[entry.step, default: [:]][entry.after.id] = completed }
        }
        transaction = try TodoTransaction(db: db, now: now)
    }

    mutating func take(_ entry: JournalEntry) throws {
        var after = renumbered(entry.after)
        after.id = sameAs[after.id] ?? after.id
        let current = try transaction.todos(.id(after.id)).first
        guard let before = entry.before.map(renumbered) else {
            guard let current else { return try create(after, as: entry) }
            return made(after, onBoth: current, as: entry)
        }
        guard let current else { return try remake(after, before: before, as: entry) }
        if try keepsOccurrenceOfRefusedReopen(before: before, after: after, current: current, as: entry) { return }
        if try keepsTouchedOccurrence(before: before, after: after, current: current, as: entry) { return }
        var was = before
        was.id = current.id
        let outcome = OfflineRebase.rebase(before: was, after: after, onto: current)
        for field in outcome.conflicts {
            keep(OfflineConflict(id: current.id, number: current.number, field: field, local: after, theirs: current, at: entry.at))
        }
        guard let merged = outcome.todo else { return }
        let todo = try rulesChecked(try parentChecked(merged, as: entry), current: current, as: entry)
        // What the rules gave back may leave nothing to change.
        guard TodoField.allCases.contains(where: { !$0.isEqual(in: todo, and: current) }) else { return }
        try write(todo, before: current, as: entry)
    }

    /// A todo made here that the store holds too, made on another machine with the same id (one
    /// file imported on both, a UID both calendars had): the store's todo stays, and each field
    /// this machine gave another value is a conflict, as a field changed on both sides is. It
    /// vanished without one (outside probe 11, F14). Its later changes here follow the store's number.
    private mutating func made(_ todo: Todo, onBoth current: Todo, as entry: JournalEntry) {
        if todo.number != current.number { numbers[todo.number] = current.number }
        for field in TodoField.allCases where !field.isEqual(in: todo, and: current) {
            keep(OfflineConflict(id: current.id, number: current.number, field: field, local: todo, theirs: current, at: entry.at))
        }
    }

    /// One conflict for each todo's field in a sharing, with this machine's last value: 60
    /// annotations made offline past the most a todo holds were 21 conflicts, each listing
    /// a longer prefix of them (outside probe 9, F6).
    private mutating func keep(_ conflict: OfflineConflict) {
        if let index = conflicts.firstIndex(where: { $0.id == conflict.id && $0.field == conflict.field }) {
            conflicts[index].local = conflict.local
            conflicts[index].at = conflict.at
        } else {
            conflicts.append(conflict)
        }
    }

    /// The todos each step of `pending` changed as `changes` says.
    private static func steps(of pending: [JournalEntry], where changes: (JournalEntry) -> Bool) -> [UInt64: Set<UUID>] {
        pending.reduce(into: [:]) { steps, entry in
            if changes(entry) { steps[entry.step, default: []].insert(entry.after.id) }
        }
    }

    /// A next occurrence deleted here with the reopening (or the undone completion) of the
    /// one it repeats: on one machine it goes only while untouched. Touched elsewhere
    /// meanwhile (edited, completed), it stays, and the reopened one stops repeating: a
    /// series keeps one open occurrence (outside probe P7-18: both stayed open and
    /// repeating, or the edited occurrence was deleted). True when it is kept so.
    private mutating func keepsTouchedOccurrence(before: Todo, after: Todo, current: Todo, as entry: JournalEntry) throws -> Bool {
        guard after.isDeleted, !before.isDeleted, !current.isDeleted, let previous = current.previous,
              let repeated = try transaction.todos(.number(previous)).first, repeated.recurrence != nil, !repeated.isDeleted,
              !repeated.isCompleted || reopenedInStep[entry.step]?.contains(repeated.id) == true,
              try !current.isUntouchedOccurrence(hasSubtasks: hasLiveSubtasks(current.number)) else { return false }
        var stopped = repeated
        stopped.recurrence = nil
        stopped.revision = repeated.revision + 1
        stopped.updatedAt = max(entry.at, repeated.updatedAt)
        try write(stopped, before: repeated, as: entry)
        return true
    }

    /// A next occurrence deleted here with the reopening (or undone completion) of the one it
    /// repeats, which another machine completed meanwhile: that reopen is a conflict (the
    /// store's completion stays), so its consequence does not apply either, and the
    /// occurrence stays the series' open one. It was deleted, and the series had none
    /// (outside probe 7, O6: done and reopened here, done there). True when it is kept so.
    private func keepsOccurrenceOfRefusedReopen(before: Todo, after: Todo, current: Todo, as entry: JournalEntry) throws -> Bool {
        guard after.isDeleted, !before.isDeleted, !current.isDeleted, let previous = current.previous,
              let repeated = try transaction.todos(.number(previous)).first, let completedThere = repeated.completedAt,
              let completedHere = reopenedCompletion[entry.step]?[repeated.id] else { return false }
        return completedThere != completedHere
    }

    /// Whether the todo numbered `number` has subtasks, live ones.
    private func hasLiveSubtasks(_ number: Int) throws -> Bool {
        try Int.fetchOne(transaction.db, sql: "SELECT count(*) FROM todo WHERE parent = ? AND deletedAt IS NULL", arguments: [number]) ?? 0 > 0
    }

    /// The rules one machine keeps that read other todos, checked again on the merged
    /// `todo`: what one machine would have refused is a conflict, the store's value kept
    /// (`current`'s). Without this a merge made a dependency cycle, or a parent done with
    /// an open subtask (outside probe P7-1, P7-2).
    private mutating func rulesChecked(_ todo: Todo, current: Todo, as entry: JournalEntry) throws -> Todo {
        var todo = todo
        let lookUp = { [transaction] (id: UUID) in try transaction.todos(.id(id)).first }
        for id in todo.depends where !current.depends.contains(id) {
            guard let other = try lookUp(id), try DependencyRule.path(from: other, to: todo.id, byID: lookUp) != nil else { continue }
            keep(OfflineConflict(id: todo.id, number: todo.number, field: .depends, local: todo, theirs: current, at: entry.at, cause: .dependencyCycle))
            todo.depends = current.depends
            break
        }
        if todo.isCompleted, !current.isCompleted {
            let completed = completedInStep[entry.step] ?? []
            let open = try TodoRecord.fetchAll(
                transaction.db, sql: "SELECT * FROM todo WHERE parent = ? AND deletedAt IS NULL AND completedAt IS NULL",
                arguments: [todo.number]).filter { !completed.contains($0.todo.id) }
            if !open.isEmpty {
                keep(OfflineConflict(id: todo.id, number: todo.number, field: .completedAt, local: todo, theirs: current, at: entry.at, cause: .openSubtasks))
                todo.completedAt = current.completedAt
            }
        }
        return todo
    }

    /// A change to a todo another machine purged meanwhile (deleted there, then removed for
    /// good): the todo is made again, as the change would have left the deleted todo, so that
    /// nothing typed here is lost. An edit leaves it deleted with the edit, as an edit of a
    /// todo deleted elsewhere does (restore brings it back); a restore here brings it back.
    /// A delete here leaves it purged. It was dropped, said only in the log (outside probe P7-13).
    private mutating func remake(_ after: Todo, before: Todo, as entry: JournalEntry) throws {
        var purged = before
        purged.deletedAt = before.deletedAt ?? transaction.now
        guard let merged = OfflineRebase.rebase(before: before, after: after, onto: purged).todo else { return }
        let todo = numbered(merged, renumber: try !transaction.todos(.number(merged.number)).isEmpty)
        remade.append(todo)
        try write(try parentChecked(todo, as: entry), before: nil, as: entry)
    }

    /// `todo` as `SubtaskRule` keeps every database: a live subtask's parent is a live
    /// todo here, no subtask itself, and an open one's is open. A parent the other machine
    /// deleted, completed, purged or made a subtask meanwhile, or subtasks it gave this one,
    /// make it a todo of its own, the parent kept as a conflict saying which (on one machine
    /// the add or edit would have been refused).
    private mutating func parentChecked(_ todo: Todo, as entry: JournalEntry) throws -> Todo {
        guard let number = todo.parent, !todo.isDeleted else { return todo }
        let parent = try transaction.todos(.number(number)).first
        // Subtasks are one level deep: one given subtasks elsewhere meanwhile stays a parent (outside probe P7-14).
        let hasSubtasks = try hasLiveSubtasks(todo.number)
        let cause: OfflineConflict.Cause
        if let parent, !parent.isDeleted, todo.isCompleted || !parent.isCompleted {
            if hasSubtasks { cause = .gainedSubtasks } else if parent.parent != nil { cause = .parentIsSubtask } else { return todo }
        } else {
            cause = .parentGone
        }
        var alone = todo
        alone.parent = nil
        // Theirs is this todo as it now stands (alone), not the parent: `conflicts` showed the parent's title and
        // the parent's own parent as the value kept (outside probe P7-3).
        keep(OfflineConflict(id: todo.id, number: todo.number, field: .parent, local: todo, theirs: alone, at: entry.at, cause: cause))
        return alone
    }

    /// A todo added here: the number it was given unless another machine took it, or the
    /// store's own next occurrence when its completion made one there too.
    private mutating func create(_ todo: Todo, as entry: JournalEntry) throws {
        var todo = todo
        if let previous = todo.previous, let twin = try Self.occurrence(of: previous, in: transaction.db) {
            sameAs[todo.id] = twin.id
            return
        }
        // Only a number another machine gave is given anew: one todo added there renumbered every todo added
        // here after it, a whole offline session's numbers (outside probe 11, F13). A next occurrence stays
        // above the one it repeats (`todod --check` holds it), which its renumbering may have moved past it.
        let taken = try !transaction.todos(.number(todo.number)).isEmpty
        todo = numbered(todo, renumber: taken || todo.previous.map { $0 >= todo.number } == true)
        try write(try parentChecked(todo, as: entry), before: nil, as: entry)
    }

    /// `todo` with its own number, marked used; or, with `renumber`, with the next number
    /// neither side gave, which later changes naming the old one follow (`#3 is now #5`).
    private mutating func numbered(_ todo: Todo, renumber: Bool) -> Todo {
        var todo = todo
        guard renumber else {
            transaction.useNumber(todo.number)
            return todo
        }
        let number = transaction.nextNumber()
        renumbered.append((todo.number, number))
        numbers[todo.number] = number
        todo.number = number
        return todo
    }

    /// The live next occurrence of `previous` the store already holds, if any.
    private static func occurrence(of previous: Int, in db: Database) throws -> Todo? {
        try TodoRecord.fetchOne(db, sql: "SELECT * FROM todo WHERE previous = ? AND deletedAt IS NULL LIMIT 1", arguments: [previous])?.todo
    }

    private mutating func write(_ todo: Todo, before: Todo?, as entry: JournalEntry) throws {
        // A seq at or below `base` is the store's, the same there; a later one is a pending change's, made again or not.
        let (seqs, base) = (seqs, base)
        if shared.isEmpty { transaction.numberNextChange(after + 2, gap: false) }
        let written = try transaction.write(todo, before: before) { seq in
            JournalEntry(
                seq: seq, step: seqs[entry.step] ?? seq, at: entry.at, author: entry.author, kind: TodoChangeKind(before: before, after: todo),
                before: before, after: todo, undoes: entry.undoes.flatMap { $0 > base ? seqs[$0] : $0 },
                undoneSteps: entry.undoneSteps.compactMap { $0 > base ? seqs[$0] : $0 }, isRedo: entry.isRedo)
        }
        if self.seqs[entry.step] == nil { self.seqs[entry.step] = written.seq }
        self.seqs[entry.seq] = written.seq
        shared.append(written)
    }

    /// A todo's numbers (its own, its parent's, the occurrence it repeats) as renumbered here.
    private func renumbered(_ todo: Todo) -> Todo {
        var todo = todo
        if let number = numbers[todo.number] { todo.number = number }
        if let parent = todo.parent, let number = numbers[parent] { todo.parent = number }
        if let previous = todo.previous, let number = numbers[previous] { todo.previous = number }
        return todo
    }

    /// What the changes made again so far give the store: them, the counters as they leave them
    /// (past every number a client saw, also when none was made again).
    mutating func toPush() -> (entries: [JournalEntry], number: Int, change: UInt64) {
        if shared.isEmpty { transaction.numberNextChange(after + 2, gap: false) }
        return (shared, transaction.counters.number, UInt64(transaction.counters.change))
    }

    /// Saves the counters and the conflicts, once the page was pushed (`toPush`, which moved the
    /// counters past every number a client saw, also when nothing was made again) and the rest
    /// made again here.
    mutating func finish() throws {
        try transaction.save()
        for conflict in conflicts { try conflict.insert(in: transaction.db) }
    }
}
