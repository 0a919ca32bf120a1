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

    public init(store: String, since: Date, problem: String? = nil, pending: Int = 0) {
        self.store = store
        self.since = since
        self.problem = problem
        self.pending = pending
    }

    /// The status line: what is wrong since when, and what it means for the keys.
    public var line: String {
        let when = LocalMinute(since).clock
        return "shared store unreachable since \(when)" + (problem.map { " (\($0))" } ?? "")
            + ": " + (pending == 0 ? "changes are" : pending == 1 ? "1 change" : "\(pending) changes")
            + " saved here and shared when it is back; the list is this machine's copy; todod reconnects by itself"
    }
}
