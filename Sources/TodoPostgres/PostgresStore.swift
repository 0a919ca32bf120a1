import Dispatch
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TodoEvents
import TodoModel
import TodoServers

/// PostgreSQL as the shared store of several daemons (`todod --store postgresql://…`).
///
/// Two connections: the writer, used only from the ModelServer's storage queue (it blocks
/// on postgres-nio's futures there, never on an event loop, each wait with a deadline), and
/// the listener, which `LISTEN`s for the writers' `NOTIFY`, checks the store's last change
/// every few seconds, and reconnects with backoff when it is dropped (PostgresStore+Listener.swift).
public final class PostgresStore: SharedStore, Sendable {
    /// Where the store is (no password in it).
    public let uri: StoreURI
    let logger: Logger
    private let password: String?
    private let writer: Mutex<PostgresConnection?>
    /// The tables exist: made sure of on the first connection that succeeds.
    private let tablesReady = Mutex(false)
    let watching = Mutex(Watch())
    let listenerQueue = DispatchQueue(label: "todod.postgres.listener")
    let reachability: StoreReachability

    struct Watch {
        var changed: (@Sendable (UInt64?) -> Void)?
        var connection: PostgresConnection?
        var closed = false
        var failures = 0
    }

    /// Connects and creates the tables on first use. Blocks: call it off any event loop.
    /// - Parameter startUnreachable: when the store cannot be reached (as opposed to refusing
    ///   this user, this database or this TLS), start all the same, unreachable: the daemon
    ///   serves its replica, and connects later (a laptop started away from its network).
    /// - Throws: `SharedStoreError` saying what happened and what to do.
    public init(uri: StoreURI, password: String? = nil, logger: Logger, startUnreachable: Bool = false) throws {
        self.uri = uri
        self.logger = logger
        self.password = password ?? PasswordFile.password(for: uri)
        writer = Mutex(nil)
        reachability = StoreReachability(store: "\(uri)")
        do {
            let connection = try connect(advice: PostgresStore.atStart)
            writer.withLock { $0 = connection }
        } catch let error as SharedStoreError where startUnreachable && error.kind == .unreachable {
            logger.warning("cannot reach the shared store at start; serving this machine's copy, writes refused until it is reachable",
                           metadata: ["store": "\(uri)", "error": "\(error)"])
        }
    }

    // MARK: SharedStore

    public func changes(after seq: UInt64) throws -> SharedChanges {
        try withWriter("read the changes of \(uri)") { connection in
            let counters = try PostgresSchema.counters(on: connection, lock: false, logger: logger)
            let (entries, purges) = try PostgresSchema.changes(after: seq, upTo: counters.change, on: connection, logger: logger)
            return SharedChanges(entries: entries, purges: purges, number: counters.number, change: counters.change)
        }
    }

    public func change(_ seq: UInt64) throws -> JournalEntry? {
        guard seq > 0 else { return nil }
        return try withWriter("read change \(seq) of \(uri)") { connection in
            try PostgresSchema.changes(after: seq - 1, upTo: seq, on: connection, logger: logger).entries.first
        }
    }

    public func write<T>(_ body: (any SharedWrite) throws -> T) throws -> T {
        let (connection, locked) = try withWriter("start a transaction in \(uri)") { connection in
            try PostgresStore.run("BEGIN", on: connection, logger: logger)
            do {
                return (connection, try PostgresSchema.counters(on: connection, lock: true, logger: logger))
            } catch {
                // Waited too long for the lock: the transaction is aborted, and the next write needs a clean session.
                PostgresStore.rollBack(connection, logger: logger)
                throw error
            }
        }
        let write = PostgresWrite(connection: connection, logger: logger, uri: uri, locked: locked) { [self] changes in
            try holds(changes)
        }
        do {
            let result = try body(write)
            if !write.committed { try PostgresStore.run("ROLLBACK", on: connection, logger: logger) }
            return result
        } catch {
            if !write.committed { PostgresStore.rollBack(connection, logger: logger) }
            // Lost unless a new writer took its place (asking whether a cut-off COMMIT took effect).
            if writer.withLock({ $0?.isClosed ?? true }) { reachability.lost(PostgresStore.reason(error)) }
            throw error
        }
    }

    public var status: SharedStoreStatus { reachability.status }

    public func watchStatus(_ changed: @escaping @Sendable (SharedStoreStatus) -> Void) {
        reachability.observe(changed)
    }

    public func refuse(because problem: String) {
        reachability.refuse(problem)
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

    /// Set on every session: todod shows in `pg_stat_activity`; a writer waits at most 10 s
    /// for another daemon's lock (and hears why), and a daemon stopped in the middle of a
    /// write (SIGSTOP, a suspended laptop) holds the other daemons' lock for at most 30 s.
    static let sessionSettings = [
        ("application_name", "todod"), ("lock_timeout", "10s"), ("idle_in_transaction_session_timeout", "30s"),
    ]

    /// Connects as the URI's sslmode says (StoreTLS: libpq's rules; a Unix socket never uses TLS).
    func connect(advice: String = PostgresStore.nothingWritten) throws -> PostgresConnection {
        do {
            let tls = try StoreTLS(uri: uri)
            let connection = try PostgresStore.attempt("connect to \(uri)", advice: advice) {
                try tls.connect { setting in
                    var configuration: PostgresConnection.Configuration
                    if let socket = uri.socketPath {
                        configuration = .init(unixSocketPath: socket, username: uri.user, password: password, database: uri.database)
                    } else {
                        configuration = .init(host: uri.host ?? "localhost", port: uri.port, username: uri.user, password: password, database: uri.database, tls: setting)
                    }
                    configuration.options.additionalStartupParameters = PostgresStore.sessionSettings
                    let connecting = PostgresConnection.connect(
                        on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: 1, logger: logger)
                    return try Deadline.wait(for: connecting) { connecting.whenSuccess(PostgresStore.discard) }
                }
            }
            do {
                try createTables(on: connection, advice: advice)
            } catch {
                // A connection must be closed before it goes (postgres-nio asserts so).
                PostgresStore.discard(connection)
                throw error
            }
            reachability.regained()
            return connection
        } catch {
            reachability.lost(PostgresStore.reason(error))
            throw error
        }
    }

    /// Creates the tables unless that was done: on the first connection that succeeds.
    private func createTables(on connection: PostgresConnection, advice: String) throws {
        guard !tablesReady.withLock({ $0 }) else { return }
        try PostgresStore.attempt("create or use todod's tables in \(uri)", advice: PostgresStore.tablesAdvice) {
            try PostgresSchema.create(on: connection, logger: logger)
        }
        tablesReady.withLock { $0 = true }
    }

    /// Why the tables cannot be made or used, as a rule: the role, or a read-only server.
    static let tablesAdvice = """
        nothing was written: every todod must connect as a role that may create and write todod's tables (counter, journal, \
        todo, purge) in the database's public schema: the one role of the README's setup (createdb --owner), or grant it \
        (GRANT ALL ON SCHEMA public, and ALL on those tables, TO the role); and to a server that takes writes (not a standby)
        """

    /// Runs `body` on the writer; when that fails because the connection was dropped (a
    /// PostgreSQL restarted since the last write), once more on a new connection. Not after
    /// a deadline: a server that does not answer would make the write wait twice as long.
    private func withWriter<T>(_ what: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try writerConnection()
        do {
            return try body(connection)
        } catch {
            guard connection.isClosed, !(error is Deadline.Expired) else { return try PostgresStore.attempt(what) { throw error } }
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

    /// Whether the store holds `changes` as committed: the row of their first change is
    /// theirs (the same todo at the same revision, by the same client at the same time, or
    /// a purge of the same numbers). Asked on a new writer connection, once the counters'
    /// lock is free: the cut-off transaction, still running in PostgreSQL, holds it until it ends.
    private func holds(_ changes: SharedChanges) throws -> Bool {
        guard let first = changes.firstSeq else { return true }
        return try withWriter("read change \(first) of \(uri)") { connection in
            try PostgresStore.run("BEGIN", on: connection, logger: logger)
            defer { PostgresStore.rollBack(connection, logger: logger) }
            _ = try PostgresSchema.counters(on: connection, lock: true, logger: logger)
            let stored = try PostgresSchema.changes(after: first - 1, upTo: first, on: connection, logger: logger)
            if let ours = changes.entries.first(where: { $0.seq == first }), let theirs = stored.entries.first {
                return (theirs.after.id, theirs.after.revision, theirs.at, theirs.author) == (ours.after.id, ours.after.revision, ours.at, ours.author)
            }
            if let ours = changes.purges.first(where: { $0.seq == first }), let theirs = stored.purges.first {
                return theirs.numbers.sorted() == ours.numbers.sorted()
            }
            return false
        }
    }

    // MARK: Helpers

    /// Runs one statement, its rows ignored.
    static func run(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) throws {
        _ = try rows(query, on: connection, logger: logger)
    }

    /// Runs one statement and returns its rows; past the deadline the connection is closed.
    static func rows(
        _ query: PostgresQuery, on connection: PostgresConnection, within limit: TimeAmount = Deadline.statement, logger: Logger
    ) throws -> PostgresQueryResult {
        try Deadline.wait(for: connection.query(query, logger: logger), within: limit) { PostgresStore.discard(connection) }
    }

    /// Closes a connection that is no longer wanted, and keeps it until it is closed: postgres-nio
    /// asserts that a connection is closed when it goes.
    @Sendable static func discard(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Ends a failed transaction. Briefly: on a session PostgreSQL ended (a FATAL error, as at
    /// shutdown) or that stopped answering, a ROLLBACK would wait out the whole deadline,
    /// and a session closed rolls back anyway.
    static func rollBack(_ connection: PostgresConnection, logger: Logger) {
        _ = try? rows("ROLLBACK", on: connection, within: .seconds(2), logger: logger)
    }

    /// Runs `body`, turning postgres-nio's errors (whose descriptions hide everything) into
    /// a `SharedStoreError` saying what failed, why, and that nothing was written.
    static func attempt<T>(_ what: String, advice: String = PostgresStore.nothingWritten, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SharedStoreError {
            throw error
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
            throw SharedStoreError("could not \(what): \(reason(error)); \(lockTimedOut)")
        } catch {
            throw SharedStoreError("could not \(what): \(reason(error)); \(advice)", kind: isUnreachable(error) ? .unreachable : .failed)
        }
    }

    /// Whether `error` says the store could not be reached, rather than that it refused:
    /// cut off, silent past the deadline, or shutting down or starting up (SQLSTATE 57P0x).
    static func isUnreachable(_ error: any Error) -> Bool {
        if error is Deadline.Expired || error is IOError || error is NIOConnectionError { return true }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("57P0") }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown].contains(error.code)
    }

    static let nothingWritten = "nothing was written; todod connects again at the next write: try again once PostgreSQL is back"

    /// PostgreSQL's `lock_timeout` (`sessionSettings`) ran out while another session held the write lock.
    static let lockTimedOut = """
        another daemon held the write lock for over 10 s (a large import, or a daemon stopped in the middle of a write, \
        whose session PostgreSQL ends after 30 s), so nothing was written: try again shortly
        """

    /// What went wrong, from the server's message when there is one.
    static func reason(_ error: any Error) -> String {
        if let error = error as? SharedStoreError { return error.message }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + code
        }
        if error.code == .connectionError, let underlying = error.underlying {
            // EAFNOSUPPORT: a sandbox (the systemd unit's RestrictAddressFamilies=AF_UNIX) forbids network sockets.
            let refused = (underlying as? NIOConnectionError)?.connectionErrors.compactMap { $0.error as? IOError } ?? []
            if refused.contains(where: { $0.errnoCode == EAFNOSUPPORT }) {
                return "todod may not open network sockets here (\(underlying)): under systemd, add RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 beside Environment=TODOD_STORE=… in the unit's drop-in (systemctl --user edit todod.service)"
            }
            return "PostgreSQL cannot be reached (\(underlying))"
        }
        if error.code == .serverClosedConnection || error.code == .clientClosedConnection { return "the connection to PostgreSQL was closed" }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }
}
