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
    /// next page. Nothing is read here before the store's transaction is begun: while the store
    /// is away each kept write asks first, and reading (and taking back) every pending change
    /// before that made each of them cost as much as the outage was long (todobench scenario 7:
    /// kept writes at 0.10× SQLite's).
    func sharePage(_ mark: Mark, through shared: any SharedStore, now: Date, check: (SharedChanges) throws -> Void) throws -> Shared {
        try shared.write(after: mark.base) { write in
            var theirs = try write.changes(after: mark.base)
            try check(theirs)
            return try store.pool.write { db in
                let local = UInt64(try Counters.load(db).change)
                let pending = try JournalRecord.entries(
                    Row.fetchAll(db, sql: "SELECT * FROM journal WHERE seq > ? ORDER BY seq", arguments: [Int64(mark.base)]), in: db)
                let through = try write.pushed(mark.push)
                if theirs.firstSeq == nil, through == 0 {
                    let (page, rest, pushedThrough) = Self.cut(pending, local: local)
                    // Nobody wrote meanwhile: the page follows the store's last change as it is.
                    let counters = try Counters.load(db)
                    try write.commit(SharedChanges(entries: page, number: counters.number, change: pushedThrough,
                                                   push: SharedPush(id: mark.push, through: pushedThrough)))
                    try Self.markPending(after: rest.isEmpty ? nil : pushedThrough, in: db)
                    return Shared(base: mark.base, taken: [], shared: page, rebased: false, conflicts: [], renumbered: [], remade: [])
                }
                try Self.rewind(pending, to: mark.base, in: db)
                var taken = try TodoStore.apply(theirs, in: db).entries
                var purged = !theirs.purges.isEmpty
                while theirs.more {
                    theirs = try write.changes(after: theirs.change)
                    taken += try TodoStore.apply(theirs, in: db).entries
                    purged = purged || !theirs.purges.isEmpty
                }
                let (unpushed, held) = Self.unpushed(pending, through: through, holding: taken, purged: purged)
                let (page, rest, pushedThrough) = Self.cut(unpushed, local: local)
                var rebase = try PendingRebase(db: db, now: now, base: mark.base, after: max(UInt64(try Counters.load(db).change), local),
                                               pending: pending, held: held)
                for entry in page { try rebase.take(entry) }
                let pushed = rebase.toPush()
                try write.commit(SharedChanges(entries: pushed.entries, number: pushed.number, change: pushed.change,
                                               push: SharedPush(id: mark.push, through: pushedThrough)))
                // The store's lock is free: the rest are made again here alone, after what was pushed.
                for entry in rest { try rebase.take(entry) }
                try rebase.finish()
                try Self.markPending(after: rest.isEmpty ? nil : pushed.change, in: db)
                return Shared(base: mark.base, taken: taken, shared: pushed.entries, rebased: true, conflicts: rebase.conflicts,
                              renumbered: rebase.renumbered, remade: rebase.remade)
            }
        }
    }

    /// The page of `unpushed` shared now, the rest left pending, and how far the store holds this
    /// replica's changes once the page is in: all of them (`local`), or the page's.
    private static func cut(_ unpushed: [JournalEntry], local: UInt64) -> (page: [JournalEntry], rest: [JournalEntry], pushedThrough: UInt64) {
        let page = Array(unpushed.prefix(pageLength(of: unpushed)))
        let rest = Array(unpushed.dropFirst(page.count))
        return (page, rest, rest.isEmpty ? local : page.last?.seq ?? local)
    }

    /// The pending changes the store does not hold yet, and the store's number of each it holds
    /// (`held`: the undos and steps made again name them so). A change is the same one when it
    /// changed the same todo at the same instant: sharing keeps both.
    ///
    /// Those after what the push record says it took (`through`) are not held, unless another
    /// replica sent them: a store made again empty (or restored from an older backup) is filled
    /// again by every replica holding the history it lost, each sending it as its own pending
    /// changes, and a replica that found it empty before another filled it made the other's
    /// changes again on themselves: an undone change came back twice, a field changed twice was a
    /// conflict of "this machine's" on machines that changed nothing (outside probe 11, F7).
    /// Those at or before `through` the store's changes may not hold either: the record counts this
    /// replica's change numbers, and a replica restored from a backup made while it held pending
    /// changes (or a copy of one) gives its new changes the numbers of those the original pushed
    /// since: they were skipped as shared and lost (outside probe 11, F12). When the store purged
    /// meanwhile, a pushed change may be gone from it with its todo, and sending it again would
    /// make the purged todo again: the record is trusted then.
    static func unpushed(_ pending: [JournalEntry], through: UInt64, holding held: [JournalEntry],
                         purged: Bool) -> (entries: [JournalEntry], held: [UInt64: UInt64]) {
        struct Same: Hashable {
            let id: UUID
            let at: Date
        }
        // In the store's order, each taken once: one step may change a todo twice at its instant.
        var there = held.reduce(into: [Same: [UInt64]]()) { there, entry in there[Same(id: entry.after.id, at: entry.at), default: []].append(entry.seq) }
        var heldSeqs: [UInt64: UInt64] = [:]
        let entries = pending.filter { entry in
            if entry.seq <= through, purged { return false }
            let same = Same(id: entry.after.id, at: entry.at)
            guard let seq = there[same]?.first else { return true }
            there[same]?.removeFirst()
            heldSeqs[entry.seq] = seq
            return false
        }
        return (entries, heldSeqs)
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
