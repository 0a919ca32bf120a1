import TodoPaths
import ArgumentParser
import Foundation
import Logging
import TodoDaemon
import TodoPostgres
import TodoServers
import TodoSystemd
import TodoWire
import SharedStoreContract

@main
struct TododCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod",
        abstract: "The todo daemon: keeps your todos and tells every connected client of every change.",
        discussion: """
            todod owns the SQLite database and listens on a Unix socket; `todoctl` and \
            `todoctl watch` talk to it. Run it in the foreground, or let systemd start it on \
            the first connection (`systemctl --user enable --now todod.socket`).

            Socket: --socket, else $TODOD_SOCKET, else $XDG_RUNTIME_DIR/todod.sock, else \
            /tmp/todod-$UID/todod.sock. Database: --database, else $TODOD_DATABASE, else \
            $XDG_DATA_HOME/todod/todos.sqlite (~/.local/share/todod/todos.sqlite). \
            Shared store: --store, else $TODOD_STORE (postgresql://USER@HOST/DB, or \
            postgresql://USER@/DB?host=/socket/dir; the password from $PGPASSWORD or ~/.pgpass). \
            The database is then this daemon's replica of it, and todod will not use it \
            without --store (--leave-store makes it a database of its own). Over TCP, TLS as libpq's: \
            ?sslmode=verify-full&sslrootcert=CA.crt checks the server (sslmode prefer unless \
            given, or $PGSSLMODE; no TLS over a Unix socket).

            SIGTERM or SIGINT: stop taking requests, answer those taken, exit 0.
            """,
        version: TodoVersion.current)

    @Option(help: ArgumentHelp("The Unix socket to listen on.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("The SQLite database file (created when missing).", valueName: "path"))
    var database: String?

    @Option(help: ArgumentHelp("The least important messages to log.", valueName: "level"))
    var logLevel: Logger.Level = .info

    @Option(help: ArgumentHelp(
        "Exit after this long without a connected client, e.g. 30s, 5m, 1h (for socket activation).",
        valueName: "duration"))
    var exitIdleAfter: IdleDuration?

    @Option(name: .customLong("ical-dir"), help: ArgumentHelp(
        "Keep this directory as a vdir: one iCalendar file per todo, written on every change; files others change are imported (for vdirsyncer and CalDAV).",
        valueName: "dir"))
    var icalDirectory: String?

    @Option(help: ArgumentHelp(
        "Share the todos with other daemons through this PostgreSQL database (postgresql://USER@HOST/DB); the database file becomes its replica.",
        valueName: "uri"))
    var store: String?

    @Option(help: ArgumentHelp(
        "With --store: the name this machine's changes carry, which history and log show on the other machines (default: the host name).",
        valueName: "name"))
    var machine: String?

    @Option(help: ArgumentHelp(
        "Copy the database's todos, numbers and journal into this empty PostgreSQL database (postgresql://USER@HOST/DB) and exit (another store's replica: --leave-store first).",
        valueName: "uri"))
    var migrateTo: String?

    @Flag(help: "Make the database, a replica of a shared store, a database of its own (todod then uses it without --store) and exit.")
    var leaveStore = false

    @Flag(help: "With --leave-store: leave even with changes made while the store was away that it never got (they stay in this database, shared only if it joins the store again).")
    var keepUnshared = false

    @Flag(help: "Rebuild every todo from the journal alone, compare with the table, print what differs and exit 1 if anything does (the daemon is not started).")
    var check = false

    /// One thing at a time: an option the chosen one would pass over is refused, not ignored.
    func validate() throws {
        let actions = [("--check", check), ("--leave-store", leaveStore), ("--migrate-to", migrateTo != nil)].filter(\.1).map(\.0)
        if actions.count > 1 { throw ValidationError("\(actions.joined(separator: " and ")) are separate runs of todod: give one of them") }
        if keepUnshared, !leaveStore { throw ValidationError("--keep-unshared goes with --leave-store: give both, or neither") }
        if let machine, let problem = Self.badMachineName(machine) {
            throw ValidationError("--machine \(machine.debugDescription) \(problem): give a short name such as laptop")
        }
        if let action = actions.first, store != nil {
            throw ValidationError("\(action) works on the database file alone and would pass over --store: give it without --store")
        }
    }

    func run() async throws {
        if check { return try JournalCheckRun.run(database: database ?? DefaultPaths.databasePath()) }
        if leaveStore { return try StoreLeaveRun.run(database: database ?? DefaultPaths.databasePath(), keepingUnshared: keepUnshared) }
        let level = logLevel
        LoggingSystem.bootstrap { label in SystemdLogging.makeHandler(label: label, level: level) }
        // Written off-thread: without this, a refusal logged just before exiting was lost about half the time.
        defer { SystemdLogging.flush() }
        if let migrateTo { return try StoreMigrationRun.run(database: database ?? DefaultPaths.databasePath(), to: migrateTo) }
        let storeText = store ?? ProcessInfo.processInfo.environment["TODOD_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        var uri: StoreURI?
        do throws(StoreURIError) {
            if let storeText { uri = try StoreURI(storeText) }
        } catch {
            Logger(label: "todod").critical("cannot use the shared store: \(error.message)")
            throw ExitCode(1)
        }
        let configuration = DaemonConfiguration(
            socketPath: socket ?? DefaultPaths.socketPath(),
            databasePath: database ?? DefaultPaths.databasePath(),
            exitIdleAfter: exitIdleAfter?.duration,
            icalDirectory: icalDirectory,
            logger: Logger(label: "todod"),
            sharedStore: uri.map { TododCommand.opener($0, machine: machine ?? Self.hostName()) })
        do {
            try await Daemon.run(configuration)
        } catch let error as DaemonError {
            configuration.logger.critical("\(error.message)")
            throw ExitCode(1)
        }
    }
}

extension TododCommand {
    /// Opens the PostgreSQL store at `uri` when the daemon starts, logging where (no password);
    /// a store that cannot be reached then is connected to later, the replica serving meanwhile.
    /// Its changes carry `machine`, this replica's name (`MachineNamedStore`).
    static func opener(_ uri: StoreURI, machine: String) -> @Sendable (Logger) throws -> any SharedStore {
        { logger in
            logger.info("sharing the todos through PostgreSQL", metadata: ["store": "\(uri)", "machine": "\(machine)"])
            return MachineNamedStore(try PostgresStore(uri: uri, logger: logger, startUnreachable: true), machine: machine)
        }
    }

    /// This machine's host name (gethostname: no DNS lookup, which ProcessInfo's may make),
    /// the replica's name unless --machine gives one.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unnamed" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return badMachineName(name) == nil ? name : "unnamed"
    }

    /// Why `name` cannot name a machine in every line of history and log; nil when it can.
    static func badMachineName(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.count > 64 { return "is over 64 characters" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
            return "holds a space or a control character"
        }
        return nil
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// A duration typed as `90`, `30s`, `5m` or `1h`.
struct IdleDuration: ExpressibleByArgument {
    let duration: Duration

    init?(argument: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600]
        let unit = argument.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(argument) : argument.dropLast()
        guard let count = Int64(digits), count > 0 else { return nil }
        duration = .seconds(count * (unit ?? 1))
    }
}
