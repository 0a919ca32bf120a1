import Logging
import NIOCore
import SharedStoreContract
import TodoEvents
import TodoServers

/// Tells every client, and the log, each time the shared store becomes unreachable or
/// reachable again (`responseSharedStore`), so that `watch` can say why changes wait on this machine.
/// The log says the outage once, not each write it keeps on this machine (`OfflineWrites` counts them):
/// their count comes with the line that the store is back.
struct SharedStoreMonitor: Sendable {
    let sync: ReplicaSync

    /// Observes at once; each change is told on `core` (the store reports from its listener's
    /// and its writer's threads), where whether the outage was said is kept, bound to the loop.
    init(sync: ReplicaSync, bus: EventBus, logger: Logger, core: any EventLoop) {
        self.sync = sync
        let (store, offline) = (sync.shared, sync.offlineWrites)
        // Whether the outage was said: a new cause while it lasts (a closed connection, then no socket) is a shorter line.
        let unreachable = NIOLoopBoundBox.makeBoxSendingValue(!store.status.reachable, eventLoop: core)
        store.watchStatus { status in core.execute {
            let ongoing = unreachable.value
            unreachable.value = !status.reachable
            if status.reachable {
                let count = offline.take()
                logger.notice("the shared store is reachable again; writes go through it (\(count) kept on this machine while it was unreachable, shared now)",
                              metadata: ["store": "\(status.store)", "kept": "\(count)"])
            } else if ongoing {
                logger.info("the shared store is still unreachable, for another cause", metadata: ["store": "\(status.store)", "problem": "\(status.problem ?? "")"])
            } else {
                logger.warning("""
                    the shared store is unreachable; writes are kept on this machine until it is back, then shared (each client is told), \
                    reads answered from the replica. todod reconnects by itself: check that PostgreSQL runs and can be reached from here. \
                    Writes kept here are counted, not logged each: the count comes when it is back
                    """, metadata: ["store": "\(status.store)", "problem": "\(status.problem ?? "")"])
            }
            bus.publish(.responseSharedStore(sync.status))
        } }
    }

    var status: SharedStoreStatus { sync.status }
}
