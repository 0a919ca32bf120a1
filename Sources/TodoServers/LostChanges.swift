import Foundation
import Logging
import SharedStoreContract

/// The changes a replica holds that its store lost (PostgreSQL restored from an older backup, a
/// failover without the last commits), and a database used alone joining a store: the changes
/// after the last one both hold alike (`ReplicaCheck.commonBase`) are marked pending, as if
/// made while the store was away, and shared as such (`PendingSharing`): they are this
/// machine's. Asked at start (`ReplicaStart`) and by a running daemon (`ReplicaSync.sendBack`).
enum LostChanges {
    /// Marks the changes of `store` that `shared` does not hold pending (`ReplicaSync.sendBack` shares them), saying
    /// so in the log; returns how many are pending. A database used alone joins the store so.
    /// Nil, marking nothing, when this database purged todos since the last change both hold.
    static func mark(_ store: TodoStore, of shared: any SharedStore, replica: UInt64, storeLast: UInt64, logger: Logger) throws -> Int? {
        let joining = try store.replicaOf() == nil
        let base = try ReplicaCheck.commonBase(store, of: shared, replica: replica, storeLast: storeLast)
        guard let count = try PendingChanges(store: store).markLost(after: base) else { return nil }
        if joining {
            logger.notice("""
                this database, used alone until now, joins the shared store: its \(count) changes are shared, made again on the \
                store's (a todo whose number another machine gave is renumbered)
                """, metadata: ["store": "\(shared.status.store)"])
        } else {
            logger.warning("""
                the shared store does not hold this replica's last changes (PostgreSQL restored from an older backup, or failed \
                over without the last commits): the \(count) changes after \(base) are shared again, made again on the store's
                """, metadata: ["store": "\(shared.status.store)", "replica": "\(replica)", "store's last": "\(storeLast)"])
        }
        return count
    }

    /// Why the changes the store lost are not sent back by themselves, and how to keep them.
    static let purgedSince = """
        ; this database purged todos since the last change it and the store both hold, which cannot be made again there, \
        so its changes after it are not sent back by themselves: \(ReplicaCheck.keepingThem)
        """

    /// Found ahead of the store again once its lost changes were sent back.
    static let notLevel = "; the changes sent back did not bring it level, so none is sent again: \(ReplicaCheck.keepingThem)"
}
