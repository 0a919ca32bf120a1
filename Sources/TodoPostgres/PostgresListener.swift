import Dispatch
import Foundation
import Logging
import NIOCore
import PostgresNIO
import SharedStoreContract
import Synchronization

/// The listening connection of a `PostgresStore`: `LISTEN`s for the writers' `NOTIFY`, asks for
/// the store's last change every few seconds (a heartbeat: a connection that went quiet is found
/// out, and the daemon reads afresh, making up for a lost notification), and reconnects with
/// backoff when dropped.
///
/// A type of its own beside the store's writer: it has its own connection, thread (a queue)
/// and state, and shares only the store's reachability, which both report to.
final class PostgresListener: Sendable {
    /// How often the listener asks for the last change, and how long it waits for the answer.
    static let heartbeat: (every: TimeInterval, within: TimeAmount) = (5, .seconds(5))

    private let uri: StoreURI
    private let logger: Logger
    private let reachability: StoreReachability
    private let watching = Mutex(Watch())
    private let queue = DispatchQueue(label: "todod.postgres.listener")

    private struct Watch {
        var changed: (@Sendable (UInt64?) -> Void)?
        /// Opens a session as the store's writer does (TLS, password, settings, tables checked).
        var connect: (@Sendable () throws -> PostgresConnection)?
        var connection: PostgresConnection?
        var closed = false
        var failures = 0
    }

    init(uri: StoreURI, logger: Logger, reachability: StoreReachability) {
        self.uri = uri
        self.logger = logger
        self.reachability = reachability
    }

    /// Starts listening, each session opened by `connect`; `changed` is called on the listener's
    /// queue with a change announced (its number), or nil when the daemon should read afresh
    /// (connected again, a heartbeat).
    func watch(_ changed: @escaping @Sendable (UInt64?) -> Void, connect: @escaping @Sendable () throws -> PostgresConnection) {
        watching.withLock { ($0.changed, $0.connect) = (changed, connect) }
        queue.async { self.listen() }
    }

    /// Stops listening; returns the connection to close, if one is open.
    func close() -> PostgresConnection? {
        watching.withLock { watch in
            watch.closed = true
            return watch.connection
        }
    }

    /// On the listener queue: connects, listens, and tells the daemon to catch up (it may
    /// have missed announcements while away); when the connection drops, again after a backoff.
    private func listen() {
        let watch = watching.withLock { $0 }
        guard !watch.closed, let changed = watch.changed, let connect = watch.connect else { return }
        do {
            let connection = try connect()
            connection.addListener(channel: PostgresSchema.channel) { _, notification in changed(UInt64(notification.payload)) }
            do {
                try PostgresStore.attempt("listen in \(uri)") {
                    try PostgresStore.run("LISTEN \(unescaped: PostgresSchema.channel)", on: connection, logger: logger)
                }
            } catch {
                PostgresStore.discard(connection)
                throw error
            }
            let failures = watching.withLock { watch in
                defer { watch.failures = 0 }
                watch.connection = connection
                return watch.failures
            }
            if failures > 0 { logger.notice("listening to the shared store again", metadata: ["store": "\(uri)"]) }
            changed(nil)
            beat(connection)
            connection.closeFuture.whenComplete { _ in
                let closed = self.watching.withLock { $0.closed }
                guard !closed else { return }
                // The heartbeat or a failed write may have said why already.
                self.reachability.lost("the connection to PostgreSQL was closed", replacing: false)
                self.logger.warning("lost the connection to the shared store; reconnecting", metadata: ["store": "\(self.uri)"])
                self.queue.async { self.listen() }
            }
        } catch {
            let failures = watching.withLock { watch in
                watch.failures += 1
                return watch.failures
            }
            // 0.1 s, doubling, at most 5 s apart: back soon after a restart, without hammering a server that is down.
            let delay = min(5.0, 0.1 * pow(2, Double(failures - 1)))
            if failures == 1 || failures % 10 == 0 {
                logger.warning("cannot reach the shared store; retrying", metadata: ["store": "\(uri)", "error": "\(error)", "retry in": "\(delay) s"])
            }
            queue.asyncAfter(deadline: .now() + delay) { self.listen() }
        }
    }

    /// After a pause, on the listener queue: the store's last change, passed on to catch up
    /// with; no answer in time closes the connection, and reconnecting starts over.
    private func beat(_ connection: PostgresConnection) {
        queue.asyncAfter(deadline: .now() + PostgresListener.heartbeat.every) { [self] in
            let changed = watching.withLock { watch in watch.connection === connection && !watch.closed ? watch.changed : nil }
            guard let changed, !connection.isClosed else { return }
            do {
                let last = try Deadline.wait(
                    for: connection.query("SELECT value FROM counter WHERE name = 'change'", logger: logger),
                    within: PostgresListener.heartbeat.within
                ) {
                    // Said before the connection closes, which would only say it closed.
                    self.reachability.lost(PostgresStore.reason(Deadline.Expired(after: PostgresListener.heartbeat.within)), silent: true)
                    PostgresStore.discard(connection)
                }
                _ = try last.first?.decode(Int64.self)
                // It answers: a writer that found it silent, or lost its own connection, may try again.
                reachability.regained()
                // Nil, not the value: the daemon reads afresh, which also finds a store restored from a backup
                // (its last change at or below the replica's, that a value would have it pass over).
                changed(nil)
                beat(connection)
            } catch {
                reachability.lost(PostgresStore.reason(error))
                logger.warning("the shared store did not answer the heartbeat; reconnecting", metadata: ["store": "\(uri)", "error": "\(PostgresStore.reason(error))"])
                PostgresStore.discard(connection)
            }
        }
    }
}
