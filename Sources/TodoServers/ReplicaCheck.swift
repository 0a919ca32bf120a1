import Foundation
import SharedStoreContract
import TodoModel

/// Whether a database is the replica of a shared store, and what to say when it is not.
/// A replica takes the store's changes on top of its own, so one that is not (a database
/// used alone, another store's, or one ahead of a store restored from an older backup)
/// would mix two histories silently; these checks find that before anything is taken,
/// and their messages say which it is and how to keep the changes only the database holds.
/// Kept apart from `ReplicaSync`, which acts on their answers: they only read.
enum ReplicaCheck {
    /// With the store unreachable the replica cannot be compared with it: a database that was
    /// never its replica (used alone, or another store's) is refused, not served as its copy.
    static func refuseUnlessMarked(_ store: TodoStore, of shared: any SharedStore) throws {
        guard try store.counters().change > 0 else { return }
        let name = shared.status.store
        switch try store.replicaOf() {
        case let mark? where shared.isNamed(mark):
            return
        case nil:
            throw TodoStoreError("""
                the database \(store.path) holds todos of its own, not a replica of a shared store, and the shared store \(name) \
                cannot be reached to take it, so nothing was changed: start todod with --store once the store can be reached, and \
                this database joins it, its todos shared (renumbered where the store gave their numbers); or copy them into an \
                empty store (todod --migrate-to URI --database \(store.path)); or give todod a new --database file, filled from the \
                store once it is reachable
                """)
        case let other?:
            throw TodoStoreError("""
                the database \(store.path) is the replica of the shared store \(other), not of \(name), which cannot be reached \
                to compare them, so nothing was changed: start todod with --store \(other), or give it a new --database file for \
                \(name) (if both name one database, start todod once it is reachable: the mark follows)
                """)
        }
    }

    /// The changes `store`, a replica of `shared`, lacks; throws `TodoStoreError` when it
    /// is no replica of it (a history of its own, or ahead of the store).
    static func changesForReplica(_ store: TodoStore, of shared: any SharedStore) throws -> SharedChanges {
        do {
            return try checkedChanges(store, of: shared)
        } catch let error as TodoStoreError {
            // The file may say whose replica it is: that is the likelier mistake.
            guard let mark = try store.replicaOf(), mark != shared.status.store else { throw error }
            // Said first, without the rescue of a restored store, which does not apply (outside probe 9, F4).
            throw TodoStoreError("""
                the database \(store.path) is the replica of the shared store \(mark), not of \(shared.status.store), so nothing was \
                changed: for it, start todod with --store \(mark); for \(shared.status.store), give todod a new --database file, filled \
                from that store
                """)
        }
    }

    private static func checkedChanges(_ store: TodoStore, of shared: any SharedStore) throws -> SharedChanges {
        let replica = try store.counters().change
        let changes = try shared.changes(after: replica)
        if let reason = try notReplica(store, of: changes, replica: replica) { throw TodoStoreError(reason) }
        return changes
    }

    /// Why `store`, whose last change is `replica`, is no replica of the store `changes` were
    /// read from: the store is behind it, or holds another change at its last number (same
    /// numbers, another history); nil when it is one.
    static func notReplica(_ store: TodoStore, of changes: SharedChanges, replica: UInt64) throws -> String? {
        if changes.change < replica { return wentBack(store: changes.change, replica: replica, path: store.path) }
        return try differs(store, from: changes, replica: replica)
    }

    /// What to say when the replica's last change (`replica`) is not the store's change of
    /// that number (`changes.base`); nil when they are the same, or cannot be compared (two
    /// purges, or a change whose entry a later purge took).
    private static func differs(_ store: TodoStore, from changes: SharedChanges, replica: UInt64) throws -> String? {
        guard replica > 0 else { return nil }
        // The replica's last change has no entry when it is a purge.
        let ours = try store.changes(after: replica - 1, limit: 1).first.flatMap { $0.seq == replica ? $0 : nil }
        let there: String
        switch (changes.base.flatMap { $0.seq == replica ? $0.change : nil }, ours) {
        case (nil, nil):
            return nil
        case let (nil, ours?):
            // The store holds no change of that number: its purge took the entry since (nothing to
            // compare), or it never had it (lost, the number left unused by a rebase after the
            // store went back) while this replica holds one: it took the store's later changes
            // on top of its own (outside probe 9, F1).
            if Self.purged(ours.after.number, in: changes) { return nil }
            there = "no change"
        case (.purge?, nil):
            return nil
        case let (.entry(id, revision, _, _)?, ours?) where ours.after.id == id && ours.after.revision == revision:
            return nil
        case let (.entry(_, revision, number, title)?, _):
            there = describe(number: number, title: title, revision: revision)
        case (.purge?, _):
            there = "a purge"
        }
        let here = ours.map { describe(number: $0.after.number, title: $0.after.title, revision: $0.after.revision) } ?? "a purge"
        return """
            the shared store's change \(replica) is not the one the database \(store.path) holds (\(there) there, \(here) here): \
            PostgreSQL was restored from an older backup or failed over without the last commits, and was written since
            """
    }

    /// Whether the store purged the todo numbered `number` after the changes were begun from.
    static func purged(_ number: Int, in changes: SharedChanges) -> Bool {
        changes.purges.contains { $0.numbers.contains(number) }
    }

    /// A change's todo, told apart from another of the same number.
    private static func describe(number: Int, title: String, revision: Int) -> String {
        "#\(number) \"\(title.count > 40 ? title.prefix(39) + "…" : title)\" at revision \(revision)"
    }

    /// How to keep the changes only a replica holds when they cannot be sent back by themselves:
    /// the route an outside probe found to work (probe 9, F2: "add them again" named none).
    static let keepingThem = """
        to keep them, stop todod, copy this database, run todod --leave-store --database COPY, start a todod on COPY without \
        --store and save its changes (todoctl log --json > CHANGES); then start todod with --store and a new --database file, \
        filled from the store, and replay them (todoctl replay CHANGES: those the store holds are skipped)
        """

    /// Marks the database as the replica of `shared` once it is found to be one, so that it is
    /// not used alone by mistake afterwards.
    static func markReplica(_ store: TodoStore, of shared: any SharedStore) throws {
        let name = shared.status.store
        if try store.replicaOf() != name { try store.markReplica(of: name) }
    }

    /// The store's last change is below the replica's: PostgreSQL lost changes only the
    /// replicas still hold, or the database is another store's.
    static func wentBack(store: UInt64, replica: UInt64, path: String) -> String {
        guard store > 0 else {
            return """
                the database \(path) holds changes up to \(replica) and the shared store none, so it is no replica of that \
                store and nothing was changed in it: copy this database into the empty store with --migrate-to, or give todod a new \
                --database file for the shared store (it is filled from it)
                """
        }
        return """
            the shared store's last change is \(store), but the database \(path) holds changes up to \(replica): PostgreSQL was \
            restored from an older backup or failed over without the last commits
            """
    }
}

extension ReplicaCheck {
    /// The last change `store` and `shared` hold alike, at or below both the replica's last
    /// (`replica`) and the store's (`storeLast`): where the store's history and this
    /// database's part (PostgreSQL restored from an older backup, then maybe written past).
    /// Histories agree up to a point and differ after it, so a binary search over the store's
    /// change at each number finds it in a few reads. 0 for a database that was never the
    /// store's replica (used alone, joining it, its first change not the store's).
    static func commonBase(_ store: TodoStore, of shared: any SharedStore, replica: UInt64, storeLast: UInt64) throws -> UInt64 {
        // The same comparison as the replica check's, at each number tried.
        func agrees(_ seq: UInt64) throws -> Bool {
            try seq == 0 || differs(store, from: shared.changes(after: seq), replica: seq) == nil
        }
        // A database used alone shares no change with the store, but one that left it with
        // --leave-store shares its history up to then: without it, its changes already shared were
        // made again from the start, and an edit the store had since became a bogus conflict (F3).
        // Its first change tells them apart.
        guard try store.replicaOf() == shared.status.store || agrees(1) else { return 0 }
        var (low, high) = (UInt64(0), min(replica, storeLast))
        if try agrees(high) { return high }
        // agrees(low), and not agrees(high).
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if try agrees(middle) { low = middle } else { high = middle }
        }
        return low
    }
}
