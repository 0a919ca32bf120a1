import Synchronization

/// The one stream of events (the article's `AppContext`): anyone publishes, subscribers
/// receive the kinds they asked for, in the order the bus numbered them.
///
/// Dispatch goes straight to the subscribers of an event's kind, so a publish costs
/// the same however many subscribers wait for other kinds.
public final class EventBus: Sendable {
    /// Counts that show what dispatch cost: tests and benchmarks read them.
    public struct Statistics: Sendable, Equatable {
        public var published: UInt64 = 0
        /// Envelopes handed to subscribers, summed over all publishes.
        public var delivered: UInt64 = 0
    }

    private typealias Subscriber = AsyncStream<Envelope>.Continuation

    private struct State {
        var lastSequence: UInt64 = 0
        var nextSubscriberID: UInt64 = 0
        var subscribers: [EventKind: [UInt64: Subscriber]] = [:]
        var statistics = Statistics()
    }

    private let state = Mutex(State())

    public init() {}

    /// Publishes an event and returns it as delivered, with its sequence number.
    @discardableResult
    public func publish(_ event: Event, correlation: Correlation? = nil) -> Envelope {
        state.withLock { state in
            state.lastSequence += 1
            let envelope = Envelope(sequence: state.lastSequence, correlation: correlation, event: event)
            state.statistics.published += 1
            // Yielding under the lock keeps every subscriber's order the bus's order.
            if let subscribers = state.subscribers[event.kind] {
                for subscriber in subscribers.values { subscriber.yield(envelope) }
                state.statistics.delivered += UInt64(subscribers.count)
            }
            return envelope
        }
    }

    /// The events of these kinds published from now on, in sequence order. The
    /// subscription ends when the iterating task is cancelled or the stream is dropped.
    public func subscribe(to kinds: Set<EventKind>) -> AsyncStream<Envelope> {
        let (stream, continuation) = AsyncStream<Envelope>.makeStream()
        let id = state.withLock { state in
            state.nextSubscriberID += 1
            for kind in kinds { state.subscribers[kind, default: [:]][state.nextSubscriberID] = continuation }
            return state.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id, from: kinds) }
        return stream
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The sequence number of the last published event.
    public var lastSequence: UInt64 { state.withLock { $0.lastSequence } }

    /// How many subscriptions are waiting for `kind`.
    public func subscriberCount(for kind: EventKind) -> Int {
        state.withLock { $0.subscribers[kind]?.count ?? 0 }
    }

    private func unsubscribe(_ id: UInt64, from kinds: Set<EventKind>) {
        state.withLock { state in
            for kind in kinds {
                state.subscribers[kind]?[id] = nil
                if state.subscribers[kind]?.isEmpty == true { state.subscribers[kind] = nil }
            }
        }
    }
}
