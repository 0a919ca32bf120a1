import Foundation
import TodoClient
import TodoViewModel

/// Runs the person's editor as a shell runs a job in the foreground.
///
/// The editor stays in todoctl's process group, which is the terminal's foreground group
/// when todoctl is: an editor put in a group of its own (as `Process` does) is stopped by
/// SIGTTOU or SIGTTIN the moment it touches the terminal, and hangs. While it runs,
/// todoctl ignores SIGINT and SIGQUIT, as `system(3)` and `git commit` do, so that Ctrl-C
/// reaches the editor alone; the editor starts with every signal at its default.
enum ForegroundEditor {
    /// `$VISUAL`, else `$EDITOR`, else `vi`.
    static var command: String {
        let environment = ProcessInfo.processInfo.environment
        return [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    }

    /// Runs `editor` on `file` through `/bin/sh`, so that an editor with arguments
    /// (`code --wait`) works; returns its exit status (128 + N when killed by signal N).
    static func run(_ editor: String, file: String) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            // The wait blocks a thread for as long as the person edits: not one of the pool's.
            Thread { continuation.resume(with: Result { try runWaiting(editor, file: file) }) }.start()
        }
    }

    private static func failure(_ message: String) -> TodoClientError {
        .refused(TodoError(.validation, message + "; nothing changed", field: "editor"))
    }

    private static func runWaiting(_ editor: String, file: String) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        // No POSIX_SPAWN_SETPGROUP: the editor shares todoctl's (foreground) process group.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments = ["/bin/sh", "-c", "\(editor) \"$1\"", "sh", file]
        // posix_spawn(3) takes argv as C strings that outlive the call: copied here, freed on the way out.
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        let oldInterrupt = signal(SIGINT, SIG_IGN)
        let oldQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, oldInterrupt)
            signal(SIGQUIT, oldQuit)
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        guard spawned == 0 else {
            throw failure("cannot start the editor (\(editor)): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw failure("lost the editor (\(editor)): \(String(cString: strerror(errno)))")
            }
        }
        let signalled = status & 0x7F
        return signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled
    }
}
