import Dispatch
import Foundation
import Logging
import NIOCore
import TodoEvents

/// What the participants the ModelServer is made of (`GroupCommitter`, `JournalReader`,
/// `BackupWriter`, `ReplicaSync`) share, handed to each as one value rather than the same
/// seven parameters and properties in each: the bus they answer on; the store, and the storage
/// queue on which everything that writes it runs one at a time; the gate that keeps them off
/// it once it is closed; the core, whose state they are bound to and where answers are
/// published; the clock; the log.
struct StoreAccess: Sendable {
    let bus: EventBus
    let store: TodoStore
    let storage: DispatchQueue
    let gate: StoreGate
    /// The daemon's core event loop: the bus dispatches there, and the participants' state is bound to it.
    let core: any EventLoop
    let clock: @Sendable () -> Date
    let logger: Logger

    /// From the storage or journal queue: `work` runs on the core, after what is queued there.
    func returnToCore(_ work: @escaping @Sendable () -> Void) {
        core.execute(work)
    }
}
