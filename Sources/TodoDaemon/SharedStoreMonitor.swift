import Logging
import TodoEvents
import TodoServers

/// Tells every client, and the log, each time the shared store becomes unreachable or
/// reachable again (`responseSharedStore`), so that `watch` can say why writes are refused.
struct SharedStoreMonitor: Sendable {
    let store: any SharedStore

    /// Observes at once; publishes on the core through `onCore`.
    init(store: any SharedStore, bus: EventBus, logger: Logger, onCore: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.store = store
        store.watchStatus { status in
            if status.reachable {
                logger.notice("the shared store is reachable again; writes are taken", metadata: ["store": "\(status.store)"])
            } else {
                logger.warning("the shared store is unreachable; writes are refused until it is back, reads answered from the replica",
                               metadata: ["store": "\(status.store)", "problem": "\(status.problem ?? "")"])
            }
            onCore { bus.publish(.responseSharedStore(status)) }
        }
    }

    var status: SharedStoreStatus { store.status }
}
