import Foundation
import TestHarness
import Testing

/// A real todod process on a private socket and database, started and awaited by its
/// `READY=1` notification, stopped with SIGTERM.
final class DaemonProcess: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let databasePath: String
    let logPath: String
    private let process: SpawnedProcess
    private let notify: NotifySocket

    /// Its socket, and a config directory of its own: todoctl's contexts (todoctl context)
    /// are read from there, never from the user's running the tests.
    var environment: [String: String] { ["TODOD_SOCKET": socketPath, "XDG_CONFIG_HOME": configDirectory] }
    var configDirectory: String { directory + "/config" }
    var contextsPath: String { configDirectory + "/todod/contexts" }
    var pid: Int32 { process.pid }

    /// Starts todod; `directory` is reused to restart on the same data. With `user` (a uid,
    /// needs root), it runs as that user (and group), in a directory given to that user.
    static func start(in directory: String? = nil, arguments: [String] = [], environment: [String: String] = [:], user: UInt32? = nil) async throws -> DaemonProcess {
        let daemon = try DaemonProcess(directory: directory ?? makeTemporaryDirectory(), arguments: arguments, environment: environment, user: user)
        _ = try await daemon.notify.awaitMessage(containing: "READY=1")
        return daemon
    }

    private init(directory: String, arguments: [String], environment extra: [String: String], user: UInt32?) throws {
        self.directory = directory
        socketPath = directory + "/todod.sock"
        databasePath = directory + "/todos.sqlite"
        logPath = directory + "/todod.log"
        let notifyPath = directory + "/notify-\(UUID().uuidString.prefix(8)).sock"
        notify = try NotifySocket(path: notifyPath)
        var todod = [binaryDirectory + "/todod", "--socket", socketPath, "--database", databasePath, "--log-level", "debug"] + arguments
        if let user {
            // The daemon must reach its notify socket and own its directory, as a user's would be.
            chown(directory, user, user)
            chmod(notifyPath, 0o666)
            todod = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + todod
        }
        process = try SpawnedProcess(
            todod[0], Array(todod.dropFirst()), environment: inheritedEnvironment(["NOTIFY_SOCKET": notifyPath].merging(extra) { $1 }),
            output: .null, errors: .file(logPath))
    }

    /// What the daemon logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits until the daemon's log holds `needle` (it goes to a file, read again every
    /// 50 ms); fails after `timeout` seconds with the log's end.
    func awaitLog(containing needle: String, timeout: TimeInterval = 30) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !log.contains(needle) {
            guard Date() < deadline else { throw TestFailure("no \"\(needle)\" in todod's log within \(Int(timeout)) s:\n\(log.suffix(2000))") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Every notification the daemon sent to its (test) systemd so far.
    var notifications: [String] { notify.received }

    /// The next notification the daemon sends to its (test) systemd.
    func awaitNotification(containing needle: String) async throws -> String {
        try await notify.awaitMessage(containing: needle)
    }

    /// SIGTERM, then the exit status. Every scenario that stops its daemon so also checks
    /// that the journal rebuilds the table (`todod --check`).
    @discardableResult
    func stop(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int32 {
        process.signal(SIGTERM)
        let status = try await waitForExit()
        if FileManager.default.fileExists(atPath: databasePath) {
            let check = try await check()
            // 2 is "cannot check" (a test's deliberately foreign or unreadable file); 1 is a real difference.
            #expect(check.status != 1, "todod --check: \(check.stdout)", sourceLocation: sourceLocation)
        }
        return status
    }

    /// Its exit status (128 + the signal that ended it); killed and a failure after `timeout`
    /// seconds, which shows the end of its log (a crash's backtrace, a shutdown stuck somewhere).
    func waitForExit(timeout: TimeInterval = 30) async throws -> Int32 {
        do {
            return try await process.waitForExit(timeout: timeout)
        } catch {
            throw TestFailure("todod did not exit within \(Int(timeout)) s and was killed; its log ends:\n\(log.split(separator: "\n").suffix(30).joined(separator: "\n"))")
        }
    }

    /// Runs todoctl against this daemon.
    func todoctl(_ arguments: String..., input: String? = nil, environment extra: [String: String] = [:]) async throws -> CommandResult {
        try await todoctl(arguments, input: input, environment: extra)
    }

    /// Runs todoctl against this daemon, its words in an array.
    func todoctl(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) async throws -> CommandResult {
        try await run("todoctl", arguments, environment: environment.merging(extra) { $1 }, input: input)
    }

    /// `todod --check` on this daemon's database: the journal rebuilt and compared.
    func check() async throws -> CommandResult {
        try await run("todod", ["--check", "--database", databasePath])
    }

    func connect() throws -> RawConnection {
        try RawConnection(path: socketPath)
    }

    // The SpawnedProcess kills a daemon still running as it goes.
    deinit {
        notify.close()
    }
}
