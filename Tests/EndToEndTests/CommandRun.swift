import Foundation

/// The outcome of running a program to its end.
struct CommandResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs `todoctl` (or any program) with arguments, an environment and optional input,
/// and waits for it to exit; killed after `timeout` so a hang fails the test.
func run(
    _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
    timeout: TimeInterval = 30
) async throws -> CommandResult {
    try await blocking {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : binaryDirectory + "/" + program)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = "1"
        merged.merge(environment) { $1 }
        process.environment = merged
        let (out, err, inPipe) = (Pipe(), Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        let killer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        // Read both pipes to their end before waiting, so a full pipe cannot block the child.
        let errData = LockedData()
        let errRead = DispatchSemaphore(value: 0)
        Thread {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            errRead.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        errRead.wait()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }
}

/// Data handed from one thread to another.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    var value: Data { lock.withLock { data ?? Data() } }
}
