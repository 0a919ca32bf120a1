import NIOCore
import NIOPosix
import Synchronization

/// Counts the lines that reach a crowd of bare connections: the first line of each is
/// its hello, every later one a broadcast. A write's fan-out is over when every
/// connection has its line.
final class FanOutTracker: Sendable {
    private struct State {
        var hellos = 0
        var helloTarget = 0
        var helloWaiter: CheckedContinuation<Void, Never>?
        var received = 0
        var expected = Int.max
        var first: UInt64 = 0
        var waiter: CheckedContinuation<(first: UInt64, last: UInt64), Never>?
    }

    private let state = Mutex(State())

    func lines(_ count: Int, helloPending: Bool, at time: UInt64) {
        var broadcasts = count
        var resumeHello: CheckedContinuation<Void, Never>?
        var resume: (CheckedContinuation<(first: UInt64, last: UInt64), Never>, UInt64)?
        state.withLock { state in
            if helloPending {
                broadcasts -= 1
                state.hellos += 1
                if state.hellos >= state.helloTarget, let waiter = state.helloWaiter {
                    state.helloWaiter = nil
                    resumeHello = waiter
                }
            }
            guard broadcasts > 0 else { return }
            if state.received == 0 { state.first = time }
            state.received += broadcasts
            if state.received >= state.expected, let waiter = state.waiter {
                state.waiter = nil
                resume = (waiter, state.first)
            }
        }
        resumeHello?.resume()
        if let (waiter, first) = resume { waiter.resume(returning: (first, time)) }
    }

    /// Returns once `count` connections have their hello.
    func awaitHellos(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                state.helloTarget = count
                if state.hellos >= count { return true }
                state.helloWaiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Arms the tracker for the next broadcast, which `expected` connections must receive.
    func arm(expected: Int) {
        state.withLock { state in
            state.received = 0
            state.expected = expected
        }
    }

    /// When the first and the last connection received the armed broadcast.
    func awaitDelivery() async -> (first: UInt64, last: UInt64) {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> (UInt64, UInt64)? in
                if state.received >= state.expected { return (state.first, now()) }
                state.waiter = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}

/// A connection that only counts the lines it receives (no JSON decoding): the daemon's
/// fan-out is measured, not a client library's decoder.
final class LineCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let tracker: FanOutTracker
    private var helloPending = true

    init(tracker: FanOutTracker) {
        self.tracker = tracker
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let time = now()
        let buffer = unwrapInboundIn(data)
        let bytes = buffer.readableBytesUInt8Span
        var count = 0
        for index in bytes.indices where bytes[index] == 10 { count += 1 }
        guard count > 0 else { return }
        tracker.lines(count, helloPending: helloPending, at: time)
        helloPending = false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Opens `count` counting connections to the daemon, a few at a time (the listen
/// backlog is 256), and waits for every hello.
func connectListeners(_ count: Int, to path: String, tracker: FanOutTracker) async throws -> [any Channel] {
    @Sendable func connect() async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineCounter(tracker: tracker))
                }
            }
            .connect(unixDomainSocketPath: path).get()
    }
    var channels: [any Channel] = []
    var start = 0
    while start < count {
        let chunk = min(100, count - start)
        let opened = try await withThrowingTaskGroup(of: (any Channel).self) { group in
            for _ in 0..<chunk {
                group.addTask { try await connect() }
            }
            var opened: [any Channel] = []
            for try await channel in group { opened.append(channel) }
            return opened
        }
        channels += opened
        start += chunk
        await tracker.awaitHellos(start)
    }
    return channels
}
