import Foundation

/// Which change the shared store holds at one sequence number: the todo it wrote and the
/// revision it gave it. A replica whose own change of that number differs has a history of
/// its own (the store was restored from an older backup and written since, or the replica
/// is another store's) and must not take the store's later changes on top of it.
public struct SharedChangeMark: Sendable, Equatable {
    public var seq: UInt64
    public var id: UUID
    public var revision: Int
    /// The todo's number, for the message that tells the two apart.
    public var number: Int

    public init(seq: UInt64, id: UUID, revision: Int, number: Int) {
        self.seq = seq
        self.id = id
        self.revision = revision
        self.number = number
    }
}
