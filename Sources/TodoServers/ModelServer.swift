import Foundation
import Logging
import Synchronization
import TodoEvents
import TodoModel

/// Answers model requests: reads (`requestReadTodos → responseTodos`) and atomic writes
/// (`requestWriteTodo → responseTodo`) against the SQLite store.
///
/// It is the one writer. Writes that wait together commit in one transaction (group
/// commit) and each is answered, in commit order, only once that transaction is durable.
/// Reads are answered from an in-memory copy of the table that changes only after a
/// commit, so a read never sees an uncommitted write and never waits for the disk.
public final class ModelServer: Sendable {
    /// How many todos are in each state, as of one committed change.
    public struct Counts: Sendable, Equatable {
        public var open = 0
        public var completed = 0
        public var deleted = 0
        /// The last change these counts include: read together, so that a client can go on
        /// counting from the changes after it.
        public var asOf: UInt64 = 0
    }

    private struct Snapshot {
        var todos: [UUID: Todo] = [:]
        var lastChange: UInt64 = 0
        /// Every todo in the default order, made by the first list read after a commit
        /// and kept until the next one: a list is then a filter, not a sort.
        var ordered: [Todo]?
        /// Counts commits, so that an order made from an older table is never kept.
        var version: UInt64 = 0
    }

    private let bus: EventBus
    private let store: TodoStore
    private let logger: Logger
    private let clock: @Sendable () -> Date
    private let snapshot: Mutex<Snapshot>
    private let reads: AsyncStream<Envelope>
    private let writes: AsyncStream<Envelope>
    private let queue = WriteQueue()
    private let batchSizes = Mutex<[Int]>([])

    /// Loads the store and subscribes to the bus at once, so no request published after
    /// this returns is missed; `run()` answers them.
    public init(bus: EventBus, store: TodoStore, logger: Logger = Logger(label: "todod.model"),
                clock: @escaping @Sendable () -> Date = Date.init) throws {
        self.bus = bus
        self.store = store
        self.logger = logger
        self.clock = clock
        let (todos, lastChange) = try store.loadAll()
        var table: [UUID: Todo] = [:]
        table.reserveCapacity(todos.count)
        for todo in todos { table[todo.id] = todo }
        snapshot = Mutex(Snapshot(todos: table, lastChange: lastChange))
        reads = bus.subscribe(to: [.requestReadTodos])
        writes = bus.subscribe(to: [.requestWriteTodo])
    }

    /// Answers requests until `shutdown()` or cancellation; either way, it commits and
    /// answers every write it has received before it returns.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.answerReads() }
            group.addTask { await self.gatherWrites() }
            await self.commitWrites()
            group.cancelAll()
        }
    }

    /// Takes no more writes: `run()` commits those waiting, then returns.
    public func shutdown() {
        queue.finish()
    }

    /// The sequence number of the last committed change.
    public var lastChange: UInt64 { snapshot.withLock { $0.lastChange } }

    public var counts: Counts {
        snapshot.withLock { snapshot in
            snapshot.todos.values.reduce(into: Counts(asOf: snapshot.lastChange)) { counts, todo in
                if todo.isDeleted { counts.deleted += 1 } else if todo.isCompleted { counts.completed += 1 } else { counts.open += 1 }
            }
        }
    }

    /// How many writes each transaction committed, for the most recent
    /// `recordedBatches` transactions: shows group commit at work.
    public var committedBatchSizes: [Int] { batchSizes.withLock { $0 } }

    /// Kept so that a daemon running for months does not keep a number per commit.
    public static let recordedBatches = 4096

    private func answerReads() async {
        for await envelope in reads {
            guard case .requestReadTodos(let query) = envelope.event else { continue }
            bus.publish(.responseTodos(read(query)), correlation: envelope.correlation)
        }
    }

    func read(_ query: TodoQuery) -> TodoQueryResult {
        let (todos, ordered, version, asOf) = snapshot.withLock { ($0.todos, $0.ordered, $0.version, $0.lastChange) }
        switch query {
        case .list(let filter):
            let all = ordered ?? remember(ModelServer.defaultOrder(todos), madeAt: version)
            return TodoQueryResult(query: query, todos: ModelServer.matching(all, filter), asOf: asOf)
        case .one(let ref):
            if case .id(let id) = ref { return TodoQueryResult(query: query, todos: todos[id].map { [$0] } ?? [], asOf: asOf) }
            return TodoQueryResult(query: query, todos: Array(todos.values.filter(ref.matches).prefix(2)), asOf: asOf)
        }
    }

    /// The todos in the default order, sorted by position so that no Todo is copied while
    /// sorting (a Todo is a dozen fields, several of them reference-counted).
    static func defaultOrder(_ todos: [UUID: Todo]) -> [Todo] {
        let values = Array(todos.values)
        var positions = Array(values.indices)
        values.withUnsafeBufferPointer { todos in
            positions.sort { Todo.precedesInDefaultOrder(todos[$0], todos[$1]) }
        }
        return positions.map { values[$0] }
    }

    /// The todos that match, each tested once. When every todo matches, the list is the
    /// ordered array itself, not a copy of it.
    static func matching(_ all: [Todo], _ filter: TodoFilter) -> [Todo] {
        guard let firstMiss = all.firstIndex(where: { !filter.matches($0) }) else { return all }
        return Array(all[..<firstMiss]) + all[(firstMiss + 1)...].filter { filter.matches($0) }
    }

    /// Keeps `ordered` for later reads, unless a commit came in meanwhile.
    private func remember(_ ordered: [Todo], madeAt version: UInt64) -> [Todo] {
        snapshot.withLock { snapshot in
            if snapshot.version == version { snapshot.ordered = ordered }
        }
        return ordered
    }

    private func gatherWrites() async {
        for await envelope in writes where !queue.append(envelope) {
            guard case .requestWriteTodo(let mutation) = envelope.event else { continue }
            bus.publish(.responseTodo(.failed(mutation, .storage("the daemon is shutting down"))), correlation: envelope.correlation)
        }
        queue.finish()
    }

    private func commitWrites() async {
        while let batch = await queue.nextBatch() {
            let mutations = batch.compactMap { envelope -> TodoMutation? in
                if case .requestWriteTodo(let mutation) = envelope.event { return mutation }
                return nil
            }
            let results = await commit(mutations)
            for (envelope, result) in zip(batch, results) {
                bus.publish(.responseTodo(result), correlation: envelope.correlation)
            }
        }
    }

    private func commit(_ mutations: [TodoMutation]) async -> [TodoWriteResult] {
        do {
            // A commit once begun is finished, even when the server is being cancelled.
            let (store, now) = (store, clock().roundedToMilliseconds)
            let results = try await Task { try store.commit(mutations, at: now) }.value
            batchSizes.withLock { sizes in
                if sizes.count >= ModelServer.recordedBatches { sizes.removeFirst(sizes.count - ModelServer.recordedBatches + 1) }
                sizes.append(mutations.count)
            }
            snapshot.withLock { snapshot in
                for case .written(_, let todo, let change) in results {
                    snapshot.todos[todo.id] = todo
                    snapshot.lastChange = change
                }
                snapshot.version += 1
                snapshot.ordered = nil
            }
            return results
        } catch {
            logger.error("write failed, nothing written", metadata: ["writes": "\(mutations.count)", "error": "\(error)"])
            return mutations.map { .failed($0, .storage(ModelServer.describe(error))) }
        }
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error).replacingOccurrences(of: "\n", with: " ")
    }
}
