import Dispatch
import Foundation
import Logging
import NIOCore
import SharedStoreContract
import Synchronization
import TodoEvents
import TodoModel

/// The replica's sync with the shared store (`todod --store`): the one participant that knows
/// other daemons exist. It catches the replica up before the first read, commits each batch
/// inside the shared transaction (the SQLite commit runs there, after the replica caught up, and
/// commits only once the shared store did), takes the changes other daemons commit (the store's
/// announcements come here) and broadcasts them on the bus as a replay's are. A replica found
/// ahead of its store (restored from an older backup), or a database used alone, sends its
/// changes the store lacks as pending ones (`sendBack`); one that cannot refuses every write for good.
///
/// It was an extension of the ModelServer sharing all its state; now the ModelServer holds
/// one of these with `--store`, none without, and the GroupCommitter hands it each batch. Its
/// work runs on the storage queue, so a catch-up never overlaps a commit; others' changes go
/// into the committed todos (`CommittedTodos`) on the core.
public final class ReplicaSync: Sendable {
    struct State {
        /// The store was found to hold this database's history (at start, or at the first
        /// connection when it was unreachable then).
        var replicaChecked: Bool
        /// The database was found no replica of the shared store after start: every write is refused
        /// (`refused`), the reason told once in the log and the status.
        var refusedForGood = false
    }

    public let shared: any SharedStore
    /// The committed todos: others' changes go in there, on the core, before they are broadcast.
    let todos: CommittedTodos
    let access: StoreAccess
    /// Touched only on the storage queue (the commit, the catch-up), never on the core; a lock,
    /// uncontended, because a DispatchQueue has no `NIOLoopBound` to confine it without one.
    private let state: Mutex<State>
    /// Writes kept on this machine because the shared store could not be reached: counted, not logged each.
    public let offlineWrites = OfflineWrites()
    /// The changes committed here while the store was away, shared once it is back.
    let pending: PendingChanges
    /// How many they are, for the status (read on the core, changed on the storage queue).
    private let pendingCount = Atomic<Int>(0)
    /// A status with the count of kept writes is due on the core (`tellCountSoon`).
    private let countDue: NIOLoopBoundBox<Bool>
    /// How many conflicts of sharing them are open, for the status (as `pendingCount`; the
    /// `ConflictKeeper` lowers it as they are taken or left).
    private let conflictCount = Atomic<Int>(0)
    /// This database was never marked the store's replica: new, started while the store was
    /// away, it holds none of the store's todos yet (for the status: `unfilled`).
    private let unfilled = Atomic<Bool>(false)
    /// Called on the core once others' changes (or this machine's kept ones, shared) were written to the
    /// replica outside a batch: the committer's idle checkpoint (`whenWritten`).
    private let written: NIOLoopBoundBox<(@Sendable () -> Void)?>

    /// Takes the changes other daemons announce from now on. The store was caught up by
    /// `ReplicaStart.catchUp`, which said whether the store was reached (`replicaChecked`);
    /// `todos` were loaded from it since.
    init(_ access: StoreAccess, shared: any SharedStore, replicaChecked: Bool, todos: CommittedTodos) {
        self.access = access
        self.shared = shared
        self.todos = todos
        pending = PendingChanges(store: access.store)
        state = Mutex(State(replicaChecked: replicaChecked))
        countDue = .makeBoxSendingValue(false, eventLoop: access.core)
        written = .makeBoxSendingValue(nil, eventLoop: access.core)
        pendingCount.store((try? pending.count()) ?? 0, ordering: .relaxed)
        conflictCount.store((try? access.store.conflicts(all: false).count) ?? 0, ordering: .relaxed)
        unfilled.store((try? access.store.replicaOf()) == nil, ordering: .relaxed)
        shared.watch { [weak self] upTo in self?.catchUpLater(upTo: upTo) }
    }

    /// `action` runs on the core each time the sync wrote to the replica outside a batch of the
    /// committer's: a replica that only takes others' changes commits none, and its -wal grew
    /// without the idle checkpoint that folds it into the database file (outside probe 11, F13).
    func whenWritten(_ action: @escaping @Sendable () -> Void) {
        access.core.execute { [written] in written.value = action }
    }

    /// On the storage queue, once the last write is done and before the store closes: the
    /// store did not come back before the daemon stopped, so the outage's count is said now.
    func tellRefusedAtExit() {
        let kept = offlineWrites.take()
        if kept > 0 {
            access.logger.notice("\(kept) writes were kept on this machine while the shared store was unreachable; they are shared once it is back")
        }
    }

    /// On the storage queue, before anything else reaches the store: when the replica was
    /// not checked at start (the store was unreachable), checks it and catches it up now.
    /// Throws while that cannot be done, and for good once it is found to be no replica.
    private func checkReplica() throws {
        let (checked, refused) = state.withLock { ($0.replicaChecked, $0.refusedForGood) }
        if refused { throw SharedStoreError(Self.refused) }
        guard !checked else { return }
        // The database was found the store's replica at start (or empty): one ahead of it sends its changes back.
        let replica = try access.store.counters().change
        let changes = try shared.changes(after: replica)
        try refuseUnlessReplica(changes, replica: replica)
        try ReplicaCheck.markReplica(access.store, of: shared)
        unfilled.store(false, ordering: .relaxed)
        state.withLock { $0.replicaChecked = true }
        try catchUp(changes) { try shared.changes(after: $0) }
    }

    /// Refuses every write from now on, saying `reason` in the log, to every client (the
    /// store's status) and to each writer; returns the error to throw.
    private func refuseWrites(_ reason: String) -> SharedStoreError {
        let first = state.withLock { state in
            defer { state.refusedForGood = true }
            return !state.refusedForGood
        }
        if first {
            access.logger.critical("this database is no replica of the shared store as it is now: writes are refused; stop todod and see the message",
                            metadata: ["error": "\(reason)"])
            shared.refuse(because: reason)
        }
        return SharedStoreError(Self.refused)
    }

    /// What each write is answered once they are refused for good: the story and the rescue
    /// are told once, in the status and the log, not in a line of 900 characters at every
    /// write (outside probe 9, F2).
    static let refused = """
        this database is no replica of the shared store as it is now, so writes are refused: todoctl status (or todod's log) \
        says why, and how to keep the changes only this machine holds
        """

    /// The store does not hold the replica's last changes: thrown out of the shared transaction
    /// that found it, so that they are sent back (`sendBack`) before it is begun again.
    private struct AheadOfStore: Error {
        var storeLast: UInt64
        var replica: UInt64
        var reason: String
    }

    /// Throws `AheadOfStore` when the store is behind the replica, or holds another change
    /// than the replica's last (restored from an older backup, then written through another daemon).
    private func refuseUnlessReplica(_ changes: SharedChanges, replica: UInt64) throws {
        if let reason = try ReplicaCheck.notReplica(access.store, of: changes, replica: replica) {
            throw AheadOfStore(storeLast: changes.change, replica: replica, reason: reason)
        }
    }

    /// On the storage queue, outside any shared transaction: the store lost changes this
    /// replica holds (PostgreSQL restored from an older backup, a failover without the last
    /// commits). They are the replica's: the ones after the last change both hold alike are
    /// marked pending, as if made while the store was away, and shared now, made again on
    /// whatever the store holds since (field by field, conflicts kept). Writes were refused
    /// for good, with a five-step rescue by hand. Found ahead again, it refuses for good.
    private func sendBack(_ ahead: AheadOfStore) throws {
        guard let count = try LostChanges.mark(access.store, of: shared, replica: ahead.replica, storeLast: ahead.storeLast, logger: access.logger) else {
            throw refuseWrites(ahead.reason + LostChanges.purgedSince)
        }
        pendingCount.store(count, ordering: .relaxed)
        do {
            try sharePending()
        } catch let again as AheadOfStore {
            throw refuseWrites(again.reason + LostChanges.notLevel)
        }
    }

    /// On the storage queue: the shared transaction, its lock held, brings the replica up
    /// to date, then runs the SQLite commit, which hands its changes to the shared store
    /// before it commits itself.
    ///
    /// When the shared store committed but the replica then could not (a full disk), the
    /// writes are answered so, and the replica takes them from the store at the next catch-up.
    /// Writes refused because the store is unreachable are counted here; the error is thrown on.
    func commit(_ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], steps: [WriteStep]) throws -> [TodoWriteResult] {
        do {
            do {
                return try commitThrough(mutations, at: now, by: authors, steps: steps)
            } catch let ahead as AheadOfStore {
                try sendBack(ahead)
                return try commitThrough(mutations, at: now, by: authors, steps: steps)
            }
        } catch let ahead as AheadOfStore {
            throw refuseWrites(ahead.reason + LostChanges.notLevel)
        } catch let error as SharedStoreError where error.kind == .unreachable {
            return try commitOffline(mutations, at: now, by: authors, steps: steps, because: error)
        }
    }

    /// On the storage queue, the store unreachable (nothing was written to it): commits the
    /// mutations to this replica alone, pending until the store is back, and marks their
    /// changes so in the answer. A purge waits for the store: it removes todos for good on
    /// every machine, and the others may still be editing them.
    private func commitOffline(_ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], steps: [WriteStep],
                               because error: SharedStoreError) throws -> [TodoWriteResult] {
        if mutations.contains(where: { if case .purge = $0 { true } else { false } }) {
            throw SharedStoreError("""
                purging needs the shared store, which cannot be reached (\(error)): nothing was purged (a purge removes todos \
                for good on every machine); purge again once it is back
                """, kind: .unreachable)
        }
        if state.withLock({ $0.refusedForGood }) { throw error }
        // The write's own cause first: one that waited out its statement's 15 s while the heartbeat found the store
        // silent was told the heartbeat's "within 5 s" (outside probe 11, F13); a write not tried says the status's.
        let reason = error.cause ?? shared.status.problem ?? error.message
        let results = try pending.commit(mutations, at: now, by: authors, steps: steps).map { $0.unshared(because: reason) }
        let written = results.reduce(0) { count, result in if case .written(_, let changes) = result { count + changes.count } else { count } }
        if written > 0 {
            pendingCount.add(written, ordering: .relaxed)
            tellCountSoon()
        }
        // The outage was logged as it began, and its count is logged as it ends (SharedStoreMonitor).
        if let count = offlineWrites.counted(written) {
            access.logger.warning("the shared store is still unreachable: \(count) writes kept on this machine since it went away, shared once it is back",
                                  metadata: ["error": "\(error)"])
        }
        return results
    }

    /// On the storage queue: shares the changes made here while the store was away, if any,
    /// before anything else is read from it or written to it; then the table and every
    /// client take what changed (the whole table again when they were made again on others').
    private func sharePending() throws {
        guard let outcome = try PendingSharing.share(pending, through: shared, now: access.clock(), logger: access.logger, refuse: refuseUnlessReplica) else { return }
        pendingCount.store(0, ordering: .relaxed)
        conflictCount.add(outcome.conflicts.count, ordering: .relaxed)
        PendingSharing.tell(outcome, logger: access.logger)
        let renumbered = outcome.renumbered.map { SharedStoreStatus.Renumbering(was: $0.was, now: $0.now) }
        guard outcome.rebased else { return tellStatus(renumbered: renumbered) }
        let loaded = try access.store.loadAll()
        // In the order they were numbered: pages of a long share take others' changes between them.
        let changes = (outcome.taken + outcome.shared).sorted { $0.seq < $1.seq }
        let status = statusToTell(renumbered: renumbered, rewoundTo: outcome.base)
        access.returnToCore { [todos, written, bus = access.bus] in
            todos.replace(with: TodoTable(loaded.todos, lastChange: loaded.lastChange))
            // The status after the table is replaced and before the changes: a client that saw the pending
            // ones' numbers reads its list again, or takes the store's changes from the base on (the losing
            // machine's views kept the values not taken; outside probe P7-6).
            bus.publish(.responseSharedStore(status))
            bus.publish(.responseTodo(.written(.replay(changes.map(ReplayedChange.init), sources: []), changes)))
            written.value?()
        }
    }

    /// The store's status with the count of changes waiting here to be shared.
    public var status: SharedStoreStatus {
        var status = shared.status
        let count = pendingCount.load(ordering: .relaxed)
        status.pending = count > 0 ? count : nil
        let conflicts = conflictCount.load(ordering: .relaxed)
        status.conflicts = conflicts > 0 ? conflicts : nil
        status.unfilled = unfilled.load(ordering: .relaxed) ? true : nil
        return status
    }

    /// A conflict was taken or left: one fewer open, which every client is told.
    func conflictSettled() {
        conflictCount.subtract(1, ordering: .relaxed)
        tellStatus()
    }

    /// Tells every client how many writes are kept here, once in `countInterval`: a status
    /// frame at each kept write cost a seventh of its time (todobench scenario 7: kept writes
    /// at 0.78× SQLite's with one each, 0.91× without). The count of a burst's last write is
    /// told when its interval is up; `todoctl status` reads the count at once.
    private func tellCountSoon() {
        access.returnToCore { [self] in
            guard !countDue.value else { return }
            countDue.value = true
            access.core.scheduleTask(in: Self.countInterval) { [self] in
                countDue.value = false
                access.bus.publish(.responseSharedStore(statusToTell(renumbered: [])))
            }
        }
    }

    static let countInterval = TimeAmount.milliseconds(100)

    /// Tells every client how many changes wait here (watch's line counts them), which todos
    /// the sharing just renumbered, and where it made the changes again.
    private func tellStatus(renumbered: [SharedStoreStatus.Renumbering] = []) {
        let status = statusToTell(renumbered: renumbered)
        access.returnToCore { [bus = access.bus] in bus.publish(.responseSharedStore(status)) }
    }

    private func statusToTell(renumbered: [SharedStoreStatus.Renumbering], rewoundTo: UInt64? = nil) -> SharedStoreStatus {
        var status = status
        status.renumbered = renumbered.isEmpty ? nil : renumbered
        status.rewoundTo = rewoundTo
        return status
    }

    private func commitThrough(_ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], steps: [WriteStep]) throws -> [TodoWriteResult] {
        var sharedCommitted = false
        try sharePending()
        try checkReplica()
        do {
            let replica = try access.store.counters().change
            return try shared.write(after: replica) { write in
                let changes = try write.changes(after: replica)
                try refuseUnlessReplica(changes, replica: replica)
                try catchUp(changes) { try write.changes(after: $0) }
                return try access.store.commit(mutations, at: now, by: authors, steps: steps) { changes in
                    try write.commit(changes)
                    sharedCommitted = true
                }
            }
        } catch where sharedCommitted {
            catchUpLater(upTo: nil)
            throw SharedStoreError("""
                the shared store committed this change, but this machine's database could not (\(ModelServer.describe(error))): \
                every other daemon has it, and this one takes it from the shared store once its database can be written again
                """)
        }
    }

    /// On the storage queue: applies changes committed elsewhere to the replica, then to
    /// the table and every client, on the core, in order (before any later commit's answer);
    /// page by page, reading each next one with `next` (after the last change applied).
    private func catchUp(_ changes: SharedChanges, next: (UInt64) throws -> SharedChanges) throws {
        var page = changes
        while true {
            // Also with no change to apply: the counter may have passed numbers no change holds (a rebase's).
            let applied = try access.store.apply(page)
            access.returnToCore { self.receive(applied) }
            guard page.more else { return }
            page = try next(page.change)
        }
    }

    /// Another daemon committed (changes up to `upTo`, when known): catch up on the storage
    /// queue, after the writes before it. This daemon's own announcements cost a local read.
    private func catchUpLater(upTo: UInt64?) {
        access.storage.async { [self] in
            // Refused for good: the store's changes are not taken, and that was said once (not at every heartbeat).
            guard !state.withLock({ $0.refusedForGood }) else { return }
            do {
                do {
                    try catchUpNow(upTo: upTo)
                } catch let ahead as AheadOfStore {
                    try sendBack(ahead)
                    try catchUpNow(upTo: nil)
                }
            } catch let ahead as AheadOfStore {
                _ = refuseWrites(ahead.reason + LostChanges.notLevel)
            } catch {
                access.logger.warning("could not read the changes of the shared store; will catch up at its next announcement or write",
                               metadata: ["error": "\(access.store.describe(error))"])
            }
        }
    }

    /// On the storage queue: shares what waits here, then takes the store's changes after the
    /// replica's last (when an announcement's `upTo` does not say it holds them already).
    private func catchUpNow(upTo: UInt64?) throws {
        try access.gate.refuseWhenClosed()
        try sharePending()
        try checkReplica()
        let replica = try access.store.counters().change
        // An announcement may be older than this replica's own last commit: only a fresh read tells the store behind.
        if let upTo, upTo <= replica { return }
        let changes = try shared.changes(after: replica)
        try refuseUnlessReplica(changes, replica: replica)
        try catchUp(changes) { try shared.changes(after: $0) }
    }

    /// On the core: others' changes, into the table, then to every client as a replay's
    /// are. A purge is broadcast as no change: its gap tells Views to read their lists again.
    private func receive(_ changes: SharedChanges) {
        todos.take(changes)
        guard !changes.entries.isEmpty || !changes.purges.isEmpty else { return }
        written.value?()
        guard !changes.entries.isEmpty else { return }
        access.bus.publish(.responseTodo(.written(.replay(changes.entries.map(ReplayedChange.init), sources: []), changes.entries)))
    }
}
