import NIOCore

/// The one stream of events (the article's `AppContext`): anyone on the core publishes,
/// subscribers receive the kinds they asked for, in the order the bus numbered them.
///
/// Dispatch is synchronous, as a ReactiveCocoa `Signal.pipe()` is: `publish` calls the
/// handlers of that kind at once and returns when they have run. An event published by a
/// handler (a server answering) is queued and dispatched right after the current one, by
/// the same call, so every subscriber sees events in sequence order and handlers never run
/// two at a time. A subscriber that wants its events elsewhere (a task, a test) takes them
/// as an `AsyncStream`, the article's `observeOn`.
///
/// The bus is bound to one event loop, the core, as a NIO handler is to its channel's: its
/// state lives there, with no lock. Publishing and reading its counts happen on the core (a
/// touch from another thread stops the program rather than race); a subscription may be made
/// or ended from anywhere, as a pipeline's handlers are added: from another thread it is made
/// on the core before anything the caller hands the core afterwards (the loop runs its tasks
/// in order), which is how the daemon's participants subscribe while it starts.
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

    /// Called with each envelope of the subscribed kinds, on the core.
    public typealias Handler = @Sendable (Envelope) -> Void

    /// What `subscribe(to:_:)` returns; `unsubscribe` takes it back. Its identity is an
    /// object's, made by whichever thread subscribes: no counter on the core to draw it from.
    public struct Subscription: Sendable, Hashable {
        fileprivate let token: Token
        fileprivate let kinds: Set<BusEvent.Kind>

        public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs.token === rhs.token }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(token)) }
    }

    fileprivate final class Token: Sendable {}

    private struct Subscriber {
        let token: Token
        let handler: Handler
    }

    private struct State {
        var lastSequence: UInt64 = 0
        var subscribers: [BusEvent.Kind: [Subscriber]] = [:]
        /// Published and not yet dispatched: events published by handlers.
        var pending: [Envelope] = []
        var pendingStart = 0
        var dispatching = false
        var statistics = Statistics()
    }

    /// The loop the bus is bound to: the daemon's core.
    public let core: any EventLoop
    private let state: NIOLoopBoundBox<State>

    /// A bus bound to `core`; it may be made on any thread (the daemon makes it while it starts).
    public init(core: any EventLoop) {
        self.core = core
        state = .makeBoxSendingValue(State(), eventLoop: core)
    }

    /// Publishes an event and returns it as numbered. Unless a dispatch is already under
    /// way, the event's subscribers have run when this returns. On the core.
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
        let (envelope, mustDispatch) = state.withValue { state in
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

    /// Delivers every pending event in order, until none is left. The state is let go of
    /// before each handler runs: a handler publishes, subscribes and unsubscribes.
    private func dispatchPending() {
        while let (envelope, subscribers) = nextPending() {
            for subscriber in subscribers { subscriber.handler(envelope) }
        }
    }

    private func nextPending() -> (Envelope, [Subscriber])? {
        state.withValue { state in
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
    /// order, on the core: it must not block. From another thread, from the next event the
    /// core is handed after this call.
    @discardableResult
    public func subscribe(to kinds: Set<EventKind>, _ handler: @escaping Handler) -> Subscription {
        subscribe(to: Set(kinds.map(BusEvent.Kind.view)), handler)
    }

    /// As `subscribe(to:_:)`, to view and model events (`[.view(.responseError), .model(.responseTodos)]`).
    @discardableResult
    public func subscribe(to kinds: Set<BusEvent.Kind>, _ handler: @escaping Handler) -> Subscription {
        let subscription = Subscription(token: Token(), kinds: kinds)
        let subscriber = Subscriber(token: subscription.token, handler: handler)
        onCore { [state] in
            state.withValue { state in
                for kind in kinds { state.subscribers[kind, default: []].append(subscriber) }
            }
        }
        return subscription
    }

    /// Ends a subscription: its handler is not called for events dispatched after this (from
    /// another thread, after those the core was handed before this call).
    public func unsubscribe(_ subscription: Subscription) {
        onCore { [state] in
            state.withValue { state in
                for kind in subscription.kinds {
                    state.subscribers[kind]?.removeAll { $0.token === subscription.token }
                    if state.subscribers[kind]?.isEmpty == true { state.subscribers[kind] = nil }
                }
            }
        }
    }

    /// `body` at once on the core, else handed to it: the loop runs what it is handed in order.
    private func onCore(_ body: @escaping @Sendable () -> Void) {
        if core.inEventLoop { body() } else { core.execute(body) }
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

    /// On the core.
    public var statistics: Statistics { state.withValue { $0.statistics } }

    /// The sequence number of the last published event. On the core.
    public var lastSequence: UInt64 { state.withValue { $0.lastSequence } }

    /// How many subscriptions are waiting for `kind`. On the core.
    public func subscriberCount(for kind: EventKind) -> Int {
        subscriberCount(for: .view(kind))
    }

    public func subscriberCount(for kind: BusEvent.Kind) -> Int {
        state.withValue { $0.subscribers[kind]?.count ?? 0 }
    }
}
