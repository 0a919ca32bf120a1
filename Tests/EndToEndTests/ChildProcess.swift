import Foundation
import TestHarness

/// A process started with exactly the environment given, whose output (stdout and stderr
/// together) a test reads as it comes: `systemd-socket-activate`, a packaged todod, a user
/// manager, tmux. Spawned and reaped by TestHarness (see there why not with `Process`).
typealias ChildProcess = SpawnedProcess

extension SpawnedProcess {
    /// Runs a program to its end: its status and its output and errors together, line by line.
    /// Killed (and a failure) after `timeout` seconds; the output is read to its end, so a child
    /// left behind holding it fails the call after 5 s more (tmux's server lets go of it at once).
    static func run(_ program: String, _ arguments: [String], environment: [String: String], timeout: TimeInterval = 30) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(program, arguments, environment: environment)
        let status = try await child.waitForExit(timeout: timeout)
        return (status, try await child.outputToItsEnd(timeout: 5))
    }
}
