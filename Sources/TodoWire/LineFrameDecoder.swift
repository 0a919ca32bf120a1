import NIOCore

/// Splits a byte stream into lines (without their `\n`, and without a `\r` before it).
/// A line longer than `maximumLength` raises `LineTooLongError` instead of growing the
/// buffer without end.
public struct LineFrameDecoder: NIOSingleStepByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    public let maximumLength: Int
    // Bytes already searched for a newline, so a long line arriving in pieces is scanned once.
    private var scanned = 0

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        // Each read's bytes are searched once: a long line arrives in many reads. (The view's
        // firstIndex(of:) is NIO's, bounds-checked, and fast.)
        let view = buffer.readableBytesView
        let readable = view.count
        let found = scanned < readable ? view[(view.startIndex + scanned)...].firstIndex(of: UInt8(ascii: "\n")).map { $0 - view.startIndex } : nil
        guard let length = found else {
            scanned = readable
            if readable > maximumLength { throw LineTooLongError(maximumLength: maximumLength) }
            return nil
        }
        scanned = 0
        if length > maximumLength { throw LineTooLongError(maximumLength: maximumLength) }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        return line
    }

    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> ByteBuffer? {
        if let line = try decode(buffer: &buffer) { return line }
        // A last line without its newline still counts.
        guard seenEOF, buffer.readableBytes > 0 else { return nil }
        scanned = 0
        return buffer.readSlice(length: buffer.readableBytes)
    }
}

/// A line was longer than the protocol allows.
public struct LineTooLongError: Error, Sendable, CustomStringConvertible {
    public let maximumLength: Int

    public var description: String {
        "a line was longer than \(maximumLength) bytes, the protocol's limit: split the request or shorten its fields"
    }
}
