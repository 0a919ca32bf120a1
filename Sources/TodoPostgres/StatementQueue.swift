import Logging
import NIOCore
import PostgresNIO

/// The statements of one step of a transaction, handed to postgres-nio together and waited
/// for once.
///
/// postgres-nio sends a connection's statements one at a time, the next as soon as the one
/// before is answered, on its event loop. Waiting for each from the storage thread added two
/// thread wake-ups to every statement (the storage thread to the event loop and back), which
/// `pgbench`, one thread on a blocking socket, does not pay: a shared write of five statements
/// took todod four times what pgbench takes for the same transaction (todobench, scenario 7,
/// on a quiet machine: 3.99 ms against 1.00 ms). Queued, a write waits twice: for `BEGIN`
/// with the counters' lock, and for its rows with the `COMMIT` (docs/PERFORMANCE.md).
///
/// A statement that fails aborts the transaction: PostgreSQL refuses the ones after it and
/// answers a queued `COMMIT` with `ROLLBACK`. Callers read `outcomes()` in order, throwing the
/// first failure before any later answer is believed, and `PostgresWrite` checks the tag of its
/// `COMMIT`.
struct StatementQueue {
    private let connection: PostgresConnection
    private let logger: Logger
    private var sent: [EventLoopFuture<PostgresQueryResult>] = []

    init(on connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Queues `query` after those before it: postgres-nio sends it once they are answered.
    mutating func send(_ query: PostgresQuery) {
        sent.append(connection.query(query, logger: logger))
    }

    /// Each statement's outcome, in order, waited for once. Each statement has its own
    /// deadline from the moment the one before it was answered (when postgres-nio sends it),
    /// as when each was waited for in turn: a long page of rows that keeps being answered is
    /// not cut off, a server that stops answering is, within a statement's deadline, and the
    /// connection closed then fails the statements after it at once.
    func outcomes() -> [Result<PostgresQueryResult, any Error>] {
        guard let loop = sent.first?.eventLoop else { return [] }
        let connection = connection
        let abandon: @Sendable () -> Void = { PostgresStore.discard(connection) }
        // Chained on the loop: a future waited for from another thread, even one already
        // answered, costs a hop to the loop and back.
        var answered = loop.makeSucceededFuture([Result<PostgresQueryResult, any Error>]())
        for statement in sent {
            answered = answered.flatMap { before in
                Deadline.bounded(statement, abandon: abandon).map { .success($0) }.recover { .failure($0) }.map { before + [$0] }
            }
        }
        do {
            return try answered.wait()
        } catch {
            return sent.map { _ in .failure(error) }  // not reached: each outcome is recovered
        }
    }
}
