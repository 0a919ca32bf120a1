import Foundation

/// The outcome of running a program to its end.
public struct CommandResult: Sendable {
    /// Its exit status, or 128 + the signal that ended it.
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
    }

    /// Its output's non-empty lines.
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// The environment of the test process, with `changes` on top.
public func inheritedEnvironment(_ changes: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(changes) { $1 }
}

/// Runs `program` (a path) to its end with exactly `environment`, `input` on its standard input
/// (nil: /dev/null), in `directory`: its status, output and errors, read as they come. Killed with
/// what it started (and a failure) after `timeout` seconds; its output is read to its end, so
/// something it started that keeps holding its output fails the call 5 s later.
public func runToEnd(
    _ program: String, _ arguments: [String], environment: [String: String], input: [UInt8]? = nil,
    directory: String? = nil, timeout: TimeInterval = 30
) async throws -> CommandResult {
    try await blocking {
        try runToEndNow(program, arguments, environment: environment, input: input, directory: directory, timeout: timeout)
    }
}

/// `runToEnd`, blocking this thread (synchronous setup and fixtures).
public func runToEndNow(
    _ program: String, _ arguments: [String], environment: [String: String], input: [UInt8]? = nil,
    directory: String? = nil, timeout: TimeInterval = 30
) throws -> CommandResult {
    let child = try SpawnedProcess(
        program, arguments, environment: environment, input: input,
        output: .pipe, errors: .pipe, directory: directory)
    let status: Int32
    do { status = try child.exitStatus(within: timeout) } catch {
        let printed = (child.outputReader?.text ?? "") + (child.errorReader?.text ?? "")
        throw HarnessFailure("\(program) \(arguments.joined(separator: " ")) did not exit within \(Int(timeout)) s and was killed; it printed:\n\(printed)")
    }
    let deadline = Date().addingTimeInterval(5)
    for reader in [child.outputReader, child.errorReader].compactMap({ $0 }) where !reader.awaitEnd(until: deadline) {
        throw HarnessFailure("\(program) exited \(status) but its output did not end within 5 s: something it started still holds it")
    }
    return CommandResult(status: status, stdout: child.outputReader?.text ?? "", stderr: child.errorReader?.text ?? "")
}
