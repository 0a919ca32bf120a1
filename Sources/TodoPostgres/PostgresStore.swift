import Dispatch
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization
import TodoModel
import TodoServers

/// PostgreSQL as the shared store of several daemons (`todod --store postgresql://…`).
///
/// Two connections: the writer, used only from the ModelServer's storage queue (it blocks
/// on postgres-nio's futures there, never on an event loop), and the listener, which
/// `LISTEN`s for the writers' `NOTIFY` and reconnects with backoff when it is dropped.
public final class PostgresStore: SharedStore, Sendable {
    /// Where the store is (no password in it).
    public let uri: StoreURI
    let logger: Logger
    private let password: String?
    private let writer: Mutex<PostgresConnection?>
    private let watching = Mutex(Watch())
    private let listenerQueue = DispatchQueue(label: "todod.postgres.listener")

    private struct Watch {
        var changed: (@Sendable (UInt64?) -> Void)?
        var connection: PostgresConnection?
        var closed = false
        var failures = 0
    }

    /// Connects and creates the tables on first use. Blocks: call it off any event loop.
    /// - Throws: `SharedStoreError` saying what happened and what to do.
    public init(uri: StoreURI, password: String? = nil, logger: Logger) throws {
        self.uri = uri
        self.logger = logger
        self.password = password ?? PasswordFile.password(for: uri)
        writer = Mutex(nil)
        let connection = try connect(advice: PostgresStore.atStart)
        try PostgresStore.attempt("create todod's tables in \(uri)", advice: PostgresStore.atStart) {
            try PostgresSchema.create(on: connection, logger: logger)
        }
        writer.withLock { $0 = connection }
    }

    // MARK: SharedStore

    public func changes(after seq: UInt64) throws -> SharedChanges {
        try withWriter("read the changes of \(uri)") { connection in
            let counters = try PostgresSchema.counters(on: connection, lock: false, logger: logger)
            let entries = try PostgresSchema.entries(after: seq, upTo: counters.change, on: connection, logger: logger)
            return SharedChanges(entries: entries, number: counters.number, change: counters.change)
        }
    }

    public func change(_ seq: UInt64) throws -> JournalEntry? {
        guard seq > 0 else { return nil }
        return try withWriter("read change \(seq) of \(uri)") { connection in
            try PostgresSchema.entries(after: seq - 1, upTo: seq, on: connection, logger: logger).first
        }
    }

    public func write<T>(_ body: (any SharedWrite) throws -> T) throws -> T {
        let (connection, locked) = try withWriter("start a transaction in \(uri)") { connection in
            try PostgresStore.run("BEGIN", on: connection, logger: logger)
            return (connection, try PostgresSchema.counters(on: connection, lock: true, logger: logger))
        }
        let write = PostgresWrite(connection: connection, logger: logger, uri: uri)
        write.locked = locked
        do {
            let result = try body(write)
            if !write.committed { try PostgresStore.run("ROLLBACK", on: connection, logger: logger) }
            return result
        } catch {
            if !write.committed { try? PostgresStore.run("ROLLBACK", on: connection, logger: logger) }
            throw error
        }
    }

    public func watch(_ changed: @escaping @Sendable (UInt64?) -> Void) {
        watching.withLock { $0.changed = changed }
        listenerQueue.async { self.listen() }
    }

    public func close() {
        let connections = watching.withLock { watch -> [PostgresConnection] in
            watch.closed = true
            return [watch.connection].compactMap { $0 }
        } + [writer.withLock { $0 }].compactMap { $0 }
        for connection in connections { try? connection.close().wait() }
    }

    // MARK: Connections

    static let atStart = "check that PostgreSQL runs there, that the user may connect (pg_hba.conf, the password in ~/.pgpass or $PGPASSWORD) and that the database exists (createdb)"

    /// Connects as the URI's sslmode says (StoreTLS: libpq's rules; a Unix socket never uses TLS).
    private func connect(advice: String = PostgresStore.nothingWritten) throws -> PostgresConnection {
        let tls = try StoreTLS(uri: uri)
        return try PostgresStore.attempt("connect to \(uri)", advice: advice) {
            try tls.connect { setting in
                let configuration: PostgresConnection.Configuration
                if let socket = uri.socketPath {
                    configuration = .init(unixSocketPath: socket, username: uri.user, password: password, database: uri.database)
                } else {
                    configuration = .init(host: uri.host ?? "localhost", port: uri.port, username: uri.user, password: password, database: uri.database, tls: setting)
                }
                return try PostgresConnection.connect(
                    on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: 1, logger: logger
                ).wait()
            }
        }
    }

    /// Runs `body` on the writer; when that fails because the connection was dropped (a
    /// PostgreSQL restarted since the last write), once more on a new connection.
    private func withWriter<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try writerConnection()
        do {
            return try body(connection)
        } catch {
            guard connection.isClosed else { return try PostgresStore.attempt(what) { throw error } }
            return try PostgresStore.attempt(what) { try body(try writerConnection()) }
        }
    }

    /// The writer, connected again when it was dropped (one attempt per write: a write
    /// waits for no backoff, it fails at once while PostgreSQL is away).
    func writerConnection() throws -> PostgresConnection {
        if let connection = writer.withLock({ $0 }), !connection.isClosed { return connection }
        let connection = try connect()
        writer.withLock { $0 = connection }
        logger.notice("connected again to the shared store", metadata: ["store": "\(uri)"])
        return connection
    }

    /// On the listener queue: connects, listens, and tells the daemon to catch up (it may
    /// have missed announcements while away); when the connection drops, again after a backoff.
    private func listen() {
        guard let changed = watching.withLock({ $0.closed ? nil : $0.changed }) else { return }
        do {
            let connection = try connect(advice: "todod keeps trying")
            connection.addListener(channel: PostgresSchema.channel) { _, notification in changed(UInt64(notification.payload)) }
            try PostgresStore.attempt("listen in \(uri)") {
                try PostgresStore.run("LISTEN \(unescaped: PostgresSchema.channel)", on: connection, logger: logger)
            }
            let failures = watching.withLock { watch in
                defer { watch.failures = 0 }
                watch.connection = connection
                return watch.failures
            }
            if failures > 0 { logger.notice("listening to the shared store again", metadata: ["store": "\(uri)"]) }
            changed(nil)
            connection.closeFuture.whenComplete { _ in
                let closed = self.watching.withLock { $0.closed }
                guard !closed else { return }
                self.logger.warning("lost the connection to the shared store; reconnecting", metadata: ["store": "\(self.uri)"])
                self.listenerQueue.async { self.listen() }
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
            listenerQueue.asyncAfter(deadline: .now() + delay) { self.listen() }
        }
    }

    // MARK: Helpers

    /// Runs one statement, its rows ignored.
    static func run(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) throws {
        _ = try connection.query(query, logger: logger).wait()
    }

    /// Runs `body`, turning postgres-nio's errors (whose descriptions hide everything) into
    /// a `SharedStoreError` saying what failed, why, and that nothing was written.
    static func attempt<T>(_ what: String, advice: String = PostgresStore.nothingWritten, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SharedStoreError {
            throw error
        } catch {
            throw SharedStoreError("could not \(what): \(reason(error)); \(advice)")
        }
    }

    static let nothingWritten = "nothing was written; todod connects again at the next write: try again once PostgreSQL is back"

    /// What went wrong, from the server's message when there is one.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + code
        }
        if error.code == .connectionError, let underlying = error.underlying { return "PostgreSQL cannot be reached (\(underlying))" }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }
}

/// The transaction of one write, its counters locked.
final class PostgresWrite: SharedWrite {
    let connection: PostgresConnection
    let logger: Logger
    let uri: StoreURI
    var locked: (number: Int, change: UInt64) = (0, 0)
    private(set) var committed = false

    init(connection: PostgresConnection, logger: Logger, uri: StoreURI) {
        self.connection = connection
        self.logger = logger
        self.uri = uri
    }

    func changes(after seq: UInt64) throws -> SharedChanges {
        try PostgresStore.attempt("read the changes of \(uri)") {
            SharedChanges(
                entries: try PostgresSchema.entries(after: seq, upTo: locked.change, on: connection, logger: logger),
                number: locked.number, change: locked.change)
        }
    }

    func commit(_ entries: [JournalEntry], number: Int, change: UInt64) throws {
        if let first = entries.first, first.seq != locked.change + 1 {
            throw SharedStoreError("the local database was not caught up (its next change is \(first.seq), the store's \(locked.change + 1)): nothing was written; try again")
        }
        try PostgresStore.attempt("commit to \(uri)") {
            if !entries.isEmpty {
                for entry in entries { try PostgresSchema.append(entry, on: connection, logger: logger) }
                try PostgresSchema.setCounters(number: number, change: change, announce: true, on: connection, logger: logger)
            }
            try PostgresStore.run("COMMIT", on: connection, logger: logger)
            committed = true
        }
    }
}
