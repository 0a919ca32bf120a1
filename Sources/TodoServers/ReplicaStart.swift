import Foundation
import GRDB
import Logging
import SharedStoreContract

/// A replica's start with its store (`todod --store`), before the first read: it shares what
/// it kept while away, checks that the store holds its history (a replica ahead of it, or a
/// database used alone, sends its changes back: `LostChanges`), marks it the store's replica
/// and catches it up. The running daemon's sync is `ReplicaSync`'s.
enum ReplicaStart {
    /// Before the first read (the table is loaded after this returns): checks that `store` is a
    /// replica of `shared`, catches it up and marks it so. Returns false when the store cannot
    /// be reached: the daemon starts from its replica (a database that was never its replica is
    /// refused then, not served as its copy), and this is done at the first connection.
    /// Throws `TodoStoreError` when the database is no replica of it.
    static func catchUp(_ store: TodoStore, from shared: any SharedStore, logger: Logger) throws -> Bool {
        do {
            // A database used alone (no mark, changes of its own) joins: it is never taken for a replica in
            // step by a comparison that cannot tell, its last change a purge or a number the store left unused (F5).
            if try store.replicaOf() == nil, case let replica = try store.counters().change, replica > 0,
               try LostChanges.mark(store, of: shared, replica: replica, storeLast: shared.changes(after: replica).change, logger: logger) == nil {
                throw TodoStoreError("""
                    the database \(store.path) left the shared store \(shared.status.store) and purged todos since, which cannot be \
                    made again there, so nothing was changed: to share what it holds, start a todod on it without --store, save its \
                    todos (todoctl export --to json > FILE) and import them into a replica of the store (todoctl import --from json FILE)
                    """)
            }
            var page: SharedChanges
            do {
                page = try shareAndRead(store, through: shared, logger: logger)
            } catch let error as TodoStoreError {
                // Ahead of its store: its changes are sent back (`sendBack`). Another store's replica is refused;
                // a database used alone joined above.
                guard try store.replicaOf() == shared.status.store else { throw error }
                let replica = try store.counters().change
                guard try LostChanges.mark(store, of: shared, replica: replica, storeLast: shared.changes(after: replica).change, logger: logger) != nil else {
                    throw TodoStoreError(error.message + LostChanges.purgedSince)
                }
                page = try shareAndRead(store, through: shared, logger: logger)
            }
            // Marked once found the store's, before the fill: one the store interrupts goes on as its replica.
            try ReplicaCheck.markReplica(store, of: shared)
            try store.apply(page)
            var filled = !page.entries.isEmpty || !page.purges.isEmpty
            while page.more {
                page = try shared.changes(after: page.change)
                try store.apply(page)
                filled = true
            }
            // Into the database file before the daemon serves: a new replica's whole fill sat in the
            // -wal until a write of its own came (outside probe 11, F4), and a copy of the file alone,
            // which docs/BACKUP.md says holds everything once the daemon is idle, held nothing.
            if filled { try store.checkpoint() }
            return true
        } catch let error as SharedStoreError where error.kind == .unreachable {
            try ReplicaCheck.refuseUnlessMarked(store, of: shared)
            logger.warning("starting from this machine's copy: the shared store is unreachable", metadata: ["error": "\(error)"])
            return false
        } catch let error as DatabaseError {
            // A new replica on a disk too small for the store's todos died with SQLite's bare words (outside probe 11, F3).
            throw TodoStoreError(
                "this machine's copy \(store.path) could not take the shared store's changes, so todod did not start: "
                    + TodoStoreError(error, database: store.path).message)
        }
    }

    /// At start: shares the changes made here while the store was away (they go first: the
    /// replica is ahead of the store until they are shared), and reads the store's first page
    /// for the replica. Throws `TodoStoreError` when the database is no replica of the store.
    private static func shareAndRead(_ store: TodoStore, through shared: any SharedStore, logger: Logger) throws -> SharedChanges {
        if let outcome = try PendingSharing.share(PendingChanges(store: store), through: shared, now: Date(), logger: logger) { PendingSharing.tell(outcome, logger: logger) }
        return try ReplicaCheck.changesForReplica(store, of: shared)
    }
}
