import Foundation
import TodoModel

/// The shared truth several daemons write through (`todod --store`): todos, journal and
/// counters. Each daemon's SQLite database is then its replica: every write still runs the
/// SQLite commit (numbers, revisions, planning, undo, the journal), inside a shared
/// transaction that serialises the writers of every daemon and decides what is committed.
public protocol SharedStore: Sendable {
    /// The changes committed after `seq`, oldest first, with the counters as of the last.
    /// Blocks: call it from the storage queue.
    func changes(after seq: UInt64) throws -> SharedChanges

    /// The change numbered `seq`, or nil when the store holds none.
    func change(_ seq: UInt64) throws -> JournalEntry?

    /// Runs `body` in one shared transaction holding the write lock of every daemon.
    /// `body` commits it through `SharedWrite.commit`; otherwise it is rolled back.
    func write<T>(_ body: (any SharedWrite) throws -> T) throws -> T

    /// Calls `changed` (on any thread) whenever another daemon may have committed: after
    /// each announcement, with the last change it announces, and after each reconnect, with nil.
    func watch(_ changed: @escaping @Sendable (_ upTo: UInt64?) -> Void)

    /// Stops watching and closes the connections.
    func close()
}

/// The shared transaction of one write, holding the write lock.
public protocol SharedWrite {
    /// The changes committed after `seq` (by other daemons, before this lock was taken).
    func changes(after seq: UInt64) throws -> SharedChanges

    /// Appends the entries, stores each entry's todo and the counters, announces them and
    /// commits. Returns only once committed; throws when not.
    func commit(_ entries: [JournalEntry], number: Int, change: UInt64) throws
}

/// What a shared store throws: the message says what happened, that nothing was written,
/// and what to do. A write failing so is answered with it as it is.
public struct SharedStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Changes read from the shared store, and its counters as of the last of them.
public struct SharedChanges: Sendable, Equatable {
    public var entries: [JournalEntry]
    /// The highest todo number ever given.
    public var number: Int
    /// The last change's sequence number.
    public var change: UInt64

    public init(entries: [JournalEntry], number: Int, change: UInt64) {
        self.entries = entries
        self.number = number
        self.change = change
    }
}
