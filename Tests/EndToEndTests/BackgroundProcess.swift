import Foundation

/// A long-running command (`todoctl events`, `todoctl watch --plain`) whose output a
/// test reads line by line while it runs.
final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    /// With `readingErrors`, its error output is read as its output (a server that logs there).
    init(_ program: String, _ arguments: [String], environment: [String: String] = [:], readingErrors: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = "1"
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardOutput = output
        process.standardError = readingErrors ? output : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The next line it prints; fails after `timeout` seconds or at its end.
    func readLine(timeout: Int32 = 20) async throws -> String {
        try await blocking { try self.readLineNow(timeout: timeout) }
    }

    private func readLineNow(timeout: Int32) throws -> String {
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) == 1 else { throw TestFailure("no output within \(timeout) s") }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { throw TestFailure("the process ended") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Sends `signal` (SIGTERM unless told: a server that finishes its keep-alive connections first wants SIGKILL) and waits.
    func stop(signal: Int32 = SIGTERM) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
    }

    var exitStatus: Int32 { process.terminationStatus }

    deinit { stop() }
}
