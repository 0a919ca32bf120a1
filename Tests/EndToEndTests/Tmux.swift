import Foundation

/// A terminal for a test: a private tmux server with one session, driven by keys and
/// read by `capture-pane`, as a person would use it. Its server ends with it, also when a
/// test fails halfway.
final class Tmux: @unchecked Sendable {
    let server = "todod-test-\(UUID().uuidString.prefix(8))"
    let session = "watch"
    private var serverPID: pid_t = 0

    /// Starts a shell in an 80×20 terminal with `environment` exported.
    init(environment: [String: String]) async throws {
        let exports = environment.map { "export \($0.key)='\($0.value)'" }.joined(separator: "; ")
        // -P -F prints the server's pid: known at once, so that deinit can always end it.
        let started = try await tmux("new-session", "-d", "-P", "-F", "#{pid}", "-s", session, "-x", "80", "-y", "20", "sh")
        guard started.status == 0, let pid = pid_t(started.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            _ = try? await tmux("kill-server")
            throw TestFailure("tmux did not start: \(started.output)")
        }
        serverPID = pid
        try await type("PS1='$ '; \(exports); clear")
    }

    /// Types `text` and Enter into the shell.
    func type(_ text: String) async throws {
        try await keys(text, "Enter")
    }

    /// Sends keys by tmux's names (`Up`, `Escape`, `C-c`) or literal text.
    func keys(_ keys: String...) async throws {
        let sent = try await tmux(["send-keys", "-t", session] + keys)
        guard sent.status == 0 else { throw TestFailure("tmux send-keys \(keys): \(sent.output)") }
    }

    /// The screen as text; with `escapes`, with the escape sequences of its colours and styles.
    func screen(escapes: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", session] + (escapes ? ["-e"] : [])).output
    }

    /// Waits until the screen shows `text` (tmux offers no event for it, so the screen
    /// is read again every 50 ms); fails after `timeout` seconds with the last screen. 30 s, as
    /// every other wait of the suite: a watch that starts and draws in well under a second alone
    /// waits for 2 loaded cores beside the rest of the suite.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 30) async throws -> String {
        try await waitUntil(timeout: timeout, "the screen to show \"\(text)\"") { $0.contains(text) }
    }

    @discardableResult
    func waitUntil(timeout: TimeInterval = 30, _ what: String, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try await screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("waited \(Int(timeout)) s for \(what); the screen was:\n\(last)")
    }

    /// Resizes the terminal; what runs in it gets SIGWINCH.
    func resize(columns: Int, rows: Int) async throws {
        let resized = try await tmux("resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)")
        guard resized.status == 0 else { throw TestFailure("tmux resize-window: \(resized.output)") }
    }

    /// The pid of the shell in the pane (what the test typed runs as its child).
    func shellPID() async throws -> pid_t {
        let shown = try await tmux("display-message", "-p", "-t", session, "#{pane_pid}")
        guard let pid = pid_t(shown.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("no pane pid from tmux: \(shown.output)")
        }
        return pid
    }

    func kill() async {
        _ = try? await tmux("kill-server")
    }

    /// tmux through `ChildProcess`, which waits for the client's own pid: the first call forks
    /// the tmux server, which outlives the client.
    private func tmux(_ arguments: String...) async throws -> (status: Int32, output: String) {
        try await tmux(arguments)
    }

    private func tmux(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run("/usr/bin/tmux", ["-L", server] + arguments, environment: ProcessInfo.processInfo.environment)
    }

    deinit {
        // SIGTERM ends the server, which hangs up on what runs in its panes.
        if serverPID > 0 { Glibc.kill(serverPID, SIGTERM) }
    }
}
