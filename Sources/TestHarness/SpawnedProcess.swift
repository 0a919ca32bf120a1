import Foundation

/// A program the tests started (see `spawn` for why not with Foundation's `Process`): its output
/// read as it comes, its end awaited. A thread of its own waits for the child's pid, so it is
/// reaped however it ends, whatever it does with its descriptors (Foundation's `Process` waits for
/// a socket it leaves in the child to close, which `systemd --user` closes early and a tmux server
/// keeps open; swift-corelibs-foundation#4795).
public final class SpawnedProcess: @unchecked Sendable {
    /// Where its standard output or error goes.
    public enum Destination: Sendable {
        case null
        /// A pipe this process reads: `outputReader` or `errorReader`.
        case pipe
        /// A file, created or truncated (a daemon's log).
        case file(String)
        /// Its errors where its output goes, as they interleave (`errors` only: `2>&1`).
        case intoOutput
    }

    public let pid: pid_t
    /// Its standard output (with its errors, when they go `.intoOutput`), if it goes to a pipe.
    public let outputReader: OutputReader?
    /// Its standard error, if it goes to a pipe of its own.
    public let errorReader: OutputReader?
    private let exit: ExitStatus

    /// Starts `program` (a path) with exactly `environment`. `input` is written to its standard
    /// input on a thread of its own, which is then closed (nil: /dev/null).
    public init(
        _ program: String, _ arguments: [String], environment: [String: String], input: [UInt8]? = nil,
        output: Destination = .pipe, errors: Destination = .intoOutput, directory: String? = nil
    ) throws {
        _ = ignoreBrokenPipes
        let outputPipe = output.isPipe ? try ChildPipe() : nil
        let errorPipe = errors.isPipe ? try ChildPipe() : nil
        let inputPipe = input == nil ? nil : try ChildPipe()
        let ours = [outputPipe?.readEnd, errorPipe?.readEnd, inputPipe?.writeEnd].compactMap { $0 }
        let theirs = [outputPipe?.writeEnd, errorPipe?.writeEnd, inputPipe?.readEnd].compactMap { $0 }
        defer { theirs.forEach { close($0) } }
        func descriptor(_ destination: Destination, _ pipe: ChildPipe?, isErrors: Bool) -> ChildDescriptor {
            switch destination {
            case .null: .null
            case .pipe: .descriptor(pipe!.writeEnd)
            case .file(let path): .file(path)
            // Output "into the output" would be nowhere.
            case .intoOutput: isErrors ? .standardOutput : .null
            }
        }
        do {
            pid = try spawn(
                program, arguments, environment: environment, directory: directory,
                stdin: inputPipe.map { .descriptor($0.readEnd) } ?? .null,
                stdout: descriptor(output, outputPipe, isErrors: false), stderr: descriptor(errors, errorPipe, isErrors: true))
        } catch {
            ours.forEach { close($0) }
            throw error
        }
        outputReader = outputPipe.map { OutputReader(reading: $0.readEnd) }
        errorReader = errorPipe.map { OutputReader(reading: $0.readEnd) }
        exit = ExitStatus(waitingFor: pid)
        if let input, let fd = inputPipe?.writeEnd {
            // A child that exits without reading it all gets EPIPE here, not us a SIGPIPE.
            Thread {
                var written = 0
                while written < input.count {
                    let rest = Array(input[written...])
                    let count = write(fd, rest, rest.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    written += count
                }
                close(fd)
            }.start()
        }
    }

    public var isRunning: Bool { exit.status == nil }

    /// Its exit status, or 128 + the signal that ended it (as a shell reports it), once it ended.
    public var status: Int32? { exit.status }

    /// Everything it printed so far, line by line (see `OutputReader.lines`).
    public var output: String { outputReader?.lines.joined(separator: "\n") ?? "" }

    /// The first line (from the start) of its output containing `needle`; fails after `timeout`
    /// seconds or when the output ends without one.
    public func awaitLine(containing needle: String, timeout: TimeInterval = 30) async throws -> String {
        let reader = try reader()
        return try await blocking { try reader.awaitLine(containing: needle, timeout: timeout) }
    }

    /// Line `index` (from 0) of its output; fails after `timeout` seconds or at the output's end.
    public func line(_ index: Int, timeout: TimeInterval) async throws -> String {
        let reader = try reader()
        return try await blocking { try reader.line(index, timeout: timeout) }
    }

    private func reader() throws -> OutputReader {
        guard let outputReader else { throw HarnessFailure("process \(pid)'s output is not read: start it with `output: .pipe`") }
        return outputReader
    }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Its exit status (see `status`); SIGKILL to its process group and a failure after `timeout` seconds.
    public func waitForExit(timeout: TimeInterval = 30) async throws -> Int32 {
        try await blocking { [self] in try exitStatus(within: timeout) }
    }

    /// `waitForExit`, blocking this thread.
    public func exitStatus(within timeout: TimeInterval) throws -> Int32 {
        if let status = exit.wait(until: Date().addingTimeInterval(timeout)) { return status }
        kill(-pid, SIGKILL)
        throw HarnessFailure("process \(pid) did not exit within \(Int(timeout)) s; it was killed")
    }

    /// Its exit status, however long it takes, blocking this thread.
    public func waitUntilExit() -> Int32 { exit.wait(until: nil)! }

    /// SIGTERM, then waits for the end (SIGKILL to its group after `timeout` seconds); for
    /// synchronous cleanup.
    public func stopNow(timeout: TimeInterval = 30) {
        signal(SIGTERM)
        if exit.wait(until: Date().addingTimeInterval(timeout)) == nil {
            kill(-pid, SIGKILL)
            _ = waitUntilExit()
        }
    }

    /// Everything it printed (line by line), once its output has ended (every writer closed it).
    public func outputToItsEnd(timeout: TimeInterval) async throws -> String {
        let reader = try reader()
        return try await blocking { [pid] in
            guard reader.awaitEnd(until: Date().addingTimeInterval(timeout)) else {
                throw HarnessFailure("the output of \(pid) did not end within \(Int(timeout)) s: something it started still holds it")
            }
            return reader.lines.joined(separator: "\n")
        }
    }

    // A child left running by a failed test goes with its SpawnedProcess, and what it started with
    // it (it leads its own process group).
    deinit {
        if isRunning { kill(-pid, SIGKILL) }
    }
}

/// The exit status of one child, from a thread that waits for its pid.
private final class ExitStatus: @unchecked Sendable {
    private let condition = NSCondition()
    private var code: Int32?

    init(waitingFor pid: pid_t) {
        Thread { [self] in
            var raw: Int32 = 0
            var waited: pid_t
            repeat { waited = waitpid(pid, &raw, 0) } while waited == -1 && errno == EINTR
            // -1 when it cannot be known (never 0, which would pass for success).
            let code = waited != pid ? -1 : raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            condition.withLock {
                self.code = code
                condition.broadcast()
            }
        }.start()
    }

    var status: Int32? { condition.withLock { code } }

    /// The status, or nil if it is still running at `deadline` (nil: no deadline; NSCondition
    /// traps on `.distantFuture`).
    func wait(until deadline: Date?) -> Int32? {
        condition.withLock {
            while code == nil {
                if let deadline {
                    guard condition.wait(until: deadline) else { return nil }
                } else {
                    condition.wait()
                }
            }
            return code
        }
    }
}

/// A pipe whose two ends are closed on exec: only the end `spawn` gives a child reaches it.
private struct ChildPipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HarnessFailure("cannot make a pipe: \(String(cString: strerror(errno))); too many open files?") }
        (readEnd, writeEnd) = (ends[0], ends[1])
        // pipe2(O_CLOEXEC) is not in Swift's Glibc module; `spawn` closes from 3 up in its
        // children anyway, so this is for anything else that might exec.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    }
}

extension SpawnedProcess.Destination {
    fileprivate var isPipe: Bool { if case .pipe = self { true } else { false } }
}

/// Writing a child's input after it exited must fail with EPIPE, not kill the test process.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
