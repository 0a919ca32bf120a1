import NIOCore
import Synchronization

/// Waits for postgres-nio's futures with a deadline. A server that stops answering (a
/// network gone quiet, a stopped or hung PostgreSQL) leaves a query or a connection
/// attempt waiting for ever, and the storage thread with it: past the deadline the wait
/// fails, and `abandon` (closing the connection) makes sure it is not used again.
enum Deadline {
    /// The longest a statement or a connection attempt may take. Longer than PostgreSQL's
    /// own `lock_timeout` (see `PostgresStore.sessionSettings`), so that a writer waiting for
    /// another daemon's lock hears PostgreSQL's reason first.
    static let statement: TimeAmount = .seconds(15)

    struct Expired: Error, CustomStringConvertible {
        let after: TimeAmount
        var description: String { "PostgreSQL did not answer within \(after.nanoseconds / 1_000_000_000) s" }
    }

    /// The future's value, or `Expired` once `limit` has passed and `abandon` has returned.
    static func wait<T: Sendable>(
        for future: EventLoopFuture<T>, within limit: TimeAmount = Deadline.statement, abandon: @escaping @Sendable () -> Void
    ) throws -> T {
        try bounded(future, within: limit, abandon: abandon).wait()
    }

    /// The future, failed with `Expired` once `limit` has passed and `abandon` has returned.
    ///
    /// `abandon` runs first: failing the promise wakes the waiting thread, which goes on at
    /// once with its next statement (asking whether a cut-off COMMIT took effect). Woken
    /// before the connection was closed, it found it still open and wrote to it just as it
    /// closed, and postgres-nio drops a statement written to a closed channel without
    /// answering it, so that question waited out its own 15 s (a fresh-clone CI run, under load).
    /// Runs on the future's loop, as does postgres-nio's connection: `abandon` closing it there
    /// fails the statement at once, and the waiter is told `Expired` all the same.
    static func bounded<T: Sendable>(
        _ future: EventLoopFuture<T>, within limit: TimeAmount = Deadline.statement, abandon: @escaping @Sendable () -> Void
    ) -> EventLoopFuture<T> {
        let promise = future.eventLoop.makePromise(of: T.self)
        // Closing the connection fails its statements at once: that failure is not the one told.
        let expired = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: future.eventLoop)
        let late = future.eventLoop.scheduleTask(in: limit) {
            expired.value = true
            abandon()
            promise.fail(Expired(after: limit))
        }
        future.whenComplete { result in
            late.cancel()
            if !expired.value { promise.completeWith(result) }
        }
        return promise.futureResult
    }
}
