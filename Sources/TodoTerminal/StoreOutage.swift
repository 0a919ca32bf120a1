import Foundation
import TodoModel

/// The shared store the daemon writes through is unreachable, as the daemon said: watch
/// says so on a line of its own until it is back, since every change is refused meanwhile.
public struct StoreOutage: Sendable, Equatable {
    /// Where the store is (no secret in it).
    public var store: String
    public var since: Date
    /// Why, in PostgreSQL's or the network's words.
    public var problem: String?

    public init(store: String, since: Date, problem: String? = nil) {
        self.store = store
        self.since = since
        self.problem = problem
    }

    /// The status line: what is wrong since when, and what it means for the keys.
    public var line: String {
        let when = LocalMinute(since).clock
        return "shared store unreachable since \(when)" + (problem.map { " (\($0))" } ?? "")
            + ": changes are refused; the list is this machine's copy; todod reconnects by itself"
    }
}
