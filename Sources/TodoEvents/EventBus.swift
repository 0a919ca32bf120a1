import Synchronization

/// The one stream of events (the article's `AppContext`): anyone publishes, subscribers
/// receive the kinds they asked for, in the order the bus numbered them.
///
/// Dispatch is synchronous, as a ReactiveCocoa `Signal.pipe()` is: `publish` calls the
/// handlers of that kind at once, on the publisher's thread, and returns when they have
/// run. An event published by a handler (a server answering) is queued and dispatched
/// right after the current one, by the same call, so every subscriber sees events in
/// sequence order and handlers never run two at a time: the bus is a serial executor.
/// When several threads publish at once, the one already dispatching delivers the
/// others' events too. A subscriber that wants its events elsewhere (a task, a test)
/// takes them as an `AsyncStream`, the article's `observeOn`.
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

    /// Called with each envelope of the subscribed kinds, on the dispatching thread.
    public typealias Handler = @Sendable (Envelope) -> Void

    /// What `subscribe(to:_:)` returns; `unsubscribe` takes it back.
    public struct Subscription: Sendable, Hashable {
        fileprivate let id: UInt64
        fileprivate let kinds: Set<BusEvent.Kind>
    }

    private struct Subscriber {
        let id: UInt64
        let handler: Handler
    }

    private struct State {
        var lastSequence: UInt64 = 0
        var nextSubscriberID: UInt64 = 0
        var subscribers: [BusEvent.Kind: [Subscriber]] = [:]
        /// Published and not yet dispatched: events published by handlers, or by other
        /// threads while one dispatches.
        var pending: [Envelope] = []
        var pendingStart = 0
        var dispatching = false
        var statistics = Statistics()
    }

    /// A lock, where the core's other state is bound to its loop: this layer knows no event loop,
    /// and its tests and the bench publish from many threads at once and end `AsyncStream`
    /// subscriptions on whatever thread drops them. In the daemon only the core takes it, uncontended.
    private let state = Mutex(State())

    public init() {}

    /// Publishes an event and returns it as numbered. Unless a dispatch is already under
    /// way, the event's subscribers have run when this returns.
    @discardableResult
    public func publish(_ event: Event, correlation: Correlation? = nil) -> Envelope {
        publish(.view(event), correlation: correlation)
    }

    /// Publishes a model event, as `publish(_:correlation:)` a view event.
    @discardableResult
    public func publish(_ event: ModelEvent, correlation: Correlation? = nil) -> Envelope {
        publish(.model(event), correlation: correlation)
    }

    @discardableResult
    public func publish(_ event: BusEvent, correlation: Correlation? = nil) -> Envelope {
        let (envelope, mustDispatch) = state.withLock { state in
            state.lastSequence += 1
            state.statistics.published += 1
            let envelope = Envelope(sequence: state.lastSequence, correlation: correlation, event: event)
            state.pending.append(envelope)
            defer { state.dispatching = true }
            return (envelope, !state.dispatching)
        }
        if mustDispatch { dispatchPending() }
        return envelope
    }

    /// Delivers every pending event in order, until none is left.
    private func dispatchPending() {
        while let (envelope, subscribers) = nextPending() {
            for subscriber in subscribers { subscriber.handler(envelope) }
        }
    }

    private func nextPending() -> (Envelope, [Subscriber])? {
        state.withLock { state in
            guard state.pendingStart < state.pending.count else {
                state.pending.removeAll(keepingCapacity: state.pending.count <= 64)
                state.pendingStart = 0
                state.dispatching = false
                return nil
            }
            let envelope = state.pending[state.pendingStart]
            state.pendingStart += 1
            let subscribers = state.subscribers[envelope.event.kind] ?? []
            state.statistics.delivered += UInt64(subscribers.count)
            return (envelope, subscribers)
        }
    }

    /// Calls `handler` with every event of these kinds published from now on, in sequence
    /// order, on the dispatching thread: it must not block.
    @discardableResult
    public func subscribe(to kinds: Set<EventKind>, _ handler: @escaping Handler) -> Subscription {
        subscribe(to: Set(kinds.map(BusEvent.Kind.view)), handler)
    }

    /// As `subscribe(to:_:)`, to view and model events (`[.view(.responseError), .model(.responseTodos)]`).
    @discardableResult
    public func subscribe(to kinds: Set<BusEvent.Kind>, _ handler: @escaping Handler) -> Subscription {
        state.withLock { state in
            state.nextSubscriberID += 1
            let subscriber = Subscriber(id: state.nextSubscriberID, handler: handler)
            for kind in kinds { state.subscribers[kind, default: []].append(subscriber) }
            return Subscription(id: subscriber.id, kinds: kinds)
        }
    }

    /// Ends a subscription: its handler is not called for events dispatched after this.
    public func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            for kind in subscription.kinds {
                state.subscribers[kind]?.removeAll { $0.id == subscription.id }
                if state.subscribers[kind]?.isEmpty == true { state.subscribers[kind] = nil }
            }
        }
    }

    /// The events of these kinds published from now on, in sequence order, for a consumer
    /// in another task. The subscription ends when the iterating task is cancelled or the
    /// stream is dropped. The stream buffers without bound: the daemon's own participants
    /// subscribe with handlers; this is for tests and tools.
    public func subscribe(to kinds: Set<EventKind>) -> AsyncStream<Envelope> {
        subscribe(to: Set(kinds.map(BusEvent.Kind.view)))
    }

    /// As `subscribe(to:)`, to view and model events.
    public func subscribe(to kinds: Set<BusEvent.Kind>) -> AsyncStream<Envelope> {
        let (stream, continuation) = AsyncStream<Envelope>.makeStream()
        let subscription = subscribe(to: kinds) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(subscription) }
        return stream
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The sequence number of the last published event.
    public var lastSequence: UInt64 { state.withLock { $0.lastSequence } }

    /// How many subscriptions are waiting for `kind`.
    public func subscriberCount(for kind: EventKind) -> Int {
        subscriberCount(for: .view(kind))
    }

    public func subscriberCount(for kind: BusEvent.Kind) -> Int {
        state.withLock { $0.subscribers[kind]?.count ?? 0 }
    }
}
