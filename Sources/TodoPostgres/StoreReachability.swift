import Foundation
import Synchronization
import TodoEvents

/// Whether the shared store answers, as the writer and the listener last found it; tells
/// its observer each time that changes, not at every failed attempt.
final class StoreReachability: Sendable {
    private struct State {
        var status: SharedStoreStatus
        var observer: (@Sendable (SharedStoreStatus) -> Void)?
        /// Set for good: reconnecting does not make the store usable again.
        var refused = false
        /// It did not answer within a deadline (a frozen server, a network gone quiet), until it answers again.
        var silent = false
    }

    private let state: Mutex<State>

    init(store: String) {
        state = Mutex(State(status: SharedStoreStatus(store: store, reachable: true, since: Date())))
    }

    var status: SharedStoreStatus { state.withLock { $0.status } }

    /// The store did not answer within a deadline and has not answered since: a write does
    /// not wait for it again (each waited 15 s while a probe froze PostgreSQL; P7-16). The
    /// listener, which reconnects on its own, finds it back.
    var isSilent: Bool { state.withLock { $0.silent } }

    func observe(_ observer: @escaping @Sendable (SharedStoreStatus) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// The store did not answer: `problem` says how, in PostgreSQL's or the network's words.
    /// While it stays unreachable, a new problem takes the old one's place (`replacing`: the
    /// status tells the cause of the moment, not the first), since the same.
    func lost(_ problem: String, replacing: Bool = true, silent: Bool = false) {
        if silent { state.withLock { $0.silent = true } }
        change { status in
            if status.reachable { return SharedStoreStatus(store: status.store, reachable: false, since: Date(), problem: problem) }
            guard replacing, status.problem != problem else { return nil }
            return SharedStoreStatus(store: status.store, reachable: false, since: status.since, problem: problem)
        }
    }

    /// The store answered.
    func regained() {
        state.withLock { $0.silent = false }
        change { $0.reachable ? nil : SharedStoreStatus(store: $0.store, reachable: true, since: Date()) }
    }

    /// The daemon may not use the store any more, for `problem`; nothing makes it reachable again.
    func refuse(_ problem: String) {
        change { SharedStoreStatus(store: $0.store, reachable: false, since: Date(), problem: problem) }
        state.withLock { $0.refused = true }
    }

    /// Applies `next` (nil: no change) and tells the observer of a change, outside the lock.
    private func change(_ next: (SharedStoreStatus) -> SharedStoreStatus?) {
        let told = state.withLock { state -> (SharedStoreStatus, (@Sendable (SharedStoreStatus) -> Void)?)? in
            guard !state.refused, let status = next(state.status) else { return nil }
            state.status = status
            return (status, state.observer)
        }
        if let (status, observer) = told { observer?(status) }
    }
}
