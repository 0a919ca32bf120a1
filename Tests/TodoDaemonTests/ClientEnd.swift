import NIOCore
import NIOEmbedded
import TodoViewModel
import TodoWire

/// The client's end of a connection, as the daemon's channel meets it: the first handler of
/// an `EmbeddedChannel`'s pipeline, next to where the socket would be.
///
/// An `EmbeddedChannel` takes every flushed write at once, as a socket whose client reads
/// faster than anyone writes. While this client does not read, what the daemon writes waits
/// here instead, its writes not complete, as in a socket whose buffer is full (NIO completes
/// a write once the kernel took it); `startReading()` lets it through in order, as a client
/// that reads. Closing fails the writes still waiting, as NIO's socket channels do.
///
/// It also counts what reaches the socket: writes that carry bytes, and flushes.
///
/// The tests' expectations take plain values (`let open = channel.isActive`), never a channel,
/// a connection or this end: a failed `#expect` reflects what it was given, and NIO's
/// description of a pipeline with no inbound handler (this one alone) crashes the test process.
final class ClientEnd: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var context: ChannelHandlerContext?
    private var waiting: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private(set) var reading: Bool
    /// Writes with at least one byte, and flushes, asked of the socket.
    private(set) var writes = 0
    private(set) var flushes = 0

    init(reading: Bool) {
        self.reading = reading
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        if buffer.readableBytes > 0 { writes += 1 }
        if reading {
            context.write(data, promise: promise)
        } else {
            waiting.append((buffer, promise))
        }
    }

    func flush(context: ChannelHandlerContext) {
        flushes += 1
        if reading { context.flush() }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        let failed = waiting
        waiting = []
        for (_, promise) in failed { promise?.fail(ChannelError.ioOnClosedChannel) }
        context.close(mode: mode, promise: promise)
    }

    /// The client reads from now on: what waited is taken, in order, and so is all that follows.
    func startReading() {
        reading = true
        guard let context else { return }
        let taken = waiting
        waiting = []
        for (buffer, promise) in taken { context.write(wrapOutboundOut(buffer), promise: promise) }
        context.flush()
    }
}

extension EmbeddedChannel {
    /// The lines the client has read so far (what reached the socket), without their newlines.
    /// A last piece without a newline would be half a frame: it comes out as it is, so a test
    /// that compares the lines sees it.
    func linesRead() throws -> [String] {
        var bytes = ByteBuffer()
        while var buffer = try readOutbound(as: ByteBuffer.self) { bytes.writeBuffer(&buffer) }
        var lines = String(buffer: bytes).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The value the channel's `autoRead` option was last set to (an `EmbeddedChannel`'s
    /// `getOption` always answers true), true if never set.
    var autoRead: Bool {
        options.last { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool ?? true
    }
}

/// A line the client read, as the frame it is.
func frame(_ line: String) throws -> WireFrame {
    try WireCodec().decodeResponse(ByteBuffer(string: line))
}

/// The code of the goodbye `line` is, nil if it is something else.
func goodbyeCode(_ line: String?) -> TodoError.Code? {
    guard let line, case .responseGoodbye(let reason)? = try? frame(line).event else { return nil }
    return reason.code
}
