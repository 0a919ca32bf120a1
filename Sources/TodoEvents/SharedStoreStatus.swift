import Foundation

/// The shared store (`todod --store`) as this daemon last found it: broadcast to every
/// client as `responseSharedStore` each time it becomes unreachable or reachable again, and
/// part of `responseStatus`. While it is unreachable, writes are committed to this daemon's
/// replica alone and shared once it is back, and reads are answered from the replica.
public struct SharedStoreStatus: Sendable, Equatable, Codable {
    /// Where the store is, without any secret (`postgresql://alice@db.home.lan/todos`).
    public var store: String
    public var reachable: Bool
    /// Since when it is reachable, or not.
    public var since: Date
    /// Why it is unreachable, in the words of PostgreSQL or the network; nil while reachable.
    public var problem: String?
    /// How many changes this daemon kept on its machine while the store was away, not yet
    /// shared; nil when none.
    public var pending: Int?
    /// How many conflicts of sharing them wait on this machine to be taken or left; nil when none.
    public var conflicts: Int?
    /// Todos added here while the store was away whose number another machine gave meanwhile,
    /// renumbered as they were just shared: only in the broadcast that follows the sharing
    /// (`#3 is now #5`), never in a status asked for; nil when none.
    public var renumbered: [Renumbering]?
    /// The change the ones kept here while the store was away followed, when sharing them
    /// made them again on top of others' (they, and numbers a client saw after this one, are
    /// the store's now): a client that saw later changes reads its list again and takes the
    /// changes after this one, which follow this status. Only in the broadcast that follows
    /// the sharing; nil when nobody else wrote meanwhile.
    public var rewoundTo: UInt64?
    /// True while this machine's copy has never been filled from the store: a new replica
    /// started while the store was away holds only the todos added here, and a list that shows
    /// nothing says so (it said "no open todos" as if the store's list were empty, outside
    /// probe 11, F13); nil once it was.
    public var unfilled: Bool?

    /// A todo's number as it was given here, and the one it has now.
    public struct Renumbering: Sendable, Equatable, Codable {
        public var was: Int
        public var now: Int

        public init(was: Int, now: Int) {
            self.was = was
            self.now = now
        }
    }

    public init(
        store: String, reachable: Bool, since: Date, problem: String? = nil, pending: Int? = nil, conflicts: Int? = nil,
        renumbered: [Renumbering]? = nil, rewoundTo: UInt64? = nil, unfilled: Bool? = nil
    ) {
        self.store = store
        self.reachable = reachable
        self.since = since
        self.problem = problem
        self.pending = pending
        self.conflicts = conflicts
        self.renumbered = renumbered
        self.rewoundTo = rewoundTo
        self.unfilled = unfilled
    }
}
