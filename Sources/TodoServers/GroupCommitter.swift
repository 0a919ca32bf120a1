import Dispatch
import Foundation
import Logging
import SharedStoreContract
import Synchronization
import TodoEvents
import TodoModel

/// The one writer: answers write requests (`requestWriteTodo`, `requestWriteTodos`) once
/// their transaction is durable. The durable commit is the one thing that leaves the bus's
/// executor, for the storage queue, and comes back through `returnToCore` as response events.
/// Writes that arrive while a transaction commits wait together and commit in the next one
/// (group commit), so throughput does not stop at one fsync per request; each is answered,
/// in commit order, only once its transaction is durable. Once writes stop for a while it
/// folds the write-ahead log into the database file.
///
/// A participant of its own, cut out of the ModelServer, which keeps the reads: the two share
/// only the committed todos, which this takes each batch into before answering it.
final class GroupCommitter: Sendable {
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
    static let idleCheckpointDelay: DispatchTimeInterval = .seconds(5)

    /// Kept so that a daemon running for months does not keep a number per commit.
    static let recordedBatches = 4096

    let access: StoreAccess
    /// Each batch goes in before it is answered: a read after an answer sees its write.
    let todos: CommittedTodos
    /// With a shared store, each batch commits through it.
    let replicaSync: ReplicaSync?
    private let state = Mutex(State())

    /// Subscribes at once.
    init(_ access: StoreAccess, todos: CommittedTodos, replicaSync: ReplicaSync?) {
        self.access = access
        self.todos = todos
        self.replicaSync = replicaSync
        access.bus.subscribe(to: [.model(.requestWriteTodo), .model(.requestWriteTodos)]) { [weak self] envelope in self?.take(envelope) }
    }

    /// Returns once `shutdown()` was called (or the task cancelled) and every write
    /// received before it is committed and answered.
    func run() async {
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
    func shutdown() {
        let stopped = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.shuttingDown = true
            guard !state.committing else { return [] }
            defer { state.stopped = [] }
            return state.stopped
        }
        stopped.forEach { $0.resume() }
    }

    /// How many writes each transaction committed, for the most recent
    /// `recordedBatches` transactions: shows group commit at work.
    var committedBatchSizes: [Int] { state.withLock { $0.batchSizes } }

    /// A write request: it waits for the next batch. When the writer is free, that batch
    /// starts at the end of the core's current turn, so that the writes read in the same
    /// turn (several clients answering the last batch at once) commit together, not one
    /// alone and the rest after it.
    private func take(_ envelope: Envelope) {
        let mutations = GroupCommitter.mutations(of: envelope)
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
            access.bus.publish(GroupCommitter.answer(to: envelope, results[...]), correlation: envelope.correlation)
        case true?:
            access.returnToCore {
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
        let mutations = batch.flatMap(GroupCommitter.mutations(of:))
        // Each mutation's author: the client whose request it came in.
        let authors = batch.flatMap { envelope in
            let author = ChangeAuthor(client: envelope.correlation?.client ?? 0, program: envelope.correlation?.program ?? "")
            return Array(repeating: author, count: GroupCommitter.mutations(of: envelope).count)
        }
        // A request's mutations are one step (an import's todos), on the step it names if it names one.
        let steps = batch.flatMap { envelope in
            let first: WriteStep = envelope.correlation?.step.map(WriteStep.joining) ?? .own
            return [first] + Array(repeating: WriteStep.withPrevious, count: max(0, GroupCommitter.mutations(of: envelope).count - 1))
        }
        let now = access.clock().roundedToMilliseconds
        access.storage.async { [self] in
            let results: [TodoWriteResult]
            let started = ContinuousClock.now
            defer { access.logger.trace("committed", metadata: ["writes": "\(mutations.count)", "took": "\(ContinuousClock.now - started)"]) }
            do {
                results = try replicaSync.map { try $0.commit(mutations, at: now, by: authors, steps: steps) }
                    ?? access.store.commit(mutations, at: now, by: authors, steps: steps)
            } catch {
                // Refused while the shared store is unreachable: the sync counted them, not logged each.
                if (error as? SharedStoreError)?.kind != .unreachable {
                    access.logger.error("write failed, nothing written", metadata: ["writes": "\(mutations.count)", "error": "\(error)"])
                }
                let reason = ModelServer.describe(error)
                results = mutations.map { .failed($0, error is SharedStoreError ? .sharedStore(reason) : .storage(reason)) }
            }
            access.returnToCore { self.finish(batch, results) }
        }
    }

    /// On the core: the batch is durable. Updates the table, answers each write in order,
    /// and starts the next batch.
    private func finish(_ batch: [Envelope], _ results: [TodoWriteResult]) {
        todos.take(results)
        state.withLock { state in
            state.commits += 1
            if state.batchSizes.count >= GroupCommitter.recordedBatches { state.batchSizes.removeFirst() }
            state.batchSizes.append(results.count)
        }
        var rest = results[...]
        for envelope in batch {
            let count = GroupCommitter.mutations(of: envelope).count
            access.bus.publish(GroupCommitter.answer(to: envelope, rest.prefix(count)), correlation: envelope.correlation)
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
        access.storage.asyncAfter(deadline: .now() + GroupCommitter.idleCheckpointDelay) { [self] in
            guard state.withLock({ $0.commits == planned && !$0.committing }), !access.gate.isClosed else { return }
            do {
                try access.store.checkpoint()
            } catch {
                access.logger.notice("could not checkpoint the database while idle; will retry after the next write", metadata: ["error": "\(error)"])
            }
        }
    }
}
