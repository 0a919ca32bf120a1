import Foundation
import TodoModel

/// Writing through a shared store (`todod --store`): the SQLite commit runs inside the
/// shared transaction, after the replica caught up, and commits only once the shared
/// store did; changes committed through other daemons reach this one's clients as its own do.
extension ModelServer {
    /// Before the first read: the replica takes every change committed elsewhere meanwhile.
    static func catchUpAtStart(_ store: TodoStore, from shared: any SharedStore) throws {
        let replica = try store.counters()
        let changes = try shared.changes(after: replica.change)
        guard replica.change <= changes.change else {
            throw TodoStoreError("""
                the database \(store.path) holds changes up to \(replica.change), the shared store only up to \(changes.change), \
                so it is no replica of that store and nothing was changed: give todod a new --database file for the shared store \
                (it is filled from it), or copy this database into an empty store with --migrate-to
                """)
        }
        // Same numbers, another history (a replica of another store, a database used alone): refused, not mixed.
        if replica.change > 0, let ours = try store.changes(after: replica.change - 1, limit: 1).first, ours.seq == replica.change,
           let theirs = try shared.change(replica.change),
           ours.after.id != theirs.after.id || ours.after.revision != theirs.after.revision {
            throw TodoStoreError("""
                the database \(store.path) is no replica of the shared store (their change \(replica.change) differs: \
                #\(ours.after.number) here, #\(theirs.after.number) there), so nothing was changed: give todod a new --database \
                file for the shared store (it is filled from it)
                """)
        }
        try store.apply(changes)
    }

    /// On the storage queue: the shared transaction, its lock held, brings the replica up
    /// to date, then runs the SQLite commit, which hands its changes to the shared store
    /// before it commits itself.
    ///
    /// When the shared store committed but the replica then could not (a full disk), the
    /// writes are answered so, and the replica takes them from the store at the next catch-up.
    func commit(_ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], through shared: any SharedStore) throws -> [TodoWriteResult] {
        var sharedCommitted = false
        do {
            return try shared.write { write in
                try catchUp(write.changes(after: store.counters().change))
                return try store.commit(mutations, at: now, by: authors) { changes in
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
    /// the table and every client, on the core, in order (before any later commit's answer).
    func catchUp(_ changes: SharedChanges) throws {
        let applied = try store.apply(changes)
        guard !applied.entries.isEmpty || !applied.purges.isEmpty else { return }
        returnToCore { self.receive(applied) }
    }

    /// Another daemon committed (changes up to `upTo`, when known): catch up on the storage
    /// queue, after the writes before it. This daemon's own announcements cost a local read.
    func catchUpLater(upTo: UInt64?) {
        storage.async { [self] in
            guard let shared else { return }
            do {
                try refuseWhenClosed()
                let replica = try store.counters().change
                if let upTo, upTo <= replica { return }
                try catchUp(shared.changes(after: replica))
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
            for purge in changes.purges { state.forget(numbers: purge.numbers, purgedBy: purge.seq) }
            _ = state.incorporate(changes.entries)
        }
        guard !changes.entries.isEmpty else { return }
        bus.publish(.responseTodo(.written(.replay(changes.entries.map(\.after)), changes.entries)))
    }
}
