import Foundation
import Logging
import TodoModel

/// Writing through a shared store (`todod --store`): the SQLite commit runs inside the
/// shared transaction, after the replica caught up, and commits only once the shared
/// store did; changes committed through other daemons reach this one's clients as its own do.
extension ModelServer {
    /// Before the first read: checks that `store` is a replica of `shared`, catches it up and
    /// marks it so. Returns false when the store cannot be reached: the daemon starts from its
    /// replica, and this is done once it is reached.
    static func catchUpAtStart(_ store: TodoStore, from shared: any SharedStore, logger: Logger) throws -> Bool {
        do {
            var page = try changesForReplica(store, of: shared)
            // Marked once found the store's, before the fill: one the store interrupts goes on as its replica.
            try markReplica(store, of: shared)
            try store.apply(page)
            while page.more {
                page = try shared.changes(after: page.change)
                try store.apply(page)
            }
            return true
        } catch let error as SharedStoreError where error.kind == .unreachable {
            try refuseUnlessMarked(store, as: shared.status.store)
            logger.warning("starting from this machine's copy: the shared store is unreachable", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// With the store unreachable the replica cannot be compared with it: a database that was
    /// never its replica (used alone, or another store's) is refused, not served as its copy.
    static func refuseUnlessMarked(_ store: TodoStore, as name: String) throws {
        guard try store.counters().change > 0 else { return }
        switch try store.replicaOf() {
        case name?:
            return
        case nil:
            throw TodoStoreError("""
                the database \(store.path) holds todos of its own, not a replica of a shared store, and the shared store \(name) \
                cannot be reached to take it, so nothing was changed: to share these todos, copy them into an empty store \
                (todod --migrate-to URI --database \(store.path)); to join the store, give todod a new --database file, filled \
                from the store once it is reachable
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
            throw TodoStoreError("\(error.message) (this database is the replica of the shared store \(mark): for it, start todod with --store \(mark))")
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
        guard replica > 0, let theirs = changes.base, theirs.seq == replica else { return nil }
        // The replica's last change has no entry when it is a purge.
        let ours = try store.changes(after: replica - 1, limit: 1).first.flatMap { $0.seq == replica ? $0 : nil }
        let there: String
        switch (theirs.change, ours) {
        case (.purge, nil):
            return nil
        case let (.entry(id, revision, _, _), ours?) where ours.after.id == id && ours.after.revision == revision:
            return nil
        case let (.entry(_, revision, number, title), _):
            there = describe(number: number, title: title, revision: revision)
        case (.purge, _):
            there = "a purge"
        }
        let here = ours.map { describe(number: $0.after.number, title: $0.after.title, revision: $0.after.revision) } ?? "a purge"
        return """
            the shared store's change \(replica) is not the one the database \(store.path) holds (\(there) there, \
            \(here) here): PostgreSQL was restored from an older backup or failed over to a standby without the \
            last commits, and was written since (or this database was used alone, or is another store's), so this database's \
            changes the store lost, up to \(replica), are only here, and this daemon writes nothing more: \(keepingThem)
            """
    }

    /// A change's todo, told apart from another of the same number.
    private static func describe(number: Int, title: String, revision: Int) -> String {
        "#\(number) \"\(title.count > 40 ? title.prefix(39) + "…" : title)\" at revision \(revision)"
    }

    /// How to keep the changes only a replica holds, also once todod refuses to start on it.
    static let keepingThem = """
        to keep them, stop todod, copy this database, run todod --leave-store --database COPY, start a todod on the copy \
        without --store and save them (todoctl log --json); then start todod with a new --database file, which is filled \
        from the store, and add them again
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
        restored from an older backup or failed over to a standby without the last commits (or this database was used \
        alone, or is another store's), so \(store + 1 == replica ? "change \(replica) is" : "changes \(store + 1)…\(replica) are") \
        only in the replicas that have them, and this daemon writes nothing more (theirs are the seq above \(store)): \
        \(keepingThem)
        """
    }

    /// On the storage queue, before anything else reaches the store: when the replica was
    /// not checked at start (the store was unreachable), checks it and catches it up now.
    /// Throws while that cannot be done, and for good once it is found to be no replica.
    private func checkReplica(_ shared: any SharedStore) throws {
        let (checked, refusal) = state.withLock { ($0.replicaChecked, $0.notReplica) }
        if let refusal { throw SharedStoreError(refusal) }
        guard !checked else { return }
        do {
            let changes = try ModelServer.changesForReplica(store, of: shared)
            try ModelServer.markReplica(store, of: shared)
            state.withLock { $0.replicaChecked = true }
            try catchUp(changes) { try shared.changes(after: $0) }
        } catch let error as TodoStoreError {
            throw refuseWrites(error.message, shared)
        }
    }

    /// Refuses every write from now on, saying `reason` in the log, to every client (the
    /// store's status) and to each writer; returns the error to throw.
    private func refuseWrites(_ reason: String, _ shared: any SharedStore) -> SharedStoreError {
        let first = state.withLock { state in
            defer { state.notReplica = state.notReplica ?? reason }
            return state.notReplica == nil
        }
        if first {
            logger.critical("this database is no replica of the shared store as it is now: writes are refused; stop todod and see the message",
                            metadata: ["error": "\(reason)"])
            shared.refuse(because: reason)
        }
        return SharedStoreError(reason)
    }

    /// Throws, refusing writes for good, when the store is behind the replica, or holds
    /// another change than the replica's last (restored, then written through another daemon).
    private func refuseUnlessReplica(_ changes: SharedChanges, replica: UInt64, _ shared: any SharedStore) throws {
        if let reason = try ModelServer.notReplica(store, of: changes, replica: replica) { throw refuseWrites(reason, shared) }
    }

    /// On the storage queue: the shared transaction, its lock held, brings the replica up
    /// to date, then runs the SQLite commit, which hands its changes to the shared store
    /// before it commits itself.
    ///
    /// When the shared store committed but the replica then could not (a full disk), the
    /// writes are answered so, and the replica takes them from the store at the next catch-up.
    func commit(_ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], steps: [WriteStep], through shared: any SharedStore) throws -> [TodoWriteResult] {
        var sharedCommitted = false
        try checkReplica(shared)
        do {
            let replica = try store.counters().change
            return try shared.write(after: replica) { write in
                let changes = try write.changes(after: replica)
                try refuseUnlessReplica(changes, replica: replica, shared)
                try catchUp(changes) { try write.changes(after: $0) }
                return try store.commit(mutations, at: now, by: authors, steps: steps) { changes in
                    try write.commit(changes)
                    sharedCommitted = true
                }
            }
        } catch where sharedCommitted {
            catchUpLater(upTo: nil)
            throw SharedStoreError("""
                the shared store committed this change, but this machine's database could not (\(ModelServer.describe(error))): \
                every other daemon has it, and this one takes it from the shared store once its database can be written again
                """)
        }
    }

    /// On the storage queue: applies changes committed elsewhere to the replica, then to
    /// the table and every client, on the core, in order (before any later commit's answer);
    /// page by page, reading each next one with `next` (after the last change applied).
    func catchUp(_ changes: SharedChanges, next: (UInt64) throws -> SharedChanges) throws {
        var page = changes
        while true {
            let applied = try store.apply(page)
            if !applied.entries.isEmpty || !applied.purges.isEmpty { returnToCore { self.receive(applied) } }
            guard page.more else { return }
            page = try next(page.change)
        }
    }

    /// Another daemon committed (changes up to `upTo`, when known): catch up on the storage
    /// queue, after the writes before it. This daemon's own announcements cost a local read.
    func catchUpLater(upTo: UInt64?) {
        storage.async { [self] in
            // Refused for good: the store's changes are not taken, and that was said once (not at every heartbeat).
            guard let shared, state.withLock({ $0.notReplica }) == nil else { return }
            do {
                try refuseWhenClosed()
                try checkReplica(shared)
                let replica = try store.counters().change
                // An announcement may be older than this replica's own last commit: only a fresh read tells the store behind.
                if let upTo, upTo <= replica { return }
                let changes = try shared.changes(after: replica)
                try refuseUnlessReplica(changes, replica: replica, shared)
                try catchUp(changes) { try shared.changes(after: $0) }
            } catch {
                logger.warning("could not read the changes of the shared store; will catch up at its next announcement or write",
                               metadata: ["error": "\(ModelServer.describe(error))"])
            }
        }
    }

    /// On the core: others' changes, into the table, then to every client as a replay's
    /// are. A purge is broadcast as no change: its gap tells Views to read their lists again.
    private func receive(_ changes: SharedChanges) {
        state.withLock { state in
            for purge in changes.purges { state.table.forget(numbers: purge.numbers, purgedBy: purge.seq) }
            _ = state.table.incorporate(changes.entries)
        }
        guard !changes.entries.isEmpty else { return }
        bus.publish(.responseTodo(.written(.replay(changes.entries.map(ReplayedChange.init), sources: []), changes.entries)))
    }
}
