import Logging
import SharedStoreContract
import Synchronization
import TodoEvents
import TodoServers

/// Tells every client, and the log, each time the shared store becomes unreachable or
/// reachable again (`responseSharedStore`), so that `watch` can say why writes are refused.
/// The log says the outage once, not each write it refuses (`RefusedWrites` counts them):
/// their count comes with the line that the store is back.
struct SharedStoreMonitor: Sendable {
    let store: any SharedStore

    /// Observes at once; publishes on the core through `onCore`.
    init(store: any SharedStore, bus: EventBus, logger: Logger, refused: RefusedWrites,
         onCore: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.store = store
        // Whether the outage was said: a new cause while it lasts (a closed connection, then no socket) is a shorter line.
        let unreachable = Mutex(!store.status.reachable)
        store.watchStatus { status in
            let ongoing = unreachable.withLock { told in
                defer { told = !status.reachable }
                return told
            }
            if status.reachable {
                let count = refused.take()
                logger.notice("the shared store is reachable again; writes are taken (\(count) refused while it was unreachable, nothing of them written)",
                              metadata: ["store": "\(status.store)", "refused": "\(count)"])
            } else if ongoing {
                logger.info("the shared store is still unreachable, for another cause", metadata: ["store": "\(status.store)", "problem": "\(status.problem ?? "")"])
            } else {
                logger.warning("""
                    the shared store is unreachable; writes are refused until it is back (each client is told, nothing of them is written), \
                    reads answered from the replica. todod reconnects by itself: check that PostgreSQL runs and can be reached from here. \
                    Refused writes are counted, not logged each: the count comes when it is back
                    """, metadata: ["store": "\(status.store)", "problem": "\(status.problem ?? "")"])
            }
            onCore { bus.publish(.responseSharedStore(status)) }
        }
    }

    var status: SharedStoreStatus { store.status }
}
