import Foundation
import UnixSocket

/// A datagram socket standing in for systemd's notify socket (`NOTIFY_SOCKET`): the
/// daemon's `READY=1` is the event a test waits for before it talks to it. A thread
/// reads every datagram as it comes, as systemd does, so the daemon never waits on it.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let condition = NSCondition()
    private var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0, (try UnixAddress(path: path)).bind(fd) == 0 else { throw TestFailure("cannot bind the notify socket \(path): errno \(errno)") }
        Thread { [fd, condition] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                condition.withLock {
                    self.messages.append(String(decoding: buffer[..<count], as: UTF8.self))
                    condition.broadcast()
                }
            }
        }.start()
    }

    /// Stops the reader; the socket is closed with it.
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }

    /// Every datagram received so far.
    var received: [String] { condition.withLock { messages } }

    /// The first datagram (from the start) containing `needle`; fails after `timeout` seconds.
    func awaitMessage(containing needle: String, timeout: Int32 = 20) async throws -> String {
        try await blocking { [condition] in
            let deadline = Date().addingTimeInterval(TimeInterval(timeout))
            return try condition.withLock {
                while true {
                    if let found = self.messages.first(where: { $0.contains(needle) }) { return found }
                    guard condition.wait(until: deadline) else { throw TestFailure("no \(needle) from the daemon within \(timeout) s") }
                }
            }
        }
    }
}

/// A client speaking the protocol by hand, like `socat`: raw lines in and out.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, (try UnixAddress(path: path)).connect(fd) == 0 else { throw TestFailure("cannot connect to \(path): errno \(errno)") }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// The next line (without its newline); nil when the daemon closed the connection.
    /// Fails after `timeout` seconds without a whole line.
    func readLine(timeout: Int32 = 20) async throws -> String? {
        try await blocking { try self.readLineNow(timeout: timeout) }
    }

    private func readLineNow(timeout: Int32) throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) == 1 else { throw TestFailure("no line from the daemon within \(timeout) s") }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Hands `body` each line read (as bytes, without its newline) until it returns false
    /// or the daemon closes the connection; fails after `timeout` seconds without data.
    /// Reads 64 KiB at a time, for tests that read many lines quickly.
    func readLines(timeout: Int32 = 20, _ body: (ArraySlice<UInt8>) throws -> Bool) throws {
        var pending = buffer
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[start..<newline]
                start = newline + 1
                guard try body(line) else {
                    buffer = Array(pending[start...])
                    return
                }
            }
            pending.removeSubrange(..<start)
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) == 1 else { throw TestFailure("no data from the daemon within \(timeout) s") }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return }
            pending += chunk[..<count]
        }
    }

    /// Lines until one contains every needle; fails on close or timeout.
    func awaitLine(containing needles: String..., timeout: Int32 = 20) async throws -> String {
        while let line = try await readLine(timeout: timeout) {
            if needles.allSatisfy(line.contains) { return line }
        }
        throw TestFailure("the connection closed before a line with \(needles)")
    }

    /// Shuts the sending side, as `echo … | socat` does at the end of its input.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }
}
