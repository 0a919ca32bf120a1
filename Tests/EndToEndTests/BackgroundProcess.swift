import Foundation
import TestHarness

/// A long-running command (`todoctl events`, `todoctl watch --plain`) whose output a
/// test reads line by line while it runs.
final class BackgroundProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    private let lock = NSLock()
    private var linesRead = 0

    /// With `readingErrors`, its error output is read as its output (a server that logs there).
    init(_ program: String, _ arguments: [String], environment: [String: String] = [:], readingErrors: Bool = false) throws {
        process = try SpawnedProcess(
            program, arguments, environment: inheritedEnvironment(["NO_COLOR": "1"].merging(environment) { $1 }),
            output: .pipe, errors: readingErrors ? .intoOutput : .null)
    }

    /// The next line it prints; fails after `timeout` seconds or at its end.
    func readLine(timeout: Int32 = 20) async throws -> String {
        let index = lock.withLock { linesRead }
        let line = try await process.line(index, timeout: TimeInterval(timeout))
        lock.withLock { linesRead = index + 1 }
        return line
    }

    /// Sends `signal` (SIGTERM unless told: a server that finishes its keep-alive connections first wants SIGKILL) and waits
    /// (SIGKILL after 30 s).
    func stop(signal: Int32 = SIGTERM) {
        process.signal(signal)
        _ = try? process.exitStatus(within: 30)
    }

    /// Its exit status (128 + the signal that ended it), -1 while it runs.
    var exitStatus: Int32 { process.status ?? -1 }

    deinit { stop() }
}
