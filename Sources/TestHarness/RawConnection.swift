import Foundation
import UnixSocket

/// A blocking Unix-socket connection that speaks a line protocol by hand, like `socat`: bytes
/// out, lines (or counted bytes) in, nothing decoded. The tests send todod what no client
/// library would (a hostile frame, a flood of requests) and read its frames as text; the bench
/// times todod and Redis through it, the thinnest client there is (no event loop, no task to
/// wake), so that a round trip it times is the server's and the kernel's.
///
/// Lines are read into one buffer and handed out as ranges of it (`nextLine`, `bytes(in:)`),
/// so that the bench's timed loop copies nothing; the tests take them as text (`readLine`,
/// `awaitLine`). One thread uses it at a time (hence unchecked: it is handed to the thread that
/// reads, never shared by two); the socket closes when it goes away.
public final class RawConnection: @unchecked Sendable {
    /// -1 once `closeUnread` closed it.
    private var fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// The receive timeout the socket has now (`SO_RCVTIMEO`); nil: none, a read waits for ever.
    private var receiveTimeout: TimeInterval?

    /// The server closed the connection (or reset it).
    public struct Closed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Connects to the socket at `path`; says why not (no such socket, nobody listens, the path
    /// too long).
    public init(path: String) throws {
        let doing = "connect to \(path)"
        do {
            fd = try openUnixSocket(SOCK_STREAM, UnixAddress.connect, UnixAddress(path: path), doing: doing)
        } catch let error as UnixAddress.TooLong {
            throw HarnessFailure("cannot \(doing): \(error)")
        }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    // MARK: Out

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else {
                if count < 0 && errno == EINTR { continue }
                throw Closed(description: "the server closed the connection while it was being written to (\(SocketCallError()))")
            }
            sent += count
        }
    }

    /// Writes all of `text`.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Waits until the server has sent something (at most `timeout` seconds), then closes
    /// without reading it, as a client that exits mid-answer does: closing a Unix socket with
    /// bytes unread resets the connection, and the server's next read fails with ECONNRESET.
    public func closeUnread(timeout: TimeInterval = 20) throws {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, Int32(timeout * 1000)) == 1 else {
            throw HarnessFailure("the server sent nothing within \(Int(timeout)) s to leave unread")
        }
        Glibc.close(fd)
        fd = -1
    }

    /// Shuts the sending side, as `echo … | socat` does at the end of its input.
    public func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    // MARK: In, as ranges of the buffer (the bench's timed loops)

    /// The next line, newline excluded, as a range of `bytes(in:)`; valid until the next read.
    /// Throws `Closed` at the end of the connection, and fails after `timeout` seconds without
    /// data (nil: waits as long as it takes).
    public func nextLine(timeout: TimeInterval? = nil) throws -> Range<Int> {
        var scanned = 0  // bytes after `start` known to hold no newline (fill() may move `start`)
        while true {
            let from = start + scanned
            let newline = buffer.withUnsafeBytes { bytes -> Int? in
                guard from < end, let found = memchr(bytes.baseAddress! + from, 10, end - from) else { return nil }
                return UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!)
            }
            if let newline {
                defer { start = newline + 1 }
                return start..<newline
            }
            scanned = end - start
            try fill(timeout: timeout)
        }
    }

    /// The next `count` bytes, as a range of `bytes(in:)`; valid until the next read.
    public func next(exactly count: Int, timeout: TimeInterval? = nil) throws -> Range<Int> {
        while end - start < count { try fill(timeout: timeout) }
        defer { start += count }
        return start..<(start + count)
    }

    /// Whether the bytes of `range` (from `nextLine` or `next(exactly:)`) contain `needle` (not empty).
    public func contains(_ needle: [UInt8], in range: Range<Int>) -> Bool {
        // glibc's memmem needs _GNU_SOURCE, which Swift's Glibc module does not define:
        // memchr finds each candidate first byte, memcmp checks the rest.
        buffer.withUnsafeBytes { bytes in
            needle.withUnsafeBytes { needleBytes in
                let base = UnsafeRawPointer(bytes.baseAddress!)
                var from = range.lowerBound
                let last = range.upperBound - needle.count
                while from <= last {
                    guard let found = memchr(base + from, Int32(needle[0]), last + 1 - from) else { return false }
                    let offset = UnsafeRawPointer(found) - base
                    if memcmp(found, needleBytes.baseAddress!, needle.count) == 0 { return true }
                    from = offset + 1
                }
                return false
            }
        }
    }

    /// A copy of the bytes of `range`, to check an answer outside a timed loop.
    public func bytes(in range: Range<Int>) -> [UInt8] { Array(buffer[range]) }

    // MARK: In, as text (the tests)

    /// The next line (without its newline); nil when the server closed the connection. Fails
    /// after `timeout` seconds without data.
    public func readLine(timeout: TimeInterval = 20) async throws -> String? {
        try await blocking { [self] in
            do {
                return String(decoding: bytes(in: try nextLine(timeout: timeout)), as: UTF8.self)
            } catch is Closed {
                return nil
            }
        }
    }

    /// Lines until one contains every needle; fails when the connection closes first, or after
    /// `timeout` seconds without data.
    public func awaitLine(containing needles: String..., timeout: TimeInterval = 20) async throws -> String {
        while let line = try await readLine(timeout: timeout) {
            if needles.allSatisfy(line.contains) { return line }
        }
        throw HarnessFailure("the connection closed before a line with \(needles)")
    }

    /// Hands `body` each line read (as bytes, without its newline) until it returns false or the
    /// server closes the connection; fails after `timeout` seconds without data. For a test that
    /// reads many lines quickly, on a thread that may block.
    public func readLines(timeout: TimeInterval = 20, _ body: (ArraySlice<UInt8>) throws -> Bool) throws {
        while true {
            let line: Range<Int>
            do { line = try nextLine(timeout: timeout) } catch is Closed { return }
            guard try body(buffer[line]) else { return }
        }
    }

    /// Reads what the socket has into the buffer, first moving the unread bytes to its front and
    /// growing it when a line is longer than it.
    private func fill(timeout: TimeInterval?) throws {
        if timeout != receiveTimeout { try setReceiveTimeout(timeout) }
        if start > 0 {
            buffer.withUnsafeMutableBytes { bytes in _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, end - start) }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + end, $0.count - end, 0) }
        guard count > 0 else {
            if count < 0 && errno == EINTR { return }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw HarnessFailure("nothing came from the server within \(Int(timeout ?? 0)) s")
            }
            throw Closed(description: "the server closed the connection before it answered")
        }
        end += count
    }

    /// `SO_RCVTIMEO`: set once per change, so that a loop with one timeout (or none, the bench's)
    /// costs one system call a read, the read.
    private func setReceiveTimeout(_ timeout: TimeInterval?) throws {
        // 0 in SO_RCVTIMEO is no timeout at all: a timeout of 0 waits a microsecond.
        let seconds = timeout.map { max($0, 0.000_001) } ?? 0
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw HarnessFailure("cannot set the socket's receive timeout: \(SocketCallError())")
        }
        receiveTimeout = timeout
    }
}
