import Logging
import NIOCore
import Synchronization
import TodoEvents
import TodoViewModel
import TodoWire

/// Every connected client, and the one task that routes view responses to them.
///
/// A committed change goes to every client; everything else (a list, a detail, an
/// error, a status) only to the client that asked. Each frame is encoded once, however
/// many clients receive it.
final class ClientRegistry: Sendable {
    private struct State {
        var clients: [UInt64: ClientConnection] = [:]
        var lastClientID: UInt64 = 0
        /// Requests published and not yet answered, per client.
        var inFlight: [UInt64: Int] = [:]
        var draining = false
        /// Clients that closed their side: closed once their requests are answered.
        var closingWhenAnswered: Set<UInt64> = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let bus: EventBus
    private let logger: Logger
    private let responses: AsyncStream<Envelope>
    private let state = Mutex(State())
    private let codec = WireCodec()
    /// Told the number of clients whenever it changes (systemd status, idle exit).
    private let onClientCountChange: @Sendable (Int) -> Void

    init(bus: EventBus, logger: Logger, onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.bus = bus
        self.logger = logger
        self.onClientCountChange = onClientCountChange
        responses = bus.subscribe(to: [.responseTodoViewModels, .responseTodoViewModel, .responseTodoDetail, .responseStatus, .responseError])
    }

    func nextClientID() -> UInt64 {
        state.withLock { $0.lastClientID += 1; return $0.lastClientID }
    }

    func add(_ client: ClientConnection) {
        let count = state.withLock { $0.clients[client.id] = client; return $0.clients.count }
        onClientCountChange(count)
    }

    func remove(_ id: UInt64) {
        let (count, waiters) = state.withLock { state in
            state.clients[id] = nil
            state.inFlight[id] = nil
            state.closingWhenAnswered.remove(id)
            return (state.clients.count, takeIdleWaiters(&state))
        }
        waiters.forEach { $0.resume() }
        onClientCountChange(count)
    }

    var count: Int { state.withLock { $0.clients.count } }

    /// Publishes a client's request on the bus; false while the daemon shuts down.
    func publish(_ event: Event, from client: UInt64, request: String) -> Bool {
        let accepted = state.withLock { state in
            guard !state.draining else { return false }
            state.inFlight[client, default: 0] += 1
            return true
        }
        if accepted { bus.publish(event, correlation: Correlation(client: client, request: request)) }
        return accepted
    }

    /// Routes view responses to clients until the task is cancelled.
    func run() async {
        for await envelope in responses {
            route(envelope)
        }
    }

    private func route(_ envelope: Envelope) {
        let frame: ByteBuffer
        do {
            frame = try codec.encode(envelope)
        } catch {
            logger.error("could not encode a response", metadata: ["event": "\(envelope.event.kind)", "error": "\(error)"])
            return
        }
        let everyone: Bool
        if case .responseTodoViewModel(let change) = envelope.event, change.kind != .unchanged { everyone = true } else { everyone = false }
        if everyone {
            ClientConnection.broadcast(frame, to: state.withLock { Array($0.clients.values) })
        } else if let client = state.withLock({ state in envelope.correlation.flatMap { state.clients[$0.client] } }) {
            client.send(frame)
        }
        // Counted as answered only once sent, so a close that waits for it comes after it.
        let (finished, waiters) = state.withLock { state -> (ClientConnection?, [CheckedContinuation<Void, Never>]) in
            guard let asker = envelope.correlation?.client, let pending = state.inFlight[asker], pending > 0 else { return (nil, []) }
            state.inFlight[asker] = pending - 1
            let finished = pending == 1 && state.closingWhenAnswered.contains(asker) ? state.clients[asker] : nil
            return (finished, takeIdleWaiters(&state))
        }
        finished?.finish()
        waiters.forEach { $0.resume() }
    }

    /// Closes a client that closed its side, as soon as its requests are answered.
    func closeWhenAnswered(_ id: UInt64) {
        let idle = state.withLock { state -> ClientConnection? in
            guard (state.inFlight[id] ?? 0) > 0 else { return state.clients[id] }
            state.closingWhenAnswered.insert(id)
            return nil
        }
        idle?.finish()
    }

    /// Stops taking requests and returns once every request already taken is answered.
    func drain() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                state.draining = true
                if state.inFlight.values.allSatisfy({ $0 == 0 }) { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Says goodbye to every client and returns once every connection is closed, so the
    /// goodbyes are written before the process exits.
    func closeAll(saying reason: TodoError) async {
        let clients = state.withLock { Array($0.clients.values) }
        for client in clients { client.close(saying: reason) }
        for client in clients { try? await client.channel.closeFuture.get() }
    }

    private func takeIdleWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.idleWaiters.isEmpty, state.inFlight.values.allSatisfy({ $0 == 0 }) else { return [] }
        defer { state.idleWaiters = [] }
        return state.idleWaiters
    }
}
