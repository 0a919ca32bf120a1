import Dispatch
import Foundation
import Logging
import Synchronization
import TodoEvents
import TodoModel

/// Answers model requests: reads (`requestReadTodos → responseTodos`) and atomic writes
/// (`requestWriteTodo → responseTodo`) against the store.
///
/// Reads are answered at once, inside the bus's dispatch, from an in-memory copy of the
/// table that changes only after a commit: a read never sees an uncommitted write and
/// never waits for the disk. It is the one writer: the durable commit is the one thing
/// that leaves the bus's executor, for a storage thread of its own, and comes back
/// through `returnToCore` as response events. Writes that arrive while a transaction
/// commits wait together and commit in the next one (group commit); each is answered,
/// in commit order, only once its transaction is durable.
public final class ModelServer: Sendable {
    /// How many todos are in each state, as of one committed change.
    public struct Counts: Sendable, Equatable {
        public var open = 0
        public var completed = 0
        public var deleted = 0
        /// The last change these counts include: read together, so that a client can go on
        /// counting from the changes after it.
        public var asOf: UInt64 = 0

        mutating func add(_ todo: Todo, _ amount: Int) {
            if todo.isDeleted { deleted += amount } else if todo.isCompleted { completed += amount } else { open += amount }
        }
    }

    /// Runs work back on the bus's executor (the daemon's core event loop).
    public typealias Executor = @Sendable (@escaping @Sendable () -> Void) -> Void

    private struct State {
        var todos: [UUID: Todo] = [:]
        var idsByNumber: [Int: UUID] = [:]
        var counts = Counts()
        /// Every todo in the default order, made by the first list read after a commit
        /// and kept until the next one: a list is then a filter, not a sort.
        var ordered: [Todo]?
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

    private let bus: EventBus
    private let store: TodoStore
    private let logger: Logger
    private let clock: @Sendable () -> Date
    private let returnToCore: Executor
    private let storage = DispatchQueue(label: "todod.storage")
    private let state: Mutex<State>

    /// Loads the store and subscribes to the bus at once, so no request published after
    /// this returns is missed.
    /// - Parameter returnToCore: where commit results are published; by default on the
    ///   storage thread itself (the bus keeps the order either way).
    public init(bus: EventBus, store: TodoStore, logger: Logger = Logger(label: "todod.model"),
                clock: @escaping @Sendable () -> Date = Date.init,
                returnToCore: @escaping Executor = { $0() }) throws {
        self.bus = bus
        self.store = store
        self.logger = logger
        self.clock = clock
        self.returnToCore = returnToCore
        let (todos, lastChange) = try store.loadAll()
        var initial = State()
        initial.todos.reserveCapacity(todos.count)
        initial.counts.asOf = lastChange
        for todo in todos {
            initial.todos[todo.id] = todo
            initial.idsByNumber[todo.number] = todo.id
            initial.counts.add(todo, 1)
        }
        state = Mutex(initial)
        bus.subscribe(to: [.requestReadTodos]) { [weak self] envelope in
            guard let self, case .requestReadTodos(let query) = envelope.event else { return }
            self.bus.publish(.responseTodos(read(query)), correlation: envelope.correlation)
        }
        bus.subscribe(to: [.requestWriteTodo]) { [weak self] envelope in self?.take(envelope) }
        bus.subscribe(to: [.requestBackupDatabase]) { [weak self] envelope in self?.backUp(envelope) }
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

    /// The sequence number of the last committed change.
    public var lastChange: UInt64 { state.withLock { $0.counts.asOf } }

    /// Kept up to date as changes commit: reading them costs nothing.
    public var counts: Counts { state.withLock { $0.counts } }

    /// How many writes each transaction committed, for the most recent
    /// `recordedBatches` transactions: shows group commit at work.
    public var committedBatchSizes: [Int] { state.withLock { $0.batchSizes } }

    /// Kept so that a daemon running for months does not keep a number per commit.
    public static let recordedBatches = 4096

    func read(_ query: TodoQuery) -> TodoQueryResult {
        state.withLock { state in
            let asOf = state.counts.asOf
            switch query {
            case .list(let filter):
                let all = state.ordered ?? ModelServer.defaultOrder(state.todos)
                state.ordered = all
                return TodoQueryResult(query: query, todos: ModelServer.matching(all, filter), asOf: asOf)
            case .one(.id(let id)):
                return TodoQueryResult(query: query, todos: state.todos[id].map { [$0] } ?? [], asOf: asOf)
            case .one(.number(let number)):
                let todo = state.idsByNumber[number].flatMap { state.todos[$0] }
                return TodoQueryResult(query: query, todos: todo.map { [$0] } ?? [], asOf: asOf)
            case .one(let ref):
                var found: [Todo] = []
                for todo in state.todos.values where ref.matches(todo) {
                    found.append(todo)
                    if found.count == 2 { break }
                }
                return TodoQueryResult(query: query, todos: found, asOf: asOf)
            }
        }
    }

    /// The todos in the default order, sorted by position so that no Todo is copied while
    /// sorting (a Todo is a dozen fields, several of them reference-counted).
    static func defaultOrder(_ todos: [UUID: Todo]) -> [Todo] {
        let values = Array(todos.values)
        var positions = Array(values.indices)
        positions.sort { Todo.precedesInDefaultOrder(values[$0], values[$1]) }
        return positions.map { values[$0] }
    }

    /// The todos that match, each tested once. When every todo matches, the list is the
    /// ordered array itself, not a copy of it.
    static func matching(_ all: [Todo], _ filter: TodoFilter) -> [Todo] {
        guard let firstMiss = all.firstIndex(where: { !filter.matches($0) }) else { return all }
        return Array(all[..<firstMiss]) + all[(firstMiss + 1)...].filter { filter.matches($0) }
    }

    // MARK: Writes

    /// A write request: it waits for the next batch. When the writer is free, that batch
    /// starts at the end of the core's current turn, so that the writes read in the same
    /// turn (several clients answering the last batch at once) commit together, not one
    /// alone and the rest after it.
    private func take(_ envelope: Envelope) {
        guard case .requestWriteTodo(let mutation) = envelope.event else { return }
        let start = state.withLock { state -> Bool? in
            guard !state.shuttingDown else { return nil }
            state.waiting.append(envelope)
            defer { state.committing = true }
            return !state.committing
        }
        switch start {
        case nil:
            bus.publish(.responseTodo(.failed(mutation, .storage("the daemon is shutting down"))), correlation: envelope.correlation)
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
        let mutations = batch.compactMap { envelope -> TodoMutation? in
            if case .requestWriteTodo(let mutation) = envelope.event { return mutation }
            return nil
        }
        let now = clock().roundedToMilliseconds
        storage.async { [self] in
            let results: [TodoWriteResult]
            let started = ContinuousClock.now
            defer { logger.trace("committed", metadata: ["writes": "\(mutations.count)", "took": "\(ContinuousClock.now - started)"]) }
            do {
                results = try store.commit(mutations, at: now)
            } catch {
                logger.error("write failed, nothing written", metadata: ["writes": "\(mutations.count)", "error": "\(error)"])
                results = mutations.map { .failed($0, .storage(ModelServer.describe(error))) }
            }
            returnToCore { self.finish(batch, results) }
        }
    }

    /// On the core: the batch is durable. Updates the table, answers each write in order,
    /// and starts the next batch.
    private func finish(_ batch: [Envelope], _ results: [TodoWriteResult]) {
        state.withLock { state in
            var changed = false
            for case .written(_, let todo, let change) in results {
                if let before = state.todos[todo.id] { state.counts.add(before, -1) }
                state.counts.add(todo, 1)
                state.todos[todo.id] = todo
                state.idsByNumber[todo.number] = todo.id
                state.counts.asOf = change
                changed = true
            }
            if changed { state.ordered = nil }
            state.commits += 1
            if state.batchSizes.count >= ModelServer.recordedBatches { state.batchSizes.removeFirst() }
            state.batchSizes.append(results.count)
        }
        for (envelope, result) in zip(batch, results) {
            bus.publish(.responseTodo(result), correlation: envelope.correlation)
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

    /// Writes a consistent copy of the database beside it (in `backups/`), on the storage
    /// thread, between commits; answers with its path.
    private func backUp(_ envelope: Envelope) {
        let directory = ((store.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("backups")
        let name = "todos-" + ModelServer.backupStamp(clock()) + ".sqlite"
        storage.async { [self] in
            let result: DatabaseBackupResult
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let path = (directory as NSString).appendingPathComponent(name)
                try store.backup(to: path)
                let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
                result = .written(DatabaseBackup(path: path, bytes: size))
            } catch {
                logger.error("backup failed", metadata: ["error": "\(error)"])
                result = .failed(ModelServer.describe(error))
            }
            returnToCore { self.bus.publish(.responseBackupDatabase(result), correlation: envelope.correlation) }
        }
    }

    /// `20261123-091911-123`: a backup's name sorts by time.
    static func backupStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))-"
            + String(format: "%03d", (parts.nanosecond ?? 0) / 1_000_000)
    }

    /// Once no write has committed for a while, folds the write-ahead log into the
    /// database file, so that the file alone (a copy, a backup) holds every todo.
    private func checkpointWhenIdle() {
        let planned = state.withLock { $0.commits }
        storage.asyncAfter(deadline: .now() + ModelServer.idleCheckpointDelay) { [self] in
            guard state.withLock({ $0.commits == planned && !$0.committing }) else { return }
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
