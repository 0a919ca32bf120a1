import Dispatch
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import SharedStoreContract
import Synchronization
import TodoEvents
import TodoModel

/// PostgreSQL as the shared store of several daemons (`todod --store postgresql://…`).
///
/// Two connections: the writer, used only from the ModelServer's storage queue (it blocks
/// on postgres-nio's futures there, never on an event loop, each wait with a deadline), and
/// the listener, which `LISTEN`s for the writers' `NOTIFY`, checks the store's last change
/// every few seconds, and reconnects with backoff when it is dropped (`PostgresListener`).
///
/// Two more files extend it, each with what uses the writer's connection in its own way:
/// `+Migration` (`--migrate-to`'s one-transaction copy) and `+Failures` (every statement
/// run with a deadline, and postgres-nio's errors told as what happened and what to do).
public final class PostgresStore: SharedStore, Sendable {
    /// Where the store is (no password in it).
    public let uri: StoreURI
    let logger: Logger
    /// The password given (tests), else none: `~/.pgpass` and `$PGPASSWORD` are read at each connection.
    private let password: String?
    /// A password file passed over was said so in the log, once.
    private let toldIgnoredPasswordFile = Mutex(false)
    private let writer: Mutex<PostgresConnection?>
    /// The tables exist: made sure of on the first connection that succeeds.
    private let tablesReady = Mutex(false)
    let reachability: StoreReachability
    /// The second connection, which hears the other daemons' changes (`PostgresListener`).
    private let listener: PostgresListener

    /// Connects and creates the tables on first use. Blocks: call it off any event loop.
    /// - Parameter startUnreachable: when the store cannot be reached (as opposed to refusing
    ///   this user, this database or this TLS), start all the same, unreachable: the daemon
    ///   serves its replica, and connects later (a laptop started away from its network).
    /// - Throws: `SharedStoreError` saying what happened and what to do.
    public init(uri: StoreURI, password: String? = nil, logger: Logger, startUnreachable: Bool = false) throws {
        self.uri = uri
        self.logger = logger
        self.password = password
        writer = Mutex(nil)
        let reachability = StoreReachability(store: "\(uri)")
        self.reachability = reachability
        listener = PostgresListener(uri: uri, logger: logger, reachability: reachability)
        do {
            let connection = try connect(advice: PostgresStore.atStart)
            writer.withLock { $0 = connection }
        } catch let error as SharedStoreError where startUnreachable && error.kind == .unreachable {
            logger.warning("cannot reach the shared store at start; serving this machine's copy; writes are kept here and shared once it is reachable",
                           metadata: ["store": "\(uri)", "error": "\(error)"])
        }
    }

    // MARK: SharedStore

    public func changes(after seq: UInt64) throws -> SharedChanges {
        try withWriter("read the changes of \(uri)") { connection in
            let counters = try PostgresSchema.counters(on: connection, lock: false, base: seq, logger: logger)
            return try PostgresSchema.changes(
                after: seq, upTo: counters.change, number: counters.number, base: counters.base, on: connection, logger: logger)
        }
    }

    public func write<T>(after seq: UInt64, _ body: (any SharedWrite) throws -> T) throws -> T {
        let (connection, locked) = try withWriter("start a transaction in \(uri)") { connection in
            // One wait for both (`StatementQueue`).
            var queue = StatementQueue(on: connection, logger: logger)
            queue.send("BEGIN")
            queue.send(PostgresSchema.counters(lock: true, base: seq))
            let outcomes = queue.outcomes()
            _ = try outcomes[0].get()
            do {
                return (connection, try PostgresSchema.counters(outcomes[1].get(), base: seq))
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
            if writer.withLock({ $0?.isClosed ?? true }) { reachability.lost(PostgresStore.reason(error), replacing: false) }
            throw error
        }
    }

    public var status: SharedStoreStatus { reachability.status }

    /// A mark spelled otherwise (an older todod kept `host=/run/./pg` as written) names this
    /// store when it reads as the same URI.
    public func isNamed(_ mark: String) -> Bool {
        mark == status.store || (try? StoreURI(mark, defaultUser: uri.user))?.description == uri.description
    }

    public func watchStatus(_ changed: @escaping @Sendable (SharedStoreStatus) -> Void) {
        reachability.observe(changed)
    }

    public func refuse(because problem: String) {
        reachability.refuse(problem)
    }

    public func watch(_ changed: @escaping @Sendable (UInt64?) -> Void) {
        listener.watch(changed) { [self] in try connect(advice: "todod keeps trying") }
    }

    public func close() {
        let connections = [listener.close(), writer.withLock { $0 }].compactMap { $0 }
        for connection in connections { try? connection.close().wait() }
    }

    // MARK: Connections

    /// Set on every session: todod shows in `pg_stat_activity`; a writer waits at most 10 s
    /// for another daemon's lock (and hears why), and a daemon stopped in the middle of a
    /// write (SIGSTOP, a suspended laptop) holds the other daemons' lock for at most 30 s.
    static let sessionSettings = [
        ("application_name", "todod"), ("lock_timeout", "10s"), ("idle_in_transaction_session_timeout", "30s"),
    ]

    /// Connects as the URI's sslmode says (StoreTLS: libpq's rules; a Unix socket never uses TLS).
    func connect(advice: String = PostgresStore.reconnects) throws -> PostgresConnection {
        // Why, in short, for the status every client sees (the error thrown says what to do too).
        var cause: String?
        var silent = false
        do {
            let tls = try StoreTLS(uri: uri)
            let connection = try PostgresStore.attempt("connect to \(uri)", whenUnreachable: advice) {
                do {
                    // No socket file there: PostgreSQL is not running (it removes its socket as it stops),
                    // said as the attempt would say it, without one: it costs the password file's read and a
                    // wait on NIO's thread at each write kept while it is away (todobench scenario 7: kept
                    // writes at 0.63× SQLite's with it).
                    if let socket = uri.socketPath, access(socket, F_OK) != 0, errno == ENOENT {
                        throw IOError(errnoCode: ENOENT, reason: "connect")
                    }
                    return try openSession(tls: tls, password: self.password ?? passwordFromFiles())
                } catch {
                    cause = PostgresStore.reason(error)
                    silent = error is Deadline.Expired
                    // Gone after it was used: dropped, and being restored or made again, an outage
                    // to wait out with the writes kept here (as its tables missing are); at start
                    // it is a name to fix. Writes were refused (outside probe 9, F8).
                    if tablesReady.withLock({ $0 }), (error as? PSQLError)?.serverInfo?[.sqlState] == PostgresStore.undefinedDatabase {
                        let problem = "the database \(uri.database) is not there any more (dropped, or being restored)"
                        cause = problem
                        throw SharedStoreError("could not connect to \(uri): \(problem); \(PostgresStore.nothingWritten); \(advice)",
                                               kind: .unreachable, cause: problem)
                    }
                    throw error
                }
            }
            do {
                try createTables(on: connection, whenUnreachable: advice)
            } catch {
                // A connection must be closed before it goes (postgres-nio asserts so).
                PostgresStore.discard(connection)
                throw error
            }
            reachability.regained()
            return connection
        } catch {
            reachability.lost(cause ?? PostgresStore.reason(error), silent: silent)
            throw error
        }
    }

    /// A new session, as `tls` says, with the session settings; within the deadline.
    private func openSession(tls: StoreTLS, password: String?) throws -> PostgresConnection {
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

    /// The password from `$PGPASSWORD` or the password file, read now; a file passed over is logged once.
    private func passwordFromFiles() -> String? {
        let found = PasswordFile.lookup(for: uri)
        if let ignored = found.ignored, toldIgnoredPasswordFile.withLock({ told in defer { told = true }; return !told }) {
            logger.warning("\(ignored)", metadata: ["store": "\(uri)"])
        }
        return found.password
    }

    /// Creates the tables on the first connection that succeeds; on later ones, checks they
    /// are still there. Gone (the database dropped and made again, or a restore under way),
    /// the store counts as unreachable until they are back: made again empty, they would break
    /// a restore and make every replica look ahead of the store.
    private func createTables(on connection: PostgresConnection, whenUnreachable advice: String) throws {
        guard !tablesReady.withLock({ $0 }) else {
            return try PostgresStore.attempt("use todod's tables in \(uri)", whenUnreachable: advice) {
                _ = try PostgresStore.rows("SELECT value FROM counter WHERE name = 'change'", on: connection, logger: logger)
            }
        }
        try PostgresStore.attempt("create or use todod's tables in \(uri)", whenUnreachable: advice) {
            try PostgresSchema.create(on: connection, database: uri.database, logger: logger)
        }
        tablesReady.withLock { $0 = true }
    }


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
        if reachability.isSilent {
            let problem = reachability.status.problem ?? "it did not answer"
            throw SharedStoreError("\(uri) is not answering (\(problem)): \(PostgresStore.nothingWritten); \(PostgresStore.reconnects)",
                                   kind: .unreachable, cause: problem)
        }
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
        // Never on the connection the COMMIT was cut off on, even while it still looks open:
        // a statement written to it as it closes is never answered (see `Deadline.bounded`).
        if let cutOff = writer.withLock({ writer in defer { writer = nil }; return writer }) { PostgresStore.discard(cutOff) }
        return try withWriter("read change \(first) of \(uri)") { connection in
            try PostgresStore.run("BEGIN", on: connection, logger: logger)
            defer { PostgresStore.rollBack(connection, logger: logger) }
            _ = try PostgresSchema.counters(on: connection, lock: true, logger: logger)
            let stored = try PostgresSchema.changes(after: first - 1, upTo: first, number: 0, on: connection, logger: logger)
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
}
