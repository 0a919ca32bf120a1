import Foundation

/// The shared store (`todod --store`) as this daemon last found it: broadcast to every
/// client as `responseSharedStore` each time it becomes unreachable or reachable again, and
/// part of `responseStatus`. While it is unreachable, writes are refused (nothing written)
/// and reads are answered from this daemon's replica.
public struct SharedStoreStatus: Sendable, Equatable, Codable {
    /// Where the store is, without any secret (`postgresql://alice@db.home.lan/todos`).
    public var store: String
    public var reachable: Bool
    /// Since when it is reachable, or not.
    public var since: Date
    /// Why it is unreachable, in the words of PostgreSQL or the network; nil while reachable.
    public var problem: String?

    public init(store: String, reachable: Bool, since: Date, problem: String? = nil) {
        self.store = store
        self.reachable = reachable
        self.since = since
        self.problem = problem
    }
}
