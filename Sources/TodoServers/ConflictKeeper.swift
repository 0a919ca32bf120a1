import Foundation
import NIOCore
import TodoEvents
import TodoModel

/// Answers for this replica's conflicts (`PendingChanges` keeps one for each field changed
/// both here, while the shared store was away, and on another machine): lists them
/// (`requestReadConflicts`), leaves one (the store's value stays), or takes one: this
/// machine's value is given back to the todo by an ordinary change (`requestWriteTodo`, with
/// the asker's correlation), which the committer journals, shares and answers like any
/// other, so every View hears it and undo takes it back; once it is committed the conflict
/// is marked taken.
///
/// Reads and marks run on the storage queue, after the commits queued there; the marking of
/// a take is queued when its commit is answered, so a list asked for after that answer
/// finds it taken.
final class ConflictKeeper: Sendable {
    let access: StoreAccess
    /// The todo a conflict is of, as it is now.
    let todos: CommittedTodos
    /// The sync with the shared store, which counts the open conflicts for the status; nil alone.
    let replicaSync: ReplicaSync?
    /// The takes whose change is committing: the asker's correlation, and the conflict's n.
    private let taking: NIOLoopBoundBox<[Correlation?: Int]>

    /// Subscribes at once.
    init(_ access: StoreAccess, todos: CommittedTodos, replicaSync: ReplicaSync?) {
        self.access = access
        self.todos = todos
        self.replicaSync = replicaSync
        taking = .makeBoxSendingValue([:], eventLoop: access.core)
        access.bus.subscribe(to: [.model(.requestReadConflicts), .model(.requestMarkConflict), .model(.responseTodo)]) { [weak self] envelope in
            guard let self else { return }
            switch envelope.model {
            case .requestReadConflicts(let request)?: list(request, envelope.correlation)
            case .requestMarkConflict(let settlement)?: settle(settlement, envelope.correlation)
            case .responseTodo(let result)?: taken(result, envelope.correlation)
            default: break
            }
        }
    }

    private func list(_ request: ConflictsRequest, _ correlation: Correlation?) {
        onStorage(correlation, answer: { .responseReadConflicts($0) }, failed: ConflictReadResult.failed) { store in
            .listed(try store.conflicts(all: request.all))
        }
    }

    /// Reads the conflict; a leave marks it there and then, a take goes on on the core.
    private func settle(_ settlement: ConflictSettlement, _ correlation: Correlation?) {
        let now = access.clock()
        onStorage(correlation, answer: { .responseMarkConflict($0) }, failed: ConflictMarkResult.failed) { [self] store in
            guard let kept = try store.conflict(settlement.n) else { return .failed(.noConflict(settlement.n)) }
            if let settled = Self.settled(kept) { return .failed(settled) }
            guard settlement.take else {
                // Read and marked in one turn of the storage queue: nothing settles it in between.
                guard let left = try store.settleConflict(settlement.n, as: .left, at: now) else { return .failed(.noConflict(settlement.n)) }
                replicaSync?.conflictSettled()
                return .left(left)
            }
            access.returnToCore { self.take(kept, correlation) }
            return nil
        }
    }

    /// On the core: the change that gives the todo this machine's value, published as the asker's write.
    private func take(_ kept: KeptConflict, _ correlation: Correlation?) {
        let conflict = kept.conflict
        let found = todos.read(.one(.id(conflict.id))).todos
        guard let current = found.first else {
            let reason = "#\(conflict.number) was purged since, so this machine's \(conflict.field.rawValue) has no todo to go to: leave the conflict"
            return refuse(reason, correlation)
        }
        guard let mutation = kept.taking(onto: current) else {
            let reason = "\(kept.n) is of #\(current.number)'s \(conflict.field.rawValue), which no edit sets: change it by hand, then leave the conflict"
            return refuse(reason, correlation)
        }
        taking.withValue { $0[correlation] = kept.n }
        access.bus.publish(.requestWriteTodo(mutation), correlation: correlation)
    }

    private func refuse(_ reason: String, _ correlation: Correlation?) {
        access.bus.publish(.responseMarkConflict(.failed(.invalid(field: "conflict", reason: reason))), correlation: correlation)
    }

    /// A take's change answered: committed (or the todo had that value already), so the conflict is taken.
    private func taken(_ result: TodoWriteResult, _ correlation: Correlation?) {
        guard let n = taking.withValue({ $0.removeValue(forKey: correlation) }) else { return }
        switch result {
        case .written, .unchanged: break
        case .failed, .purged, .previewed: return
        }
        let now = access.clock()
        access.storage.async { [self, access] in
            do {
                try access.gate.refuseWhenClosed()
                // A leave or another take of it may have ended it while the change committed.
                if try access.store.settleConflict(n, as: .taken, at: now) != nil { self.replicaSync?.conflictSettled() }
            } catch {
                access.logger.error("a conflict's value was taken, but the conflict could not be marked taken: it is still listed, and taking it again changes nothing",
                                    metadata: ["conflict": "\(n)", "error": "\(error)"])
            }
        }
    }

    /// Why a conflict taken or left already cannot be again; nil while it is open. (Worded
    /// after the field it names: "conflict: 2 (#3's title) was taken already …".)
    private static func settled(_ kept: KeptConflict) -> TodoModelError? {
        guard kept.state != .open else { return nil }
        let when = kept.settledAt.map { " at \(LocalMinute($0))" } ?? ""
        let value = kept.state == .taken ? "this machine's value was given to it" : "the store's value stayed"
        return .invalid(field: "conflict", reason: "\(kept.n) (#\(kept.conflict.number)'s \(kept.conflict.field.rawValue)) was \(kept.state.rawValue) already\(when), \(value): nothing is left to do; change the todo itself to change it again")
    }

    /// Runs `work` on the storage queue, behind the gate, and publishes its result (nil: none)
    /// on the core with the asker's correlation; a store that cannot be read is a storage failure.
    private func onStorage<Result: Sendable>(
        _ correlation: Correlation?, answer: @escaping @Sendable (Result) -> ModelEvent, failed: @escaping @Sendable (TodoModelError) -> Result,
        _ work: @escaping @Sendable (TodoStore) throws -> Result?
    ) {
        access.storage.async { [access] in
            let result: Result?
            do {
                try access.gate.refuseWhenClosed()
                result = try work(access.store)
            } catch {
                access.logger.error("could not read or mark this machine's conflicts", metadata: ["error": "\(error)"])
                result = failed(.storage(access.store.describe(error)))
            }
            guard let result else { return }
            access.returnToCore { access.bus.publish(answer(result), correlation: correlation) }
        }
    }
}
