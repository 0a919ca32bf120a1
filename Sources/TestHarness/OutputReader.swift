import Foundation

/// One output of a child (a pipe's read end), read to its end on a thread of its own as it comes,
/// so that a full pipe never blocks the child; the test awaits lines of it or its end.
///
/// The output ends when every writer has closed the pipe: the child, and anything it started
/// that kept it.
public final class OutputReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    /// Its complete lines so far, without their newlines (`bytes` split as they come).
    private var complete: [String] = []
    private var lineStart = 0
    private var ended = false

    /// Starts reading `fd`, which it closes at the end.
    init(reading fd: Int32) {
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                condition.withLock {
                    if count > 0 { append(buffer[..<count]) } else { ended = true }
                    condition.broadcast()
                }
                if count <= 0 { close(fd); return }
            }
        }.start()
    }

    private func append(_ chunk: ArraySlice<UInt8>) {
        bytes += chunk
        while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: bytes[lineStart..<newline], as: UTF8.self))
            lineStart = newline + 1
        }
    }

    /// Everything read so far, exactly.
    public var text: String { condition.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Its lines so far: the complete ones, and the last unterminated one once the output ended.
    public var lines: [String] { condition.withLock { linesNow } }

    private var linesNow: [String] {
        ended && lineStart < bytes.count ? complete + [String(decoding: bytes[lineStart...], as: UTF8.self)] : complete
    }

    /// The first line (from the start) containing `needle`; fails after `timeout` seconds or when
    /// the output ends without one.
    public func awaitLine(containing needle: String, timeout: TimeInterval) throws -> String {
        try awaitLine(timeout: timeout, missing: "\"\(needle)\"") { lines in lines.first { $0.contains(needle) } }
    }

    /// Line `index` (from 0); fails after `timeout` seconds or when the output ends before it.
    public func line(_ index: Int, timeout: TimeInterval) throws -> String {
        try awaitLine(timeout: timeout, missing: "line \(index + 1)") { lines in index < lines.count ? lines[index] : nil }
    }

    private func awaitLine(timeout: TimeInterval, missing: String, _ find: ([String]) -> String?) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        return try condition.withLock {
            while true {
                if let line = find(linesNow) { return line }
                if ended { throw HarnessFailure("its output ended without \(missing):\n\(linesNow.joined(separator: "\n"))") }
                guard condition.wait(until: deadline) else {
                    throw HarnessFailure("no \(missing) within \(Int(timeout)) s:\n\(linesNow.joined(separator: "\n"))")
                }
            }
        }
    }

    /// Waits until the output ended; false if it did not by `deadline`.
    public func awaitEnd(until deadline: Date) -> Bool {
        condition.withLock {
            while !ended {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }
}
