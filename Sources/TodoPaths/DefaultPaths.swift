import Foundation

/// Where todod listens and keeps its data when nothing else is said; `todod` and
/// `todoctl` agree on these.
public enum DefaultPaths {
    /// `$TODOD_SOCKET`, else `$XDG_RUNTIME_DIR/todod.sock`, else
    /// `/tmp/todod-$UID/todod.sock` (in a directory only this user may enter).
    public static func socketPath(environment: (String) -> String? = Environment.value) -> String {
        if let path = environment("TODOD_SOCKET"), !path.isEmpty { return path }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime + "/todod.sock" }
        return "/tmp/todod-\(getuid())/todod.sock"
    }

    /// `$TODOD_DATABASE`, else `$XDG_DATA_HOME/todod/todos.sqlite`, else
    /// `~/.local/share/todod/todos.sqlite`.
    public static func databasePath(environment: (String) -> String? = Environment.value) -> String {
        if let path = environment("TODOD_DATABASE"), !path.isEmpty { return path }
        if let data = environment("XDG_DATA_HOME"), !data.isEmpty { return data + "/todod/todos.sqlite" }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/todod/todos.sqlite"
    }

    /// `$XDG_CONFIG_HOME/todod/contexts`, else `~/.config/todod/contexts`: todoctl's named
    /// filters, kept on the client's side as Taskwarrior keeps its contexts in the user's rc.
    public static func contextsPath(environment: (String) -> String? = Environment.value) -> String {
        if let config = environment("XDG_CONFIG_HOME"), !config.isEmpty { return config + "/todod/contexts" }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/todod/contexts"
    }
}
