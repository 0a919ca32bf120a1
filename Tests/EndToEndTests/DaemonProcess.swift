import Foundation
import Testing

/// A real todod process on a private socket and database, started and awaited by its
/// `READY=1` notification, stopped with SIGTERM.
final class DaemonProcess: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let databasePath: String
    let logPath: String
    private let process = Process()
    private let notify: NotifyListener

    var environment: [String: String] { ["TODOD_SOCKET": socketPath] }
    var pid: Int32 { process.processIdentifier }

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
        notify = try NotifyListener(path: notifyPath)
        let todod = [binaryDirectory + "/todod", "--socket", socketPath, "--database", databasePath, "--log-level", "debug"] + arguments
        if let user {
            // The daemon must reach its notify socket and own its directory, as a user's would be.
            chown(directory, user, user)
            chmod(notifyPath, 0o666)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + todod
        } else {
            process.executableURL = URL(fileURLWithPath: todod[0])
            process.arguments = Array(todod.dropFirst())
        }
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notifyPath
        environment.merge(extra) { $1 }
        process.environment = environment
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// What the daemon logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

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
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let status = try await waitForExit()
        if FileManager.default.fileExists(atPath: databasePath) {
            let check = try await check()
            // 2 is "cannot check" (a test's deliberately foreign or unreadable file); 1 is a real difference.
            #expect(check.status != 1, "todod --check: \(check.stdout)", sourceLocation: sourceLocation)
        }
        return status
    }

    func waitForExit(timeout: TimeInterval = 30) async throws -> Int32 {
        try await blocking { [process] in
            let deadline = Date().addingTimeInterval(timeout)
            let exited = DispatchSemaphore(value: 0)
            Thread { process.waitUntilExit(); exited.signal() }.start()
            guard exited.wait(timeout: .now() + deadline.timeIntervalSinceNow) == .success else {
                process.terminate()
                throw TestFailure("todod did not exit within \(Int(timeout)) s")
            }
            return process.terminationStatus
        }
    }

    /// Runs todoctl against this daemon.
    func todoctl(_ arguments: String..., input: String? = nil, environment extra: [String: String] = [:]) async throws -> CommandResult {
        try await run("todoctl", arguments, environment: environment.merging(extra) { $1 }, input: input)
    }

    /// `todod --check` on this daemon's database: the journal rebuilt and compared.
    func check() async throws -> CommandResult {
        try await run("todod", ["--check", "--database", databasePath])
    }

    func connect() throws -> RawConnection {
        try RawConnection(path: socketPath)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        notify.close()
    }
}
