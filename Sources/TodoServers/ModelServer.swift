import Dispatch
import Foundation
import Logging
import NIOCore
import SharedStoreContract
import TodoEvents
import TodoModel

/// Answers model requests, with the participants it is made of. Reads (`requestReadTodos →
/// responseTodos`) it answers itself, at once, inside the bus's dispatch, from the committed
/// todos in memory (`CommittedTodos`), which change only after a commit: a read never sees an
/// uncommitted write and never waits for the disk. The rest is one participant each on the
/// same bus: `GroupCommitter` the writes (`requestWriteTodo → responseTodo`, committed together,
/// each answered once durable), `JournalReader` the journal, `BackupWriter` the backups,
/// `ConflictKeeper` the conflicts of changes shared after the store was away, and
/// with a shared store (`--store`) `ReplicaSync`, through which each batch commits and by
/// which others' changes arrive.
///
/// It makes them in order (the replica is caught up before the table is loaded from it) and
/// hands out what they share: the storage queue, on which everything that writes SQLite runs
/// one at a time, and the gate that keeps them all off the store once it is closed.
///
/// Its state and theirs is bound to the core event loop, on which the bus dispatches: call it
/// there (the daemon's connections, services and timers do), except `run()`, `shutdown()` and
/// `closeStore()`, which the service's task calls.
public final class ModelServer: Sendable {
    let bus: EventBus
    let store: TodoStore
    /// The sync with the store shared with other daemons (`--store`), whose replica `store` is; nil alone.
    public let replicaSync: ReplicaSync?
    let storage: DispatchQueue
    /// Closed at exit, for every thread that touches the store.
    let gate: StoreGate
    /// Answers `requestBackupDatabase`, on the storage queue between commits.
    let backups: BackupWriter
    /// The committed todos, answering every read.
    let todos: CommittedTodos
    /// Answers `requestReadJournal`, off the core.
    let journal: JournalReader
    /// The one writer: group commit on the storage queue.
    let committer: GroupCommitter
    /// Answers for the conflicts of sharing changes made while the store was away.
    let conflicts: ConflictKeeper

    /// Loads the store and subscribes to the bus at once, so no request published after
    /// this returns is missed. With `shared`, the store is first caught up from it, and
    /// every write commits through it.
    /// - Parameter core: the event loop the bus dispatches on, where commit results come back
    ///   and the committed todos live; every request must be published there.
    public init(bus: EventBus, store: TodoStore, logger: Logger = Logger(label: "todod.model"),
                clock: @escaping @Sendable () -> Date = Date.init,
                core: any EventLoop, shared: (any SharedStore)? = nil) throws {
        self.bus = bus
        self.store = store
        let storage = DispatchQueue(label: "todod.storage")
        self.storage = storage
        let gate = StoreGate()
        self.gate = gate
        // The replica is caught up before the table is loaded from it.
        let replicaChecked = try shared.map { try ReplicaStart.catchUp(store, from: $0, logger: logger) }
        let (loaded, lastChange) = try store.loadAll()
        let todos = CommittedTodos(TodoTable(loaded, lastChange: lastChange), core: core, clock: clock)
        self.todos = todos
        let access = StoreAccess(bus: bus, store: store, storage: storage, gate: gate, core: core, clock: clock, logger: logger)
        backups = BackupWriter(access)
        journal = JournalReader(access, todos: todos)
        let replicaSync = shared.map { ReplicaSync(access, shared: $0, replicaChecked: replicaChecked ?? false, todos: todos) }
        self.replicaSync = replicaSync
        committer = GroupCommitter(access, todos: todos, replicaSync: replicaSync)
        conflicts = ConflictKeeper(access, todos: todos, replicaSync: replicaSync)
        bus.subscribe(to: [.model(.requestReadTodos)]) { [weak self] envelope in
            guard let self, case .requestReadTodos(let query)? = envelope.model else { return }
            self.bus.publish(.responseTodos(read(query)), correlation: envelope.correlation)
        }
    }

    /// Returns once `shutdown()` was called (or the task cancelled) and every write
    /// received before it is committed and answered.
    public func run() async {
        await committer.run()
    }

    /// Takes no more writes (they are answered with a storage error); the writes already
    /// taken commit, then `run()` returns.
    public func shutdown() {
        committer.shutdown()
    }

    /// Checkpoints and closes the store, after whatever the storage and journal threads are
    /// still doing there, and keeps them off it afterwards: an idle checkpoint that fired
    /// while the daemon closed the store at exit crashed inside SQLite. Call it once, after `run()`.
    public func closeStore() throws {
        gate.close()
        journal.waitForReads()
        try storage.sync {
            replicaSync?.tellRefusedAtExit()
            try store.close()
        }
    }

    /// The sequence number of the last committed change. On the core.
    public var lastChange: UInt64 { todos.lastChange }

    /// Kept up to date as changes commit: reading them costs nothing. On the core.
    public var counts: TodoCounts { todos.counts }

    /// How many writes each transaction committed, for the most recent
    /// `GroupCommitter.recordedBatches` transactions: shows group commit at work. On the core.
    public var committedBatchSizes: [Int] { committer.committedBatchSizes }

    func read(_ query: TodoQuery) -> TodoQueryResult {
        todos.read(query)
    }

    /// Ends the waiting of every open todo whose wait is over by `now` on `today` (its day
    /// is past, or today, all day or at a time come): an edit
    /// clearing its `wait`, committed and broadcast like any client's (at its revision, so
    /// an edit made meanwhile wins). Call it on the core. Returns how many it asked for.
    public func endWaiting(on today: LocalDate, at now: TimeOfDay = .endOfDay) -> Int {
        let over = todos.waitingOver(on: today, at: now)
        for todo in over {
            bus.publish(.requestWriteTodo(.edit(.id(todo.id), TodoEdit(clearWait: true), expectedRevision: todo.revision)))
        }
        return over.count
    }

    /// The earliest timed wait still to end after `now` on `today`: the midnight waker's next
    /// wake when it comes before midnight. Call it on the core.
    public func nextWaitEnd(after today: LocalDate, at now: TimeOfDay) -> (day: LocalDate, time: TimeOfDay)? {
        todos.nextWaitEnd(after: today, at: now)
    }

    /// Deletes every open todo whose until day is before `today` (`Todo.isExpired`), as
    /// Taskwarrior deletes a pending task past its until: a delete committed, journaled (undo
    /// restores it) and broadcast like any client's. A repeating one ends its series so, as
    /// its next occurrence would be past its until too. Call it on the core. Returns how many.
    public func expire(on today: LocalDate) -> Int {
        let expired = todos.expired(on: today)
        for todo in expired {
            bus.publish(.requestWriteTodo(.delete(.id(todo.id))))
        }
        return expired.count
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error).replacingOccurrences(of: "\n", with: " ")
    }
}
