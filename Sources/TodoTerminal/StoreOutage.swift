import Foundation
import TodoModel

/// The shared store the daemon writes through is unreachable, as the daemon said: watch
/// says so on a line of its own until it is back, since every change waits on this machine meanwhile.
public struct StoreOutage: Sendable, Equatable {
    /// Where the store is (no secret in it).
    public var store: String
    public var since: Date
    /// Why, in PostgreSQL's or the network's words.
    public var problem: String?
    /// How many changes the daemon saved on its machine meanwhile, not yet shared.
    public var pending: Int
    /// This machine's copy has never been filled from the store (a new replica started while it
    /// was away): the list holds only what was added here, which `list` and `next` say too.
    public var unfilled: Bool

    public init(store: String, since: Date, problem: String? = nil, pending: Int = 0, unfilled: Bool = false) {
        self.store = store
        self.since = since
        self.problem = problem
        self.pending = pending
        self.unfilled = unfilled
    }

    /// The status line: what is wrong since when, and what it means for the keys.
    /// A copy never filled says so first, where a narrow screen's first line still shows it.
    public var line: String {
        let when = LocalMinute(since).clock
        let saved = (pending == 0 ? "changes are" : pending == 1 ? "1 change" : "\(pending) changes") + " saved here and shared when it is back"
        let why = problem.map { " (\($0))" } ?? ""
        guard !unfilled else {
            return "this machine's copy was never filled from the shared store, unreachable since \(when)\(why): "
                + "the other machines' todos are not here yet; \(saved); todod reconnects by itself"
        }
        return "shared store unreachable since \(when)\(why): \(saved); the list is this machine's copy; todod reconnects by itself"
    }
}
