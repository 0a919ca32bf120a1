import TodoPaths
import ArgumentParser
import TodoWire

@main
struct TodoctlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todoctl",
        abstract: "Add, list and change todos kept by todod; watch them change live.",
        discussion: """
            Every command talks to the todod daemon over its Unix socket (--socket, before or \
            after the command as --json may be, else $TODOD_SOCKET, else $XDG_RUNTIME_DIR/todod.sock, else \
            /tmp/todod-$UID/todod.sock). Before sending anything todoctl checks that the socket's \
            directory is yours, not a symbolic link, and writable by no one else, and that the \
            process listening runs as you. A todo is named by its number (3 or #3), its id, or 8 \
            or more leading characters of its id. Without a command todoctl lists, as `task` \
            shows its default report: `todoctl -t home` (or `todoctl +home`) is `todoctl list -t home`; \
            a first word of letters that is no command is refused with the nearest command (exit 64; \
            Taskwarrior's modify and info with edit and show), \
            and Taskwarrior's order, todos or a filter before the command (`todoctl +home list`, \
            `todoctl 1 modify pri:H`), with todoctl's (`todoctl list +home`, `todoctl edit 1 pri:H`; exit 64); \
            so is Taskwarrior's burndown.daily (todoctl burndown).

            Exit status: 0 done; 1 refused by the daemon (not found, invalid, conflict), or a \
            bulk change not confirmed; 64 bad usage; 69 the daemon cannot be reached; 77 the \
            socket is not your todod's for sure (another user's directory or process).
            """,
        version: TodoVersion.current,
        subcommands: [
            AddCommand.self, ListCommand.self, NextCommand.self, ShowCommand.self, EditCommand.self,
            DoneCommand.self, ReopenCommand.self, ToggleCommand.self, RemoveCommand.self, RestoreCommand.self,
            StartCommand.self, StopCommand.self,
            WatchCommand.self, EventsCommand.self, StatusCommand.self, BackupCommand.self,
            AnnotateCommand.self, DenotateCommand.self,
            HistoryCommand.self, LogCommand.self, UndoCommand.self, RedoCommand.self, ReplayCommand.self, PurgeCommand.self,
            ConflictsCommand.self,
            ImportCommand.self, ExportCommand.self, TagsCommand.self, ProjectsCommand.self, ContextCommand.self, SummaryCommand.self, CalendarCommand.self, BurndownCommand.self,
        ],
        // As `task` shows its default report: `todoctl` alone, or with list's options, lists.
        defaultSubcommand: ListCommand.self)

    /// A usage error leads with `todoctl: `, as every other message does: ArgumentParser's
    /// `Error: ` was the odd one out (`todoctl ad` said `todoctl: unknown command 'ad' …`,
    /// `todoctl add x prio:H` `Error: prio: is not a modifier …`). Its usage lines follow.
    static var _errorPrefix: String { "todoctl: " }
}

/// `--socket`, shared by every command.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's socket (default: $TODOD_SOCKET, else $XDG_RUNTIME_DIR/todod.sock).", valueName: "path"))
    var socket: String?

    var socketPath: String { socket ?? DefaultPaths.socketPath() }
}

/// `--json`, for commands that print todos.
struct OutputOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print JSON (the Todo fields, see docs/PROTOCOL.md; a time of day beside its day, \"due\": \"2026-12-24\", \"dueTime\": \"15:00\", none for a whole day) instead of a table.")
    var json = false
}
