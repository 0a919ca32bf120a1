import Dispatch
import Foundation
import Logging
import TodoEvents
import TodoModel

/// Answers journal reads (`requestReadJournal`: changes since a number, a todo's history, the
/// log) from the journal in SQLite, off the core on a queue of its own, beside the writer (WAL
/// readers do not wait for it), so that a long read holds no write. A participant of its own,
/// cut out of the ModelServer: it needs of it only the committed todos, to know where the
/// broadcast changes end and which todo a history is of.
final class JournalReader: Sendable {
    let bus: EventBus
    let store: TodoStore
    let logger: Logger
    let todos: CommittedTodos
    let gate: StoreGate
    let returnToCore: ModelServer.Executor
    private let queue = DispatchQueue(label: "todod.journal")

    /// Subscribes at once.
    init(bus: EventBus, store: TodoStore, logger: Logger, todos: CommittedTodos, gate: StoreGate,
         returnToCore: @escaping ModelServer.Executor) {
        self.bus = bus
        self.store = store
        self.logger = logger
        self.todos = todos
        self.gate = gate
        self.returnToCore = returnToCore
        bus.subscribe(to: [.model(.requestReadJournal)]) { [weak self] envelope in self?.read(envelope) }
    }

    /// Returns once the read in flight, if any, is done: the store may close then (the gate
    /// keeps the later ones off it).
    func waitForReads() {
        queue.sync {}
    }

    /// Reads the journal up to the last change broadcast so far (later ones reach the asker
    /// as broadcasts after this answer), off the core; answers on the core.
    private func read(_ envelope: Envelope) {
        guard case .requestReadJournal(let query)? = envelope.model else { return }
        let asOf = todos.lastChange
        var id: UUID?
        switch query {
        case .after(let seq, _) where seq > asOf:
            let error = TodoModelError.invalid(field: "since", reason: "change \(seq) has not happened yet; the last is \(asOf)")
            bus.publish(.responseJournal(.failed(query, error)), correlation: envelope.correlation)
            return
        case .after(let seq, let limit) where asOf - seq > UInt64(limit):
            bus.publish(.responseJournal(.tooFarBehind(query, asOf: asOf)), correlation: envelope.correlation)
            return
        case .history(let ref, _):
            let found = todos.read(.one(ref)).todos
            guard found.count == 1 else {
                bus.publish(.responseJournal(.failed(query, found.isEmpty ? .notFound(ref) : .ambiguous(ref))), correlation: envelope.correlation)
                return
            }
            id = found[0].id
        default:
            break
        }
        queue.async { [self, id] in
            let result: JournalReadResult
            do {
                try gate.refuseWhenClosed()
                switch query {
                case .after(let seq, let limit): result = .entries(query, try store.changes(after: seq, limit: limit, upTo: asOf), asOf: asOf)
                case .history(_, let after):
                    let page = try store.historyPage(of: id ?? UUID(), after: after, upTo: asOf)
                    result = .entries(query, page.entries, asOf: asOf, more: page.more)
                case .log(let since, let after?, let limit):
                    let page = try store.logPage(after: after, limit: limit, since: since, upTo: asOf)
                    result = .entries(query, page.entries, asOf: asOf, more: page.more)
                case .log(let since, nil, let limit):
                    let page = try store.logPage(since: since, last: limit, upTo: asOf)
                    result = .entries(query, page.entries, asOf: asOf, more: page.more)
                }
            } catch {
                logger.error("could not read the journal", metadata: ["error": "\(error)"])
                result = .failed(query, .storage(store.describe(error)))
            }
            returnToCore { self.bus.publish(.responseJournal(result), correlation: envelope.correlation) }
        }
    }
}
