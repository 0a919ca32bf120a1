import Foundation
import NIOCore
import SharedStoreContract
import TodoEvents
import TodoModel

/// The committed todos in memory (a `TodoTable`), which answer every read at once. They were
/// the ModelServer's own state; they are a participant of their own so that the ones cut out
/// of it share them without holding the ModelServer (which holds them): the committer and the
/// replica's sync take commits into them, the journal reader asks them where the broadcast
/// changes end and which todo a history is of.
///
/// Every one of them reads and writes it on the core, in the bus's dispatch or in a commit's
/// way back (`returnToCore`): it is bound there, as a NIO handler's state is to its loop, with
/// no lock; a touch from another thread stops the daemon rather than race.
final class CommittedTodos: Sendable {
    private let table: NIOLoopBoundBox<TodoTable>
    /// What day it is, for the reads that ask about "today".
    let clock: @Sendable () -> Date

    /// Made off the core (at start-up), used on it from then on.
    init(_ table: TodoTable, core: any EventLoop, clock: @escaping @Sendable () -> Date) {
        self.table = .makeBoxSendingValue(table, eventLoop: core)
        self.clock = clock
    }

    /// The answer to `query`, as of the last commit taken in.
    func read(_ query: TodoQuery) -> TodoQueryResult {
        table.withValue { $0.answer(query, today: LocalDate(clock())) }
    }

    /// Kept up to date as changes commit: reading them costs nothing.
    var counts: TodoCounts { table.withValue { $0.counts } }

    /// The sequence number of the last committed change taken in.
    var lastChange: UInt64 { counts.asOf }

    /// The open todos whose wait is over by `now` on `today`.
    func waitingOver(on today: LocalDate, at now: TimeOfDay) -> [Todo] {
        table.withValue { $0.waitingOver(on: today, at: now) }
    }

    /// The earliest timed wait still to end after `now` on `today`.
    func nextWaitEnd(after today: LocalDate, at now: TimeOfDay) -> (day: LocalDate, time: TimeOfDay)? {
        table.withValue { $0.nextWaitEnd(after: today, at: now) }
    }

    /// The open todos whose until day is before `today`.
    func expired(on today: LocalDate) -> [Todo] {
        table.withValue { $0.expired(on: today) }
    }

    /// On the core: a batch this daemon committed (its purges and its changes).
    func take(_ results: [TodoWriteResult]) {
        table.withValue { table in
            for case .purged(_, let todos, let change) in results {
                table.forget(numbers: todos.map(\.number), purgedBy: change)
            }
            for case .written(_, let changes) in results { _ = table.incorporate(changes) }
        }
    }

    /// On the core: the whole table again, after this replica's offline changes were made
    /// again on others' (`PendingChanges`): todos renumbered or not made again leave no trace.
    func replace(with replacement: TodoTable) {
        table.withValue { $0 = replacement }
    }

    /// On the core: changes another daemon committed, through the shared store.
    func take(_ changes: SharedChanges) {
        table.withValue { table in
            for purge in changes.purges { table.forget(numbers: purge.numbers, purgedBy: purge.seq) }
            _ = table.incorporate(changes.entries)
            table.passed(changes.change)
        }
    }
}
