import Dispatch
import Foundation
import Logging
import NIOCore
import SharedStoreContract
import TodoEvents
import TodoModel

/// The one writer: answers write requests (`requestWriteTodo`, `requestWriteTodos`) once
/// their transaction is durable. The durable commit is the one thing that leaves the bus's
/// executor, for the storage queue, and comes back to the core as response events.
/// Writes that arrive while a transaction commits wait together and commit in the next one
/// (group commit), so throughput does not stop at one fsync per request; each is answered,
/// in commit order, only once its transaction is durable. Once writes stop for a while it
/// folds the write-ahead log into the database file.
///
/// A participant of its own, cut out of the ModelServer, which keeps the reads: the two share
/// only the committed todos, which this takes each batch into before answering it.
///
/// Its state is the core's, bound to it with no lock: the writes come in on the bus's dispatch,
/// each batch comes back there, and `run()` and `shutdown()`, called from the service's task,
/// hop there. The storage queue is handed each batch as values and hands back its results.
final class GroupCommitter: Sendable {
    struct State {
        /// Writes received while a transaction commits: the next batch.
        var waiting: [Envelope] = []
        var committing = false
        var shuttingDown = false
        var stopped: [CheckedContinuation<Void, Never>] = []
        var batchSizes: [Int] = []
        /// When the last batch was answered with none waiting: the idle checkpoint is due
        /// `idleCheckpointDelay` after it, unless another batch starts first (then nil).
        var idleSince: NIODeadline?
        /// Whether the core's timer for the idle checkpoint is set: one at a time, not one per commit.
        var checkpointPlanned = false
    }

    /// How long after the last commit the write-ahead log is folded into the database file.
    static let idleCheckpointDelay: TimeAmount = .seconds(5)

    /// Kept so that a daemon running for months does not keep a number per commit.
    static let recordedBatches = 4096

    let access: StoreAccess
    /// Each batch goes in before it is answered: a read after an answer sees its write.
    let todos: CommittedTodos
    /// With a shared store, each batch commits through it.
    let replicaSync: ReplicaSync?
    private let state: NIOLoopBoundBox<State>

    /// Subscribes at once.
    init(_ access: StoreAccess, todos: CommittedTodos, replicaSync: ReplicaSync?) {
        self.access = access
        self.todos = todos
        self.replicaSync = replicaSync
        state = .makeBoxSendingValue(State(), eventLoop: access.core)
        access.bus.subscribe(to: [.model(.requestWriteTodo), .model(.requestWriteTodos)]) { [weak self] envelope in self?.take(envelope) }
        // Others' changes written to the replica count as a write for the idle checkpoint.
        replicaSync?.whenWritten { [weak self] in self?.checkpointWhenIdle() }
    }

    /// Returns once `shutdown()` was called (or the task cancelled) and every write
    /// received before it is committed and answered.
    func run() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                access.core.execute { [self] in
                    let done = state.withValue { state in
                        guard !(state.shuttingDown && !state.committing) else { return true }
                        state.stopped.append(continuation)
                        return false
                    }
                    if done { continuation.resume() }
                }
            }
        } onCancel: {
            shutdown()
        }
    }

    /// Takes no more writes (they are answered with a storage error); the writes already
    /// taken commit, then `run()` returns. From any thread: on the core it takes effect at
    /// once, elsewhere after the core's work queued before it.
    func shutdown() {
        guard access.core.inEventLoop else {
            access.core.execute { self.shutdown() }
            return
        }
        let stopped = state.withValue { state -> [CheckedContinuation<Void, Never>] in
            state.shuttingDown = true
            guard !state.committing else { return [] }
            defer { state.stopped = [] }
            return state.stopped
        }
        stopped.forEach { $0.resume() }
    }

    /// How many writes each transaction committed, for the most recent
    /// `recordedBatches` transactions: shows group commit at work. Read it on the core.
    var committedBatchSizes: [Int] { state.value.batchSizes }

    /// A write request: it waits for the next batch. When the writer is free, that batch
    /// starts at the end of the core's current turn, so that the writes read in the same
    /// turn (several clients answering the last batch at once) commit together, not one
    /// alone and the rest after it.
    private func take(_ envelope: Envelope) {
        let mutations = GroupCommitter.mutations(of: envelope)
        guard !mutations.isEmpty else { return }
        let start = state.withValue { state -> Bool? in
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
            access.core.execute {
                let batch = self.state.withValue { state in
                    defer { state.waiting = [] }
                    return state.waiting
                }
                self.commit(batch)
            }
        case false?:
            break
        }
    }

    /// Commits a batch on the storage thread, then publishes its answers on the core. What the
    /// storage thread needs goes to it as values, and its results come back the same way.
    private func commit(_ batch: [Envelope]) {
        state.value.idleSince = nil
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
                // SQLite's errors in words (a full disk says so and what to do): a replica's catch-up
                // before the write let them out raw (outside probe 11, F3).
                let reason = access.store.describe(error)
                results = mutations.map { .failed($0, error is SharedStoreError ? .sharedStore(reason) : .storage(reason)) }
            }
            access.core.execute { self.finish(batch, results) }
        }
    }

    /// On the core: the batch is durable. Updates the table, answers each write in order,
    /// and starts the next batch.
    private func finish(_ batch: [Envelope], _ results: [TodoWriteResult]) {
        todos.take(results)
        state.withValue { state in
            if state.batchSizes.count >= GroupCommitter.recordedBatches { state.batchSizes.removeFirst() }
            state.batchSizes.append(results.count)
        }
        var rest = results[...]
        for envelope in batch {
            let count = GroupCommitter.mutations(of: envelope).count
            access.bus.publish(GroupCommitter.answer(to: envelope, rest.prefix(count)), correlation: envelope.correlation)
            rest = rest.dropFirst(count)
        }
        let (next, stopped) = state.withValue { state -> ([Envelope], [CheckedContinuation<Void, Never>]) in
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
    /// database file, so that the file alone (a copy, a backup) holds every todo. The core
    /// keeps the time and one timer, moved on while writes keep coming; the fold itself runs
    /// on the storage queue, after whatever was queued there before it. On the core.
    private func checkpointWhenIdle() {
        let plan = state.withValue { state -> NIODeadline? in
            state.idleSince = .now()
            guard !state.checkpointPlanned else { return nil }
            state.checkpointPlanned = true
            return state.idleSince.map { $0 + GroupCommitter.idleCheckpointDelay }
        }
        if let plan { planCheckpoint(at: plan) }
    }

    private func planCheckpoint(at deadline: NIODeadline) {
        access.core.scheduleTask(deadline: deadline) { [self] in
            let due = state.withValue { state -> NIODeadline? in
                guard let idleSince = state.idleSince, !state.committing else {
                    state.checkpointPlanned = false
                    return nil
                }
                let due = idleSince + GroupCommitter.idleCheckpointDelay
                if due <= .now() {
                    state.checkpointPlanned = false
                    state.idleSince = nil
                }
                return due
            }
            guard let due else { return }
            guard due <= .now() else { return planCheckpoint(at: due) }
            access.storage.async { [access] in
                guard !access.gate.isClosed else { return }
                do {
                    try access.store.checkpoint()
                } catch {
                    access.logger.notice("could not checkpoint the database while idle; will retry after the next write", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
