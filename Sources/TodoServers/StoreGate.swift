import Synchronization

/// Whether the store may still be touched. The daemon closes the store at exit, while work
/// queued on other threads (the idle checkpoint and a backup on the storage queue, a journal
/// read, the replica's catch-up) may still be due: an idle checkpoint that fired while the
/// store closed crashed inside SQLite. Each of them asks this one gate first, so closing it
/// once keeps them all off the store.
///
/// Not the core's: it is closed from the task that stops the daemon and read on the storage and
/// journal queues, three threads, so it is one atomic flag (no lock: a store is closed once and
/// never reopened, so nothing is read and written together).
final class StoreGate: Sendable {
    private let closed = Atomic(false)

    /// From now on nothing may touch the store.
    func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
    }

    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

    /// Throws once the store is closed (the daemon is stopping): SQLite must not be touched then.
    func refuseWhenClosed() throws {
        if isClosed { throw TodoStoreError("the daemon is shutting down; ask again once it is back") }
    }
}
