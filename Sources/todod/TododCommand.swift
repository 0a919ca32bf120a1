import TodoPaths
import ArgumentParser
import Logging
import TodoDaemon
import TodoSystemd
import TodoWire

@main
struct TododCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod",
        abstract: "The todo daemon: keeps your todos and tells every connected client of every change.",
        discussion: """
            todod owns the SQLite database and listens on a Unix socket; `todoctl` and
            `todoctl watch` talk to it. Run it in the foreground, or let systemd start it on
            the first connection (`systemctl --user enable --now todod.socket`).

            Socket: --socket, else $TODOD_SOCKET, else $XDG_RUNTIME_DIR/todod.sock, else
            /tmp/todod-$UID/todod.sock. Database: --database, else $TODOD_DATABASE, else
            $XDG_DATA_HOME/todod/todos.sqlite (~/.local/share/todod/todos.sqlite).
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

    @Flag(help: "Rebuild every todo from the journal alone, compare with the table, print what differs and exit 1 if anything does (the daemon is not started).")
    var check = false

    func run() async throws {
        if check { return try JournalCheckRun.run(database: database ?? DefaultPaths.databasePath()) }
        let level = logLevel
        LoggingSystem.bootstrap { label in SystemdLogging.makeHandler(label: label, level: level) }
        let configuration = DaemonConfiguration(
            socketPath: socket ?? DefaultPaths.socketPath(),
            databasePath: database ?? DefaultPaths.databasePath(),
            exitIdleAfter: exitIdleAfter?.duration,
            icalDirectory: icalDirectory,
            logger: Logger(label: "todod"))
        defer { SystemdLogging.flush() }
        do {
            try await Daemon.run(configuration)
        } catch let error as DaemonError {
            configuration.logger.critical("\(error.message)")
            throw ExitCode(1)
        }
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
