import NIOCore
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// Newline-delimited frames read from a blocking socket into one growing buffer; each
/// line is handed out as a slice of it, without copying.
struct FrameReader {
    let fd: Int32
    private var buffer = ByteBufferAllocator().buffer(capacity: 64 << 10)
    /// Readable bytes already searched for a newline, so a long line is searched once.
    private var scanned = 0

    /// The last read failed because its time ran out (`SO_RCVTIMEO`), not because the connection did.
    private(set) var timedOut = false

    init(fd: Int32) {
        self.fd = fd
    }

    /// The next line without its newline; nil when the daemon closed the connection.
    mutating func next() throws(TodoClientError) -> ByteBuffer? {
        while true {
            if let length = lineLength() {
                scanned = 0
                defer { buffer.moveReaderIndex(forwardBy: 1) }
                return buffer.readSlice(length: length)
            }
            scanned = buffer.readableBytes
            guard scanned <= WireProtocol.maximumResponseLength else {
                throw .answerTooLong(bytes: WireProtocol.maximumResponseLength)
            }
            if buffer.readerIndex > 0 { buffer.discardReadBytes() }
            // Read at least 64 KiB at a time, and more as a long line (a big list) grows.
            var failure: Int32 = 0
            // read(2) fills the buffer's free room in place: its address is the kernel's, for the call only.
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: max(64 << 10, scanned)) { space in
                while true {
                    let count = read(fd, space.baseAddress, space.count)
                    if count >= 0 { return count }
                    if errno != EINTR { failure = errno; return 0 }
                }
            }
            // A read limited in time (`TodoConnection`'s wait for the hello) that ran out.
            timedOut = failure == EAGAIN || failure == EWOULDBLOCK
            if failure == ECONNRESET { return nil }
            if failure != 0 { throw .disconnected(nil) }
            if count == 0 { return nil }
        }
    }

    /// The length of the first whole line in the buffer, if there is one.
    private func lineLength() -> Int? {
        // memchr(3), glibc's vectorised search, on the bytes in place: a list's line is megabytes.
        buffer.withUnsafeReadableBytes { bytes -> Int? in
            guard bytes.count > scanned, let base = bytes.baseAddress,
                  let newline = memchr(base + scanned, Int32(UInt8(ascii: "\n")), bytes.count - scanned)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(newline))
        }
    }
}
