import Foundation
import TestHarness

#if canImport(Glibc)
import Glibc
#endif

/// Debian's `redis-server` on a Unix socket in a private directory, persistence off:
/// the yardstick for a read round trip; or, `durable`, with every write in its append-only
/// file synced before it answers (`appendfsync always`), the yardstick for a durable write. Awaited by its `READY=1` (`--supervised systemd`,
/// as for todod), stopped with `SHUTDOWN NOSAVE`, killed if todobench lets go of it first.
final class RedisServer: SideServer, @unchecked Sendable {
    let socketPath: String
    let version: String
    private let process = Process()

    var pid: Int32 { process.processIdentifier }

    /// Starts one in `directory`; says how to install it when it is missing.
    static func start(in directory: String, durable: Bool = false) async throws -> RedisServer {
        guard let binary = findExecutable("redis-server") else {
            throw BenchError("redis-server is not installed, so there is nothing to compare reads with: apt-get install redis-server (make bench does)")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = RedisServer(binary: binary, directory: directory)
        try await server.launch(binary: binary, directory: directory, durable: durable)
        return server
    }

    private init(binary: String, directory: String) {
        socketPath = directory + "/redis.sock"
        version = RedisServer.version(of: binary)
    }

    private func launch(binary: String, directory: String, durable: Bool) async throws {
        let notify = try NotifySocket(path: directory + "/notify.sock")
        defer { notify.close() }
        process.executableURL = URL(fileURLWithPath: binary)
        // No TCP port, no snapshots; an append-only file synced at every write only when durable.
        let persistence = durable ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
        process.arguments = [
            "--port", "0", "--unixsocket", socketPath, "--unixsocketperm", "700",
            "--save", "", "--dir", directory, "--logfile", directory + "/redis.log",
            "--daemonize", "no", "--supervised", "systemd",
        ] + persistence
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Watchdog.track(pid: pid)
        do {
            try await notify.awaitMessage(containing: "READY=1", timeout: 30, while: { [process] in process.isRunning })
        } catch {
            if process.isRunning { kill(pid, SIGKILL) }
            throw BenchError("redis-server did not become ready (\(error)); its log: \(directory)/redis.log")
        }
    }

    /// `SHUTDOWN NOSAVE`, then waits for it to exit. Not SIGTERM: redis-server inherits the
    /// signal mask of the thread that spawned it, and Dispatch's threads block SIGTERM and
    /// SIGINT, so it would never hear them; SIGKILL only if it cannot be asked.
    func stop() async {
        let process = self.process
        guard process.isRunning else { return }
        var closed = false
        if let connection = try? RawConnection(path: socketPath) {
            do {
                _ = try RoundTrip.redis("SHUTDOWN", "NOSAVE").answer(on: connection)
                progress("redis-server answered SHUTDOWN instead of exiting; killing it")
            } catch is RawConnection.Closed {
                closed = true  // the usual end: Redis closes the connection as it exits, without an answer
            } catch {
                progress("redis-server refused SHUTDOWN (\(error)); killing it")
            }
        }
        if !closed { kill(process.processIdentifier, SIGKILL) }
        _ = try? await blocking { process.waitUntilExit() }
        Watchdog.untrack(pid: process.processIdentifier)
    }

    /// `7.0.15`, from `redis-server --version`.
    private static func version(of binary: String) -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--version"]
        process.standardOutput = output
        guard (try? process.run()) != nil else { return "?" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: " ").first { $0.hasPrefix("v=") }.map { String($0.dropFirst(2)) } ?? "?"
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
