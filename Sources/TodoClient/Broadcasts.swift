import Synchronization

/// The broadcasts of one `TodoClient`, bounded: at most `limit` unread. Past it, further
/// changes are dropped and one `.missed` takes their place, so a user that stops reading
/// (`todoctl events | (sleep 60; cat)`) costs at most `limit` frames of memory.
public struct Broadcasts: AsyncSequence, Sendable {
    public typealias Element = Broadcast

    private let stream: AsyncStream<Broadcast>
    private let gauge: Gauge

    /// How many are unread, and whether changes are being dropped until `.missed` is read.
    final class Gauge: Sendable {
        private struct State {
            var unread = 0
            var dropping = false
        }
        private let state = Mutex(State())
        private let sink: AsyncStream<Broadcast>.Continuation
        let limit: Int

        init(limit: Int, sink: AsyncStream<Broadcast>.Continuation) {
            self.limit = limit
            self.sink = sink
        }

        /// Hands over a change, or drops it when `limit` are unread; a goodbye (`bounded`
        /// false) always goes, as the last thing said. Called from one thread (the
        /// connection's event loop), so the order is the daemon's.
        func deliver(_ broadcast: Broadcast, bounded: Bool = true) {
            let delivered: Broadcast? = state.withLock { state in
                if state.dropping && bounded { return nil }
                state.unread += 1
                if state.unread > limit && bounded {
                    state.dropping = true
                    return .missed
                }
                return broadcast
            }
            if let delivered { sink.yield(delivered) }
        }

        func finish() { sink.finish() }

        func consumed(_ broadcast: Broadcast) {
            state.withLock { state in
                state.unread -= 1
                if broadcast == .missed { state.dropping = false }
            }
        }
    }

    init(limit: Int) {
        let (stream, sink) = AsyncStream.makeStream(of: Broadcast.self, bufferingPolicy: .unbounded)
        self.stream = stream
        gauge = Gauge(limit: limit, sink: sink)
    }

    /// Where the connection hands its broadcasts.
    var input: Gauge { gauge }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), gauge: gauge)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Broadcast>.Iterator
        let gauge: Gauge

        public mutating func next() async -> Broadcast? {
            guard let broadcast = await base.next() else { return nil }
            gauge.consumed(broadcast)
            return broadcast
        }
    }
}
