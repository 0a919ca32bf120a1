import Logging
import NIOCore
import TodoEvents
import TodoViewModel
import TodoWire

/// Every connected client: publishes their requests on the bus, routes view responses
/// back to them, and holds back a client that has too many requests in flight.
///
/// An answer counts as in flight until the client's socket took it, not only until it
/// was routed: a client that pipelines requests and does not read is held back (its
/// requests wait in the kernel and its ClientSession, `HoldRequests`) and catches up as it
/// reads, every answer arriving, instead of being cut off when its answers pass the unread
/// bound. Only changes broadcast by others can still fill that bound.
///
/// A committed change, and news of the shared store, go to every client; everything else
/// (a list, a detail, an error, a status) only to the client that asked. Each frame is encoded once, however
/// many clients receive it. It routes inside the bus's dispatch, on the core event loop.
///
/// Its state is bound to the core, as a NIO handler's is to its loop: every connection is
/// served there and the bus dispatches there, so no lock; `drain` and `closeAll`, called from
/// the shutdown's tasks, hop to the core first.
final class ClientRegistry: Sendable {
    private struct State {
        var clients: [UInt64: Client] = [:]
        var lastClientID: UInt64 = 0
        var draining = false
        /// Clients that closed their side: closed once their requests are answered.
        var closingWhenAnswered: Set<UInt64> = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var totalInFlight = 0
    }

    private struct Client {
        let connection: ClientConnection
        /// Requests published and not yet answered.
        var inFlight = 0
        /// Answers routed to it that its socket has not taken yet.
        var unwritten = 0
        /// Its requests are held back until it has caught up (half the bound).
        var paused = false
        var waiting: Int { inFlight + unwritten }
        /// What the client named itself in its first request that named anything.
        var program: String?
    }

    /// A client with more requests than this in flight (published, or answered and not yet
    /// written to its socket) is not read until it has half as many.
    static let maximumInFlight = 128

    private let bus: EventBus
    /// The loop every client is served on and the bus dispatches on.
    let core: any EventLoop
    private let logger: Logger
    private let state: NIOLoopBoundBox<State>
    /// Flushes, at the end of a turn of the core, every client written to in it.
    let flusher: Flusher
    private let codec = WireCodec()
    /// Told the number of clients whenever it changes (systemd status, idle exit).
    private let onClientCountChange: @Sendable (Int) -> Void

    init(bus: EventBus, core: any EventLoop, logger: Logger, onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.bus = bus
        self.core = core
        state = .makeBoxSendingValue(State(), eventLoop: core)
        flusher = Flusher(eventLoop: core)
        self.logger = logger
        self.onClientCountChange = onClientCountChange
        // Every view response, derived from Event's cases: hello and goodbye are not
        // published on the bus but written by the connection itself.
        bus.subscribe(to: EventKind.viewResponses.subtracting([.responseHello, .responseGoodbye])) {
            [weak self] envelope in self?.route(envelope)
        }
    }

    func nextClientID() -> UInt64 {
        state.withValue { $0.lastClientID += 1; return $0.lastClientID }
    }

    func add(_ connection: ClientConnection) {
        let count = state.withValue { $0.clients[connection.id] = Client(connection: connection); return $0.clients.count }
        onClientCountChange(count)
    }

    func remove(_ id: UInt64) {
        let (count, waiters) = state.withValue { state in
            if let client = state.clients.removeValue(forKey: id) { state.totalInFlight -= client.inFlight }
            state.closingWhenAnswered.remove(id)
            return (state.clients.count, takeIdleWaiters(&state))
        }
        waiters.forEach { $0.resume() }
        onClientCountChange(count)
    }

    var count: Int { state.withValue { $0.clients.count } }

    /// Clients held back now: they ask faster than they read their answers.
    var heldBackCount: Int { state.withValue { $0.clients.values.count(where: \.paused) } }

    enum Admission: Equatable {
        /// Published; the client may send more.
        case accepted
        /// Published, and the client has as much in flight as it may: hold its next requests
        /// until the registry sends its session `ResumeRequests`.
        case acceptedAndHeld
        /// Not published: the daemon shuts down.
        case refused
    }

    /// Publishes a client's request on the bus (not while the daemon shuts down).
    /// - Parameter program: the name the request gives its program; the first one sticks.
    func publish(_ event: Event, from client: UInt64, request: String, program: String? = nil, step: UInt64? = nil) -> Admission {
        let (admission, name) = state.withValue { state -> (Admission, String) in
            guard !state.draining, var entry = state.clients[client] else { return (.refused, "") }
            if entry.program == nil, let program { entry.program = TodoValidation.programName(program) }
            entry.inFlight += 1
            state.totalInFlight += 1
            if entry.waiting >= ClientRegistry.maximumInFlight { entry.paused = true }
            state.clients[client] = entry
            return (entry.paused ? .acceptedAndHeld : .accepted, entry.program ?? "")
        }
        if admission != .refused { bus.publish(event, correlation: Correlation(client: client, request: request, program: name, step: step)) }
        return admission
    }

    /// `count` answers of `client` were taken by its socket (or will never be written).
    func written(_ count: Int, to client: UInt64) {
        let resume = state.withValue { state -> ClientConnection? in
            guard var entry = state.clients[client] else { return nil }
            entry.unwritten -= count
            defer { state.clients[client] = entry }
            return Self.resumes(&entry)
        }
        resume.map(Self.resumeRequests)
    }

    /// Whether a held-back client has caught up; clears its hold if so.
    private static func resumes(_ entry: inout Client) -> ClientConnection? {
        guard entry.paused, entry.waiting <= ClientRegistry.maximumInFlight / 2 else { return nil }
        entry.paused = false
        return entry.connection
    }

    private static func resumeRequests(_ connection: ClientConnection) {
        // On a turn of its own, not inside the write's completion that told us: the session then
        // publishes the requests it held, whose answers write again.
        let channel = connection.channel
        channel.eventLoop.execute { channel.pipeline.fireUserInboundEventTriggered(ResumeRequests()) }
    }

    private func route(_ envelope: Envelope) {
        // Subscribed to view responses only: a model event has no frame.
        guard let event = envelope.view else { return }
        let frame: ByteBuffer?
        do {
            frame = try codec.encode(event, correlation: envelope.correlation)
        } catch {
            logger.error("could not encode a response", metadata: ["event": "\(event.kind)", "error": "\(error)"])
            frame = nil
        }
        let everyone: Bool
        switch event {
        case .responseTodoViewModel(let change): everyone = change.kind != .unchanged
        case .responseSharedStore: everyone = true
        default: everyone = false
        }
        let asker = envelope.correlation?.client
        // Counted as unwritten before it is sent, so that the socket's report cannot come first.
        let answering = asker.map(reserveAnswer) ?? false
        if let frame {
            if everyone {
                for client in state.withValue({ $0.clients.values.map(\.connection) }) { client.send(frame, answer: answering && client.id == asker) }
            } else if let asker, let client = state.withValue({ $0.clients[asker]?.connection }) {
                client.send(frame, answer: answering)
            }
        } else if let asker, let client = state.withValue({ $0.clients[asker]?.connection }), let request = envelope.correlation?.request {
            // The asker still hears that its request failed, and it is counted as answered.
            let error = TodoError(.storage, "the daemon could not encode its answer to this request: please report this as a bug")
            let answer = (try? codec.encode(WireFrame(event: .responseError(error), id: request.isEmpty ? nil : request, client: asker))) ?? ByteBuffer()
            client.send(answer, answer: answering)
        }
        if let asker { answered(asker) }
    }

    /// Counts the answer about to be sent to `asker` as unwritten; false if it asked nothing.
    private func reserveAnswer(_ asker: UInt64) -> Bool {
        state.withValue { state in
            guard let entry = state.clients[asker], entry.inFlight > 0 else { return false }
            state.clients[asker]!.unwritten += 1
            return true
        }
    }

    /// One request of `asker` is answered (counted only once sent, so a close that waits
    /// for it comes after it): resumes reading a held-back client, closes one that asked
    /// to, wakes a drain.
    private func answered(_ asker: UInt64) {
        let (resume, finished, waiters) = state.withValue { state -> (ClientConnection?, ClientConnection?, [CheckedContinuation<Void, Never>]) in
            guard var entry = state.clients[asker], entry.inFlight > 0 else { return (nil, nil, []) }
            entry.inFlight -= 1
            state.totalInFlight -= 1
            let resume = Self.resumes(&entry)
            state.clients[asker] = entry
            let finished = entry.inFlight == 0 && state.closingWhenAnswered.contains(asker)
            return (resume, finished ? entry.connection : nil, takeIdleWaiters(&state))
        }
        resume.map(Self.resumeRequests)
        finished?.finish()
        waiters.forEach { $0.resume() }
    }

    /// Closes a client that closed its side, as soon as its requests are answered.
    func closeWhenAnswered(_ id: UInt64) {
        let idle = state.withValue { state -> ClientConnection? in
            guard let entry = state.clients[id] else { return nil }
            guard entry.inFlight > 0 else { return entry.connection }
            state.closingWhenAnswered.insert(id)
            return nil
        }
        idle?.finish()
    }

    /// Stops taking requests and returns once every request already taken is answered.
    func drain() async {
        await withCheckedContinuation { continuation in
            core.execute { [self] in
                let idle = state.withValue { state in
                    state.draining = true
                    if state.totalInFlight == 0 { return true }
                    state.idleWaiters.append(continuation)
                    return false
                }
                if idle { continuation.resume() }
            }
        }
    }

    /// Says goodbye to every client and returns once every connection is closed, so the
    /// goodbyes are written before the process exits.
    func closeAll(saying reason: TodoError) async {
        let clients = (try? await core.submit { self.state.value.clients.values.map { $0.connection } }.get()) ?? []
        for client in clients { client.close(saying: reason, timeout: .seconds(5)) }
        for client in clients { try? await client.channel.closeFuture.get() }
    }

    private func takeIdleWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.idleWaiters.isEmpty, state.totalInFlight == 0 else { return [] }
        defer { state.idleWaiters = [] }
        return state.idleWaiters
    }
}
