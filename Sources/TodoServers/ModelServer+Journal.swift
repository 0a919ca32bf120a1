import Foundation
import TodoEvents
import TodoModel

/// Journal reads (`requestChanges`, history, log): answered from the journal off the core,
/// on a queue of their own, so that a long read holds no write.
extension ModelServer {
    /// Reads the journal up to the last change broadcast so far (later ones reach the asker
    /// as broadcasts after this answer), off the core; answers on the core.
    func readJournal(_ envelope: Envelope) {
        guard case .requestReadJournal(let query)? = envelope.model else { return }
        let asOf = lastChange
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
            let found = read(.one(ref)).todos
            guard found.count == 1 else {
                bus.publish(.responseJournal(.failed(query, found.isEmpty ? .notFound(ref) : .ambiguous(ref))), correlation: envelope.correlation)
                return
            }
            id = found[0].id
        default:
            break
        }
        journalReader.async { [self, id] in
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
