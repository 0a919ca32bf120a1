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
    let access: StoreAccess
    /// Where the broadcast changes end, and which todo a history is of.
    let todos: CommittedTodos
    private let queue = DispatchQueue(label: "todod.journal")

    /// Subscribes at once.
    init(_ access: StoreAccess, todos: CommittedTodos) {
        self.access = access
        self.todos = todos
        access.bus.subscribe(to: [.model(.requestReadJournal)]) { [weak self] envelope in self?.read(envelope) }
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
            access.bus.publish(.responseJournal(.failed(query, error)), correlation: envelope.correlation)
            return
        case .after(let seq, let limit) where asOf - seq > UInt64(limit):
            access.bus.publish(.responseJournal(.tooFarBehind(query, asOf: asOf)), correlation: envelope.correlation)
            return
        case .history(let ref, _):
            let found = todos.read(.one(ref)).todos
            guard found.count == 1 else {
                access.bus.publish(.responseJournal(.failed(query, found.isEmpty ? .notFound(ref) : .ambiguous(ref))), correlation: envelope.correlation)
                return
            }
            id = found[0].id
        default:
            break
        }
        queue.async { [self, id] in
            let result: JournalReadResult
            do {
                try access.gate.refuseWhenClosed()
                switch query {
                case .after(let seq, let limit): result = .entries(query, try access.store.changes(after: seq, limit: limit, upTo: asOf), asOf: asOf)
                case .history(_, let after):
                    let page = try access.store.historyPage(of: id ?? UUID(), after: after, upTo: asOf)
                    result = .entries(query, try markingPending(page.entries), asOf: asOf, more: page.more)
                case .log(let since, let after?, let limit):
                    let page = try access.store.logPage(after: after, limit: limit, since: since, upTo: asOf)
                    result = .entries(query, try markingPending(page.entries), asOf: asOf, more: page.more)
                case .log(let since, nil, let limit):
                    let page = try access.store.logPage(since: since, last: limit, upTo: asOf)
                    result = .entries(query, try markingPending(page.entries), asOf: asOf, more: page.more)
                }
            } catch {
                access.logger.error("could not read the journal", metadata: ["error": "\(error)"])
                result = .failed(query, .storage(access.store.describe(error)))
            }
            access.returnToCore { self.access.bus.publish(.responseJournal(result), correlation: envelope.correlation) }
        }
    }

    /// `entries`, those made here while the shared store was away and not shared yet marked
    /// so (`unshared`): a history or log read them as any other, though their seq and number
    /// may still change (outside probe 11, F13).
    private func markingPending(_ entries: [JournalEntry]) throws -> [JournalEntry] {
        guard let base = try PendingChanges(store: access.store).mark()?.base else { return entries }
        return entries.map { entry in
            var entry = entry
            if entry.seq > base { entry.unshared = entry.unshared ?? "not yet shared" }
            return entry
        }
    }
}
