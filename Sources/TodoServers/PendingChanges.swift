import Foundation
import GRDB
import SharedStoreContract
import TodoModel

/// The changes this replica committed while the shared store was away (`todod --store`):
/// written to the database and its journal like any change, so a kill -9 or a reboot keeps
/// them, and marked *not yet shared* by one row, `pending`: the store's last change they
/// follow (`base`) and the id of the push that will share them.
///
/// Sharing them (`share`) is one SQLite transaction inside the shared one, so that either
/// both commit or neither does. When nobody else wrote meanwhile they go to the store as
/// they are. Otherwise the replica is rewound to `base`, takes the store's changes, and
/// each pending change is made again on the store's todo, field by field (`OfflineRebase`):
/// a field changed on both sides keeps the store's value and the local one is kept as a
/// conflict (`conflict` table). A todo added here whose number another machine took gets
/// the next free one; a next occurrence made here of a repeating todo that the store's
/// completion already continued is not made twice. The store remembers how far each push
/// got (`SharedPush`), so one cut off after the store's commit is resumed, not repeated.
struct PendingChanges {
    let store: TodoStore

    /// The mark of the pending changes: the store's change they follow, and their push's id.
    struct Mark: Equatable {
        var base: UInt64
        var push: UUID
    }

    /// What sharing did.
    struct Shared {
        /// The store's last change the pending ones followed.
        var base: UInt64
        /// The store's changes taken (others', and this replica's from a push cut off before).
        var taken: [JournalEntry]
        /// The pending changes as the store now holds them; their own when nobody else wrote.
        var shared: [JournalEntry]
        /// Whether the replica was rewound and its changes made again (its todos and numbers changed).
        var rebased: Bool
        var conflicts: [OfflineConflict]
        /// Todos added here whose number another machine had taken: (was, now).
        var renumbered: [(was: Int, now: Int)]
        /// Todos changed here that another machine purged meanwhile, made again as this
        /// machine's changes left them (deleted, unless restored here).
        var remade: [Todo]

        /// This page's outcome, then `next`'s: from the first's base, everything taken and pushed.
        func followed(by next: Shared) -> Shared {
            Shared(base: base, taken: taken + next.taken, shared: shared + next.shared, rebased: rebased || next.rebased,
                   conflicts: conflicts + next.conflicts, renumbered: renumbered + next.renumbered, remade: remade + next.remade)
        }
    }

    static func registerMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("shared store: pending changes") { db in
            try db.execute(sql: """
                CREATE TABLE pending (base INTEGER NOT NULL, push TEXT NOT NULL);
                CREATE TABLE conflict (
                    n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, number INTEGER NOT NULL, field TEXT NOT NULL,
                    local TEXT NOT NULL, theirs TEXT NOT NULL, at INTEGER NOT NULL, takenAt INTEGER);
                """)
        }
    }

    /// The pending changes' mark; nil when every change is shared.
    func mark() throws -> Mark? {
        try store.pool.read { db in try Self.mark(in: db) }
    }

    private static func mark(in db: Database) throws -> Mark? {
        guard let row = try Row.fetchOne(db, sql: "SELECT base, push FROM pending") else { return nil }
        let text: String = row["push"]
        guard let push = UUID(uuidString: text) else { throw TodoStoreError("the pending table holds a bad push id \(text)") }
        return Mark(base: UInt64(row["base"] as Int64), push: push)
    }

    /// How many changes wait to be shared.
    func count() throws -> Int {
        try store.pool.read { db in
            guard let mark = try Self.mark(in: db) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM journal WHERE seq > ?", arguments: [Int64(mark.base)]) ?? 0
        }
    }

    /// Commits `mutations` to this replica alone, marking them pending (the first offline
    /// commit marks where the store's changes end). A purge is not taken offline: it removes
    /// todos for good, on every machine, and the others may still be editing them.
    func commit(_ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], steps: [WriteStep]) throws -> [TodoWriteResult] {
        try store.write(mutations, at: now, by: authors, steps: steps) { changes, db in
            guard let first = changes.firstSeq, try Self.mark(in: db) == nil else { return }
            try db.execute(sql: "INSERT INTO pending (base, push) VALUES (?, ?)", arguments: [Int64(first - 1), UUID().uuidString])
        }
    }

    /// Marks every change after `base` pending, as if made while the store was away: the
    /// store does not hold them (restored from an older backup), or the database joins it.
    /// An older mark's base goes down to `base`. Returns how many changes are pending now;
    /// nil when a purge here follows `base` > 0: the store may still hold todos it removed
    /// here, which cannot be made again. From 0 (joining) nothing of the store is here to miss.
    func markLost(after base: UInt64) throws -> Int? {
        try store.pool.write { db in
            guard try base == 0 || PurgeMark.newest(in: db) <= base else { return nil }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM journal WHERE seq > ?", arguments: [Int64(base)]) ?? 0
            if let mark = try Self.mark(in: db) {
                if mark.base > base { try db.execute(sql: "UPDATE pending SET base = ?", arguments: [Int64(base)]) }
            } else if try Counters.load(db).change > base {
                // Also with no entry after it (numbers a rebase left unused): the replica goes back to `base`.
                try db.execute(sql: "INSERT INTO pending (base, push) VALUES (?, ?)", arguments: [Int64(base), UUID().uuidString])
            }
            return count
        }
    }

    /// The most pending changes one shared transaction takes: it holds the store's write lock,
    /// which every other daemon's write waits for (10 s at most: `lock_timeout`), and 10,000
    /// changes kept through a long outage took seconds in one. Cut where a step ends, so that
    /// one command's changes go to the store together.
    static let pageSize = 1_000

    /// Shares a page of the pending changes (`pageSize`) through `shared`, in one shared
    /// transaction begun after `mark.base`, as the type's comment says; `check` sees the
    /// store's changes since first and throws when the replica is none of the store's. The
    /// store's transaction commits before this replica's; when either throws, nothing changed.
    /// The changes after the page stay pending here, after what was pushed, under a new push
    /// id: made again here on the page's outcome once the store's lock is free, shared by the
    /// next page. A long outage's changes are taken back out before the lock is taken, since
    /// every other daemon's write waits while it is held.
    func sharePage(_ mark: Mark, through shared: any SharedStore, now: Date, check: (SharedChanges) throws -> Void) throws -> Shared {
        try store.pool.write { db in
            let local = UInt64(try Counters.load(db).change)
            let pending = try JournalRecord.entries(
                Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq > ? ORDER BY seq", arguments: [Int64(mark.base)]), in: db)
            let long = pending.count > Self.pageSize
            if long { try Self.rewind(pending, to: mark.base, in: db) }
            return try shared.write(after: mark.base) { write in
                var theirs = try write.changes(after: mark.base)
                try check(theirs)
                let through = try write.pushed(mark.push)
                let unpushed = pending.filter { $0.seq > through }
                let page = Array(unpushed.prefix(Self.pageLength(of: unpushed)))
                let rest = Array(unpushed.dropFirst(page.count))
                // How far the store holds this replica's changes once the page is in: all of them, or the page's.
                let pushedThrough = rest.isEmpty ? local : page.last?.seq ?? local
                if !long, theirs.firstSeq == nil, through == 0 {
                    // Nobody wrote meanwhile: the changes follow the store's last as they are.
                    let counters = try Counters.load(db)
                    try write.commit(SharedChanges(entries: page, number: counters.number, change: pushedThrough,
                                                   push: SharedPush(id: mark.push, through: pushedThrough)))
                    try Self.markPending(after: nil, in: db)
                    return Shared(base: mark.base, taken: [], shared: page, rebased: false, conflicts: [], renumbered: [], remade: [])
                }
                if !long { try Self.rewind(pending, to: mark.base, in: db) }
                var taken = try TodoStore.apply(theirs, in: db).entries
                while theirs.more {
                    theirs = try write.changes(after: theirs.change)
                    taken += try TodoStore.apply(theirs, in: db).entries
                }
                var rebase = try Rebase(db: db, now: now, base: mark.base, after: max(UInt64(try Counters.load(db).change), local),
                                        pending: pending)
                for entry in page { try rebase.take(entry) }
                let pushed = rebase.toPush()
                try write.commit(SharedChanges(entries: pushed.entries, number: pushed.number, change: pushed.change,
                                               push: SharedPush(id: mark.push, through: pushedThrough)))
                // The store's lock is free: the rest are made again here alone, after what was pushed.
                for entry in rest { try rebase.take(entry) }
                _ = try rebase.finish()
                try Self.markPending(after: rest.isEmpty ? nil : pushed.change, in: db)
                return Shared(base: mark.base, taken: taken, shared: pushed.entries, rebased: true, conflicts: rebase.conflicts,
                              renumbered: rebase.renumbered, remade: rebase.remade)
            }
        }
    }

    /// How many of `entries` one page takes: `pageSize`, and the rest of the last one's step.
    static func pageLength(of entries: [JournalEntry]) -> Int {
        guard entries.count > pageSize else { return entries.count }
        var length = pageSize
        while length < entries.count, entries[length].step == entries[length - 1].step { length += 1 }
        return length
    }

    /// Every change shared (nil), or those after `base` still pending, under a new push id: the
    /// next page's push is told from this one's by the store.
    private static func markPending(after base: UInt64?, in db: Database) throws {
        try db.execute(sql: "DELETE FROM pending")
        guard let base else { return }
        try db.execute(sql: "INSERT INTO pending (base, push) VALUES (?, ?)", arguments: [Int64(base), UUID().uuidString])
    }

    /// Takes the pending changes back out of the table and the journal, newest first: the
    /// replica is as the store left it at `base`.
    private static func rewind(_ pending: [JournalEntry], to base: UInt64, in db: Database) throws {
        for entry in pending.reversed() {
            if let before = entry.before {
                try TodoRecord.update(before, in: db)
            } else {
                try db.execute(sql: "DELETE FROM todo WHERE id = ?", arguments: [entry.after.id.uuidString.lowercased()])
            }
        }
        try db.execute(sql: "DELETE FROM journal WHERE seq > ?", arguments: [Int64(base)])
        var counters = try Counters.load(db)
        counters.change = Int64(base)
        try counters.save(db)
    }
}

extension PendingChanges {
    /// The pending changes made again, in order, on the todos as the store holds them.
    struct Rebase {
        var transaction: TodoTransaction
        /// The store's last change the pending ones followed.
        let base: UInt64
        private(set) var conflicts: [OfflineConflict] = []
        private(set) var renumbered: [(was: Int, now: Int)] = []
        private(set) var remade: [Todo] = []
        /// A todo added here that the store's own todo stands for (a next occurrence made on both sides).
        private var sameAs: [UUID: UUID] = [:]
        private var numbers: [Int: Int] = [:]
        /// Once a todo added here was renumbered, every later one is too: numbers keep the
        /// order todos were made in (a next occurrence's number is above the one it repeats).
        private var renumbering = false
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
        init(db: Database, now: Date, base: UInt64, after: UInt64, pending: [JournalEntry]) throws {
            self.base = base
            self.after = after
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
                if current == nil { try create(after, as: entry) }
                return
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
        /// deleted, completed or purged meanwhile makes it a todo of its own, the parent kept
        /// as a conflict (on one machine the add or edit would have been refused).
        private mutating func parentChecked(_ todo: Todo, as entry: JournalEntry) throws -> Todo {
            guard let number = todo.parent, !todo.isDeleted else { return todo }
            let parent = try transaction.todos(.number(number)).first
            // Subtasks are one level deep: one given subtasks elsewhere meanwhile stays a parent (outside probe P7-14).
            let hasSubtasks = try hasLiveSubtasks(todo.number)
            if let parent, !parent.isDeleted, parent.parent == nil, !hasSubtasks, todo.isCompleted || !parent.isCompleted { return todo }
            var alone = todo
            alone.parent = nil
            // Theirs is this todo as it now stands (alone), not the parent: `conflicts` showed the parent's title and
            // the parent's own parent as the value kept (outside probe P7-3).
            keep(OfflineConflict(id: todo.id, number: todo.number, field: .parent, local: todo, theirs: alone, at: entry.at, cause: .parentGone))
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
            if try !transaction.todos(.number(todo.number)).isEmpty { renumbering = true }
            todo = numbered(todo, renumber: renumbering)
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

        /// Saves the counters and the conflicts; returns the changes made again.
        /// What the changes made again so far give the store: them, the counters as they leave them
        /// (past every number a client saw, also when none was made again).
        mutating func toPush() -> (entries: [JournalEntry], number: Int, change: UInt64) {
            if shared.isEmpty { transaction.numberNextChange(after + 2, gap: false) }
            return (shared, transaction.counters.number, UInt64(transaction.counters.change))
        }

        mutating func finish() throws -> [JournalEntry] {
            // Nothing made again (each change a conflict, or already so): the numbers the pending
            // changes had here are still not given again, and the next change shows clients a gap.
            if shared.isEmpty { transaction.numberNextChange(after + 2, gap: false) }
            try transaction.save()
            for conflict in conflicts { try conflict.insert(in: transaction.db) }
            return shared
        }
    }
}

extension OfflineConflict {
    /// Kept in the replica's `conflict` table until taken or left.
    func insert(in db: Database) throws {
        let encoder = JSONEncoder()
        try db.execute(
            sql: "INSERT INTO conflict (id, number, field, local, theirs, at, cause) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [id.uuidString.lowercased(), number, field.rawValue, String(decoding: try encoder.encode(local), as: UTF8.self),
                        String(decoding: try encoder.encode(theirs), as: UTF8.self), at.millisecondsSince1970, cause.rawValue])
    }
}
