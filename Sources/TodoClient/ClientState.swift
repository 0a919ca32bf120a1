import Synchronization
import TodoEvents
import TodoViewModel
import TodoWire

/// The client's side of correlation: requests waiting for their answers by id, the
/// hello, and the stream of broadcasts.
final class ClientState: Sendable {
    private struct State {
        var lastRequestID = 0
        var client: UInt64?
        var hello: Result<ServerHello, TodoClientError>?
        var helloWaiter: CheckedContinuation<ServerHello, any Error>?
        var pending: [String: CheckedContinuation<Event, any Error>] = [:]
        var failure: TodoClientError?
        var goodbye: TodoError?
    }

    private let state = Mutex(State())
    let broadcasts: Broadcasts
    /// The program named on requests (`watch`).
    let program: String?
    /// The socket's path, named when what answers there is not todod.
    let path: String

    init(unreadBroadcastLimit: Int, program: String? = nil, path: String = "the socket") {
        broadcasts = Broadcasts(limit: unreadBroadcastLimit)
        self.program = program
        self.path = path
    }

    func nextRequestID() -> String {
        state.withLock { $0.lastRequestID += 1; return "r\($0.lastRequestID)" }
    }

    var goodbye: TodoError? { state.withLock { $0.goodbye } }

    func hello() async throws(TodoClientError) -> ServerHello {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let known = state.withLock { state -> Result<ServerHello, TodoClientError>? in
                    if state.hello == nil { state.helloWaiter = continuation }
                    return state.hello
                }
                if let known { continuation.resume(with: known) }
            }
        } catch {
            throw error as? TodoClientError ?? .protocolViolation("\(error)")
        }
    }

    /// Registers the request id, then sends it, and waits for the frame that answers it.
    func awaitAnswer(to id: String, send: () -> Void) async throws(TodoClientError) -> Event {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let failure = state.withLock { state -> TodoClientError? in
                    if state.failure == nil { state.pending[id] = continuation }
                    return state.failure
                }
                if let failure { continuation.resume(throwing: failure) } else { send() }
            }
        } catch {
            throw error as? TodoClientError ?? .protocolViolation("\(error)")
        }
    }

    func receive(_ frame: WireFrame) {
        switch frame.event {
        case .responseHello(let hello):
            let waiter = state.withLock { state in
                state.client = hello.client
                state.hello = .success(hello)
                defer { state.helloWaiter = nil }
                return state.helloWaiter
            }
            waiter?.resume(returning: hello)
        case .responseGoodbye(let reason):
            state.withLock { $0.goodbye = reason }
            broadcasts.input.deliver(.frame(frame), bounded: false)
        default:
            let waiter = state.withLock { state -> CheckedContinuation<Event, any Error>? in
                guard let id = frame.id, frame.client == state.client else { return nil }
                return state.pending.removeValue(forKey: id)
            }
            waiter?.resume(returning: frame.event)
            switch frame.event {
            case .responseTodoViewModel(let change) where change.kind != .unchanged:
                for each in Self.eachChange(of: frame, change) { broadcasts.input.deliver(.frame(each)) }
            case .responseSharedStore: broadcasts.input.deliver(.frame(frame))
            default: break
            }
        }
    }

    /// A step's frame as a View takes it, one frame per change: the first the asker's, the
    /// rest nobody's answer (as daemons before `further` sent them, and `events` prints them).
    private static func eachChange(of frame: WireFrame, _ change: TodoChange) -> [WireFrame] {
        guard !change.further.isEmpty else { return [frame] }
        return change.eachChange.enumerated().map { index, each in
            index == 0
                ? WireFrame(event: .responseTodoViewModel(each), id: frame.id, client: frame.client)
                : WireFrame(event: .responseTodoViewModel(each))
        }
    }

    /// Fails the request `id` with `error`, if it is this client's and still waiting.
    func reject(id: String, client: UInt64?, _ error: TodoClientError) {
        let waiter = state.withLock { state -> CheckedContinuation<Event, any Error>? in
            guard client == state.client else { return nil }
            return state.pending.removeValue(forKey: id)
        }
        waiter?.resume(throwing: error)
    }

    /// Nothing came within `TodoConnection.helloWait`, or what came first was no frame of
    /// todod's: another program's socket, which watch and events waited on for ever (outside
    /// probe 11, F13). Fails the connection saying `reason`, unless the hello came; true if it
    /// failed it. On the channel's loop, as `receive`.
    func notHello(_ reason: String) -> Bool {
        guard state.withLock({ $0.hello == nil }) else { return false }
        fail(.notTodod(path: path, reason: reason))
        return true
    }

    /// The connection is over: every waiter gets `error`, the broadcasts end.
    func fail(_ error: TodoClientError) {
        let (waiters, helloWaiter) = state.withLock { state in
            if state.failure == nil { state.failure = error }
            if state.hello == nil { state.hello = .failure(error) }
            defer { state.pending = [:]; state.helloWaiter = nil }
            return (Array(state.pending.values), state.helloWaiter)
        }
        waiters.forEach { $0.resume(throwing: error) }
        helloWaiter?.resume(throwing: error)
        broadcasts.input.finish()
    }
}
