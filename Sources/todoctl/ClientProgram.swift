import Foundation

/// How todoctl names itself to todod, for the journal's "who": `todoctl on pts/3` when it
/// runs at a terminal, plain `todoctl` when it has none (a script, cron).
///
/// Every todoctl command is a connection of its own, so the daemon's client number cannot
/// tell the user's own last command from another terminal's: the terminal can. `undo`
/// names a change made under another name before taking it back (watch's, a script's,
/// another terminal's todoctl), and not one made at this terminal.
enum ClientProgram {
    static let todoctl = named("todoctl")

    /// `name`, with the terminal it runs at when there is one.
    static func named(_ name: String) -> String {
        terminal.map { "\(name) on \($0)" } ?? name
    }

    /// The terminal of the first of stdin, stdout and stderr that is one (`pts/3`), as
    /// `tty(1)` names it without `/dev/`: stdout may be a pipe (`todoctl log | less`)
    /// while the user types at the terminal.
    private static let terminal: String? = {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where isatty(descriptor) == 1 {
            guard let name = ttyname(descriptor) else { continue }
            let path = String(cString: name)
            return path.hasPrefix("/dev/") ? String(path.dropFirst(5)) : path
        }
        return nil
    }()
}
