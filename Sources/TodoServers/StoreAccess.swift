import Dispatch
import Foundation
import Logging
import TodoEvents

/// What the participants the ModelServer is made of (`GroupCommitter`, `JournalReader`,
/// `BackupWriter`, `ReplicaSync`) share, handed to each as one value rather than the same
/// seven parameters and properties in each: the bus they answer on; the store, and the storage
/// queue on which everything that writes it runs one at a time; the gate that keeps them off
/// it once it is closed; the way back to the core, where answers are published; the clock; the log.
struct StoreAccess: Sendable {
    let bus: EventBus
    let store: TodoStore
    let storage: DispatchQueue
    let gate: StoreGate
    let returnToCore: ModelServer.Executor
    let clock: @Sendable () -> Date
    let logger: Logger
}
