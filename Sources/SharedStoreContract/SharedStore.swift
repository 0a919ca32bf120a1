import Foundation
import TodoEvents
import TodoModel

/// The shared truth several daemons write through (`todod --store`): todos, journal and
/// counters. Each daemon's SQLite database is then its replica: every write still runs the
/// SQLite commit (numbers, revisions, planning, undo, the journal), inside a shared
/// transaction that serialises the writers of every daemon and decides what is committed.
///
/// It is a target of its own (SharedStoreContract) with its values and errors, so that the store
/// that keeps it (TodoPostgres) and the servers that write through it (TodoServers) import
/// this contract, not each other.
public protocol SharedStore: Sendable {
    /// The changes committed after `seq`, oldest first, with the counters as of the last:
    /// all of them, or a page (`more`); and the store's change `seq` itself (`base`).
    /// Blocks: call it from the storage queue.
    func changes(after seq: UInt64) throws -> SharedChanges

    /// Runs `body` in one shared transaction holding the write lock of every daemon, for a
    /// replica whose last change is `seq` (the lock's read brings the store's change `seq`,
    /// for `SharedWrite.changes(after:)`'s `base`). `body` commits it through
    /// `SharedWrite.commit`; otherwise it is rolled back.
    func write<T>(after seq: UInt64, _ body: (any SharedWrite) throws -> T) throws -> T

    /// Calls `changed` (on any thread) whenever another daemon may have committed: after
    /// each announcement, with the last change it announces, and after each reconnect and
    /// each heartbeat with nil: read the store afresh (it may also have gone back).
    func watch(_ changed: @escaping @Sendable (_ upTo: UInt64?) -> Void)

    /// Whether the store is reachable now, and since when.
    var status: SharedStoreStatus { get }

    /// Calls `changed` (on any thread) each time the store becomes unreachable or reachable again.
    func watchStatus(_ changed: @escaping @Sendable (SharedStoreStatus) -> Void)

    /// This daemon may not use the store any more (`problem` says why: it lost changes the
    /// replica holds): its status says so, as unreachable, from now until the daemon stops.
    func refuse(because problem: String)

    /// Stops watching and closes the connections.
    func close()

    /// Whether `mark`, a store's name a replica was marked with (`status.store` then), names
    /// this store, however it was spelled.
    func isNamed(_ mark: String) -> Bool
}

extension SharedStore {
    public func isNamed(_ mark: String) -> Bool { mark == status.store }
}

/// The shared transaction of one write, holding the write lock.
public protocol SharedWrite {
    /// The changes committed after `seq` (by other daemons, before this lock was taken): all
    /// of them, or a page (`more`); with `base` when `seq` is the one the write was begun after.
    func changes(after seq: UInt64) throws -> SharedChanges

    /// Appends the entries, carries out the purges, stores each entry's todo and the
    /// counters, announces them and commits (a push with no entry still moves the counters:
    /// a rebase that made nothing again leaves the numbers its changes had unused, so that
    /// no client sees one given twice). Returns only once committed; throws when not:
    /// a `SharedStoreError` of kind `inDoubt` when the store went away before saying whether it committed.
    func commit(_ changes: SharedChanges) throws

    /// How far the replica's push `id` got: the last of its pending changes the store holds
    /// (0 when none). A push the store committed but the replica did not hear of (a crash,
    /// a lost answer) is so resumed, not repeated.
    func pushed(_ id: UUID) throws -> UInt64
}

/// Changes a replica made while the store was away, shared now (`SharedChanges.push`): the
/// store remembers that push `id` brought the replica's changes up to `through` (its own
/// numbering), in the same transaction.
public struct SharedPush: Sendable, Equatable {
    public var id: UUID
    public var through: UInt64

    public init(id: UUID, through: UInt64) {
        self.id = id
        self.through = through
    }
}

/// What a shared store throws: the message says what happened, whether anything was
/// written, and what to do. A write failing so is answered with it as it is.
public struct SharedStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The store answered, and refused (or failed) the request.
        case failed
        /// The store could not be reached (refused, cut off, or silent past the deadline).
        case unreachable
        /// The store went away while committing: the write may or may not be there, and the
        /// replica learns which from the store once it is back.
        case inDoubt
    }

    public let message: String
    public let kind: Kind
    /// Why the store could not be reached, in PostgreSQL's or the network's words, without
    /// the advice around it: what a write kept on this machine meanwhile says.
    public let cause: String?

    public init(_ message: String, kind: Kind = .failed, cause: String? = nil) {
        self.message = message
        self.kind = kind
        self.cause = cause
    }

    public var description: String { message }
}

/// A purge committed through the store: the todos of these numbers and their journal
/// entries are gone for good. It takes a change number and has no journal entry.
public struct SharedPurge: Sendable, Equatable {
    public var seq: UInt64
    public var numbers: [Int]

    public init(seq: UInt64, numbers: [Int]) {
        self.seq = seq
        self.numbers = numbers
    }
}

/// Changes read from (or written to) the shared store, and its counters as of the last of them.
public struct SharedChanges: Sendable, Equatable {
    public var entries: [JournalEntry]
    public var purges: [SharedPurge]
    /// The highest todo number ever given (0 for a page with more after it: its entries tell).
    public var number: Int
    /// The last change's sequence number: where these changes bring a replica.
    public var change: UInt64
    /// A page: the store holds more changes after `change` (read them after it).
    public var more: Bool
    /// The store's change these follow, when it is a journal entry (not a purge) and was read
    /// with them: the replica's own change of that number must be the same.
    public var base: SharedChangeMark?
    /// Set when these are a replica's changes made offline, shared now: their seqs may leave
    /// a gap after the store's last change (they follow the numbers the replica's clients saw).
    public var push: SharedPush?

    public init(entries: [JournalEntry], purges: [SharedPurge] = [], number: Int, change: UInt64, more: Bool = false,
                base: SharedChangeMark? = nil, push: SharedPush? = nil) {
        self.entries = entries
        self.purges = purges
        self.number = number
        self.change = change
        self.more = more
        self.base = base
        self.push = push
    }

    /// The first change's sequence number, a purge's or an entry's; nil when there is none.
    public var firstSeq: UInt64? {
        [entries.first?.seq, purges.first?.seq].compactMap { $0 }.min()
    }
}
