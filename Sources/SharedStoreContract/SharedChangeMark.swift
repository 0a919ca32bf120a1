import Foundation

/// Which change the shared store holds at one sequence number. A replica whose own change
/// of that number differs has a history of its own (the store was restored from an older
/// backup and written since, or the replica is another store's) and must not take the
/// store's later changes on top of it.
public struct SharedChangeMark: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// A journal entry: the todo it wrote, the revision it gave it, and its number and title (for messages).
        case entry(id: UUID, revision: Int, number: Int, title: String)
        /// A purge (its numbers are not compared: a replica does not keep them).
        case purge
    }

    public var seq: UInt64
    public var change: Change

    public init(seq: UInt64, change: Change) {
        self.seq = seq
        self.change = change
    }
}
