import NIOCore
import NIOPosix
import Synchronization
import TodoWire

/// A connection that speaks the protocol by hand, like `socat`: it sends request lines and
/// recognises its own answers by their `id`, without decoding any frame. Every change is
/// still broadcast to it (the daemon does the same work); it just does not read them
/// into values, so the writes it measures are the daemon's, not a client library's.
final class RawClient: Sendable {
    private let channel: any Channel
    private let matcher: AnswerMatcher
    private let prefix: String
    private let counter = Counter()

    private init(channel: any Channel, matcher: AnswerMatcher, prefix: String) {
        self.channel = channel
        self.matcher = matcher
        self.prefix = prefix
    }

    static func connect(to path: String, name: String) async throws -> RawClient {
        let handler = AnswerMatcher()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(LineFrameDecoder(maximumLength: WireProtocol.maximumResponseLength)), handler)
                }
            }
            .connect(unixDomainSocketPath: path).get()
        let client = RawClient(channel: channel, matcher: handler, prefix: name)
        return client
    }

    /// Sends `{"event":…,"id":…,"data":…}` and returns when the frame with that id comes back.
    func request(event: String, data: String) async throws {
        let id = "\(prefix)-\(counter.increment())"
        let line = ByteBuffer(string: #"{"event":"\#(event)","id":"\#(id)","data":\#(data)}"# + "\n")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            matcher.pending.withLock { $0[id] = continuation }
            channel.writeAndFlush(line, promise: nil)
        }
    }

    func close() async {
        try? await channel.close()
    }
}

/// Finds the `"id":"…"` near the end of each line (the daemon writes it last) and resumes
/// the request waiting for it.
final class AnswerMatcher: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    let pending = Mutex<[String: CheckedContinuation<Void, any Error>]>([:])

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard let id = AnswerMatcher.lastID(in: line) else { return }
        let waiter = pending.withLock { $0.removeValue(forKey: id) }
        waiter?.resume()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let waiters = pending.withLock { pending in
            defer { pending = [:] }
            return Array(pending.values)
        }
        for waiter in waiters { waiter.resume(throwing: BenchError("todod closed a raw connection")) }
        context.fireChannelInactive()
    }

    /// The id of `…,"id":"w3-17"}`: the last key of the frame (keys are sorted).
    static func lastID(in line: ByteBuffer) -> String? {
        let bytes = line.readableBytesUInt8Span
        let marker = Array(#","id":""#.utf8)
        let tail = max(0, bytes.count - 96)
        var index = bytes.count - marker.count
        while index >= tail {
            var matched = 0
            while matched < marker.count, bytes[index + matched] == marker[matched] { matched += 1 }
            if matched == marker.count {
                let start = index + marker.count
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                guard end < bytes.count else { return nil }
                return line.getString(at: line.readerIndex + start, length: end - start)
            }
            index -= 1
        }
        return nil
    }
}
