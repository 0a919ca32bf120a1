import Foundation
import UnixSocket

#if canImport(Glibc)
import Glibc
#endif

/// A plain blocking Unix-socket connection, used from one thread at a time, one request in flight:
/// the thinnest client there is (no event loop, no task to wake), so that a round trip it
/// times is the server's and the kernel's, whichever server it talks to. todod and Redis
/// are timed through this same code (`RoundTripProbe`).
final class BlockingConnection: @unchecked Sendable {
    private let descriptor: CInt
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0

    /// The server closed the connection (or reset it).
    struct Closed: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String) throws {
        descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket() failed: \(String(cString: strerror(errno)))") }
        guard let address = try? UnixAddress(path: path) else {
            Glibc.close(descriptor)
            throw BenchError("the socket path \(path) is too long for a Unix socket; give todobench a shorter --dir")
        }
        guard address.connect(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw BenchError("cannot connect to \(path): \(reason)")
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, CInt(MSG_NOSIGNAL)) }
            guard count > 0 else {
                if count < 0 && errno == EINTR { continue }
                throw Closed(description: "the server closed the connection while it was being written to")
            }
            sent += count
        }
    }

    /// The next line, newline excluded, as a range of `bytes(in:)`; valid until the next read.
    func readLine() throws -> Range<Int> {
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
            try fill()
        }
    }

    /// The next `count` bytes, as a range of `bytes(in:)`; valid until the next read.
    func read(exactly count: Int) throws -> Range<Int> {
        while end - start < count { try fill() }
        defer { start += count }
        return start..<(start + count)
    }

    /// Whether the bytes of `range` (from `readLine` or `read`) contain `needle` (not empty).
    func contains(_ needle: [UInt8], in range: Range<Int>) -> Bool {
        // glibc's memmem needs _GNU_SOURCE, which Swift's Glibc module does not define:
        // memchr finds each candidate first byte, memcmp checks the rest.
        buffer.withUnsafeBytes { bytes in
            needle.withUnsafeBytes { needleBytes in
                let base = UnsafeRawPointer(bytes.baseAddress!)
                var from = range.lowerBound
                let last = range.upperBound - needle.count
                while from <= last {
                    guard let found = memchr(base + from, CInt(needle[0]), last + 1 - from) else { return false }
                    let offset = UnsafeRawPointer(found) - base
                    if memcmp(found, needleBytes.baseAddress!, needle.count) == 0 { return true }
                    from = offset + 1
                }
                return false
            }
        }
    }

    /// A copy of the bytes of `range`, to check an answer outside the timed loop.
    func bytes(in range: Range<Int>) -> [UInt8] { Array(buffer[range]) }

    /// Reads what the socket has into the buffer, first moving the unread bytes to its
    /// front and growing it when a frame is longer than it.
    private func fill() throws {
        if start > 0 {
            buffer.withUnsafeMutableBytes { bytes in _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, end - start) }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + end, $0.count - end, 0) }
        guard count > 0 else {
            if count < 0 && errno == EINTR { return }
            throw Closed(description: "the server closed the connection before it answered")
        }
        end += count
    }
}
