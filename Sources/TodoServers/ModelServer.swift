import Dispatch
import Foundation
import Logging
import SharedStoreContract
import Synchronization
import TodoEvents
import TodoModel

/// Answers model requests: reads (`requestReadTodos → responseTodos`) and atomic writes
/// (`requestWriteTodo → responseTodo`) against the store.
///
/// Reads are answered at once, inside the bus's dispatch, from the in-memory `TodoTable`,
/// which changes only after a commit: a read never sees an uncommitted write and never
/// waits for the disk. It is the one writer: the durable commit is the one thing
/// that leaves the bus's executor, for a storage thread of its own, and comes back
/// through `returnToCore` as response events. Writes that arrive while a transaction
/// commits wait together and commit in the next one (group commit); each is answered,
/// in commit order, only once its transaction is durable. With a shared store (`--store`)
/// each batch commits through its `ReplicaSync`, which also brings others' changes.
public final class ModelServer: Sendable {
    /// Runs work back on the bus's executor (the daemon's core event loop).
    public typealias Executor = @Sendable (@escaping @Sendable () -> Void) -> Void

    struct State {
        /// Writes received while a transaction commits: the next batch.
        var waiting: [Envelope] = []
        var committing = false
        var shuttingDown = false
        var stopped: [CheckedContinuation<Void, Never>] = []
        var batchSizes: [Int] = []
        /// Counts commits, so that an idle checkpoint knows none came since it was planned.
        var commits: UInt64 = 0
    }

    /// How long after the last commit the write-ahead log is folded into the database file.
    public static let idleCheckpointDelay: DispatchTimeInterval = .seconds(5)

    let bus: EventBus
    let store: TodoStore
    let logger: Logger
    let clock: @Sendable () -> Date
    let returnToCore: Executor
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
    let state: Mutex<State>

    /// Loads the store and subscribes to the bus at once, so no request published after
    /// this returns is missed. With `shared`, the store is first caught up from it, and
    /// every write commits through it.
    /// - Parameter returnToCore: where commit results are published; by default on the
    ///   storage thread itself (the bus keeps the order either way).
    public init(bus: EventBus, store: TodoStore, logger: Logger = Logger(label: "todod.model"),
                clock: @escaping @Sendable () -> Date = Date.init,
                returnToCore: @escaping Executor = { $0() }, shared: (any SharedStore)? = nil) throws {
        self.bus = bus
        self.store = store
        self.logger = logger
        self.clock = clock
        self.returnToCore = returnToCore
        let storage = DispatchQueue(label: "todod.storage")
        self.storage = storage
        let gate = StoreGate()
        self.gate = gate
        // The replica is caught up before the table is loaded from it.
        let replicaChecked = try shared.map { try ReplicaSync.catchUpAtStart(store, from: $0, logger: logger) }
        let (loaded, lastChange) = try store.loadAll()
        let todos = CommittedTodos(TodoTable(loaded, lastChange: lastChange), clock: clock)
        self.todos = todos
        state = Mutex(State())
        backups = BackupWriter(bus: bus, store: store, logger: logger, clock: clock, storage: storage, gate: gate, returnToCore: returnToCore)
        journal = JournalReader(bus: bus, store: store, logger: logger, todos: todos, gate: gate, returnToCore: returnToCore)
        replicaSync = shared.map {
            ReplicaSync(shared: $0, store: store, replicaChecked: replicaChecked ?? false, todos: todos, bus: bus, logger: logger,
                        storage: storage, gate: gate, returnToCore: returnToCore)
        }
        bus.subscribe(to: [.model(.requestReadTodos)]) { [weak self] envelope in
            guard let self, case .requestReadTodos(let query)? = envelope.model else { return }
            self.bus.publish(.responseTodos(read(query)), correlation: envelope.correlation)
        }
        bus.subscribe(to: [.model(.requestWriteTodo), .model(.requestWriteTodos)]) { [weak self] envelope in self?.take(envelope) }
    }

    /// Returns once `shutdown()` was called (or the task cancelled) and every write
    /// received before it is committed and answered.
    public func run() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state in
                    guard !(state.shuttingDown && !state.committing) else { return true }
                    state.stopped.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            shutdown()
        }
    }

    /// Takes no more writes (they are answered with a storage error); the writes already
    /// taken commit, then `run()` returns.
    public func shutdown() {
        let stopped = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.shuttingDown = true
            guard !state.committing else { return [] }
            defer { state.stopped = [] }
            return state.stopped
        }
        stopped.forEach { $0.resume() }
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

    /// The sequence number of the last committed change.
    public var lastChange: UInt64 { todos.lastChange }

    /// Kept up to date as changes commit: reading them costs nothing.
    public var counts: TodoCounts { todos.counts }

    /// How many writes each transaction committed, for the most recent
    /// `recordedBatches` transactions: shows group commit at work.
    public var committedBatchSizes: [Int] { state.withLock { $0.batchSizes } }

    /// Kept so that a daemon running for months does not keep a number per commit.
    public static let recordedBatches = 4096

    func read(_ query: TodoQuery) -> TodoQueryResult {
        todos.read(query)
    }

    /// Ends the waiting of every open todo whose wait day is `today` or earlier: an edit
    /// clearing its `wait`, committed and broadcast like any client's (at its revision, so
    /// an edit made meanwhile wins). Call it on the core. Returns how many it asked for.
    public func endWaiting(on today: LocalDate) -> Int {
        let over = todos.waitingOver(on: today)
        for todo in over {
            bus.publish(.requestWriteTodo(.edit(.id(todo.id), TodoEdit(clearWait: true), expectedRevision: todo.revision)))
        }
        return over.count
    }

    // MARK: Writes

    /// A write request: it waits for the next batch. When the writer is free, that batch
    /// starts at the end of the core's current turn, so that the writes read in the same
    /// turn (several clients answering the last batch at once) commit together, not one
    /// alone and the rest after it.
    private func take(_ envelope: Envelope) {
        let mutations = ModelServer.mutations(of: envelope)
        guard !mutations.isEmpty else { return }
        let start = state.withLock { state -> Bool? in
            guard !state.shuttingDown else { return nil }
            state.waiting.append(envelope)
            defer { state.committing = true }
            return !state.committing
        }
        switch start {
        case nil:
            let results = mutations.map { TodoWriteResult.failed($0, .storage("the daemon is shutting down")) }
            bus.publish(ModelServer.answer(to: envelope, results[...]), correlation: envelope.correlation)
        case true?:
            returnToCore {
                let batch = self.state.withLock { state in
                    defer { state.waiting = [] }
                    return state.waiting
                }
                self.commit(batch)
            }
        case false?:
            break
        }
    }

    /// Commits a batch on the storage thread, then publishes its answers on the core.
    private func commit(_ batch: [Envelope]) {
        let mutations = batch.flatMap(ModelServer.mutations(of:))
        // Each mutation's author: the client whose request it came in.
        let authors = batch.flatMap { envelope in
            let author = ChangeAuthor(client: envelope.correlation?.client ?? 0, program: envelope.correlation?.program ?? "")
            return Array(repeating: author, count: ModelServer.mutations(of: envelope).count)
        }
        // A request's mutations are one step (an import's todos), on the step it names if it names one.
        let steps = batch.flatMap { envelope in
            let first: WriteStep = envelope.correlation?.step.map(WriteStep.joining) ?? .own
            return [first] + Array(repeating: WriteStep.withPrevious, count: max(0, ModelServer.mutations(of: envelope).count - 1))
        }
        let now = clock().roundedToMilliseconds
        storage.async { [self] in
            let results: [TodoWriteResult]
            let started = ContinuousClock.now
            defer { logger.trace("committed", metadata: ["writes": "\(mutations.count)", "took": "\(ContinuousClock.now - started)"]) }
            do {
                results = try replicaSync.map { try $0.commit(mutations, at: now, by: authors, steps: steps) }
                    ?? store.commit(mutations, at: now, by: authors, steps: steps)
            } catch {
                // Refused while the shared store is unreachable: the sync counted them, not logged each.
                if (error as? SharedStoreError)?.kind != .unreachable {
                    logger.error("write failed, nothing written", metadata: ["writes": "\(mutations.count)", "error": "\(error)"])
                }
                let reason = ModelServer.describe(error)
                results = mutations.map { .failed($0, error is SharedStoreError ? .sharedStore(reason) : .storage(reason)) }
            }
            returnToCore { self.finish(batch, results) }
        }
    }

    /// On the core: the batch is durable. Updates the table, answers each write in order,
    /// and starts the next batch.
    private func finish(_ batch: [Envelope], _ results: [TodoWriteResult]) {
        todos.take(results)
        state.withLock { state in
            state.commits += 1
            if state.batchSizes.count >= ModelServer.recordedBatches { state.batchSizes.removeFirst() }
            state.batchSizes.append(results.count)
        }
        var rest = results[...]
        for envelope in batch {
            let count = ModelServer.mutations(of: envelope).count
            bus.publish(ModelServer.answer(to: envelope, rest.prefix(count)), correlation: envelope.correlation)
            rest = rest.dropFirst(count)
        }
        let (next, stopped) = state.withLock { state -> ([Envelope], [CheckedContinuation<Void, Never>]) in
            guard state.waiting.isEmpty else {
                defer { state.waiting = [] }
                return (state.waiting, [])
            }
            state.committing = false
            guard state.shuttingDown else { return ([], []) }
            defer { state.stopped = [] }
            return ([], state.stopped)
        }
        if next.isEmpty { checkpointWhenIdle() } else { commit(next) }
        stopped.forEach { $0.resume() }
    }

    /// The writes an envelope asks for: one, or several that commit together.
    private static func mutations(of envelope: Envelope) -> [TodoMutation] {
        switch envelope.model {
        case .requestWriteTodo(let mutation)?: [mutation]
        case .requestWriteTodos(let mutations)?: mutations
        default: []
        }
    }

    /// The answer to `envelope`'s writes, in the form it asked in.
    private static func answer(to envelope: Envelope, _ results: ArraySlice<TodoWriteResult>) -> ModelEvent {
        if case .requestWriteTodo? = envelope.model, let result = results.first { return .responseTodo(result) }
        return .responseWriteTodos(Array(results))
    }

    /// Once no write has committed for a while, folds the write-ahead log into the
    /// database file, so that the file alone (a copy, a backup) holds every todo.
    private func checkpointWhenIdle() {
        let planned = state.withLock { $0.commits }
        storage.asyncAfter(deadline: .now() + ModelServer.idleCheckpointDelay) { [self] in
            guard state.withLock({ $0.commits == planned && !$0.committing }), !gate.isClosed else { return }
            do {
                try store.checkpoint()
            } catch {
                logger.notice("could not checkpoint the database while idle; will retry after the next write", metadata: ["error": "\(error)"])
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error).replacingOccurrences(of: "\n", with: " ")
    }
}
