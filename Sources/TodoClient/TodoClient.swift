import TodoPaths
import NIOCore
import NIOPosix
import Synchronization
import TodoEvents
import TodoViewModel
import TodoWire

/// A connection to todod that stays: send view requests and await their answers, and
/// hear every change that any client makes. (A command that asks once and exits is
/// better served by the blocking `TodoConnection`.) It checks the server before it
/// sends anything, as `TodoConnection` does.
///
/// ```swift
/// let client = try await TodoClient.connect(to: DefaultPaths.socketPath())
/// let answer = try await client.request(.requestNewTodo(NewTodo(title: "Buy milk")))
/// for await broadcast in client.broadcasts { … }
/// ```
public final class TodoClient: Sendable {
    /// Broadcasts a client holds unread before it drops further ones and yields
    /// `Broadcast.missed` (a change is about 300 bytes on the wire, a few times that
    /// decoded: some megabytes at most).
    public static let maximumUnreadBroadcasts = 10_000

    /// What the daemon said on connecting: versions, this client's number, the last change.
    public let hello: ServerHello
    /// Every change any client made (`responseTodoViewModel`), in commit order, news of
    /// the shared store (`responseSharedStore`), and the daemon's goodbye; ends when the
    /// connection closes. At most `unreadBroadcastLimit`
    /// wait unread: past that, `.missed` stands for the ones dropped.
    public let broadcasts: Broadcasts

    private let channel: any Channel
    private let state: ClientState

    /// A client on a channel whose pipeline is `handlers(state:)`, once `state` has the hello.
    init(hello: ServerHello, channel: any Channel, state: ClientState) {
        self.hello = hello
        self.channel = channel
        self.state = state
        broadcasts = state.broadcasts
    }

    /// Connects, checks who listens (`TrustedSocket`), and waits for the daemon's hello.
    /// `unreadBroadcastLimit` bounds the broadcasts held for a user that does not read them.
    /// `program` names this client in the journal (`watch`); sent with every request,
    /// the daemon keeps the first.
    public static func connect(
        to path: String, unreadBroadcastLimit: Int = maximumUnreadBroadcasts, program: String? = nil
    ) async throws(TodoClientError) -> TodoClient {
        let state = ClientState(unreadBroadcastLimit: unreadBroadcastLimit, program: program, path: path)
        let socket = try TrustedSocket.connect(to: path)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(handlers(state: state))
                    }
                }
                .withConnectedSocket(socket).get()
        } catch {
            throw .cannotConnect(path: path, reason: TodoClient.describe(error))
        }
        let late = channel.eventLoop.scheduleTask(in: .seconds(Int64(TodoConnection.helloWait))) {
            if state.notHello(TodoConnection.nothingCame) { channel.close(promise: nil) }
        }
        defer { late.cancel() }
        do {
            let hello = try await state.hello()
            return TodoClient(hello: hello, channel: channel, state: state)
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// The connection's pipeline, in order: the daemon's lines, cut at the longest this client
    /// reads, then the handler that gives each frame to whoever waits for it (`state`). The
    /// tests build theirs with it, on a channel without a socket.
    static func handlers(state: ClientState) -> [any ChannelHandler] {
        [ByteToMessageHandler(LineFrameDecoder(maximumLength: WireProtocol.maximumResponseLength)), ClientHandler(state: state)]
    }

    /// Sends a view request and returns the daemon's answer to it; an error answer is
    /// thrown as `.refused`.
    public func request(_ event: Event) async throws(TodoClientError) -> Event {
        let id = state.nextRequestID()
        let frame: ByteBuffer
        do {
            frame = try WireCodec().encode(WireFrame(event: event, id: id, program: state.program))
        } catch {
            throw .protocolViolation("could not encode the request: \(error)")
        }
        let answer = try await state.awaitAnswer(to: id) { channel.writeAndFlush(frame, promise: nil) }
        if case .responseError(let error) = answer { throw .refused(error) }
        return answer
    }

    /// Closes the connection; pending requests fail with `.disconnected`.
    public func close() async {
        try? await channel.close()
    }

    /// The reason in the words of `strerror` (`No such file or directory`).
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return describe(first.error)
        }
        return "\(error)"
    }
}

/// Frames from the daemon, handed to whoever waits for them.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let state: ClientState
    private let codec = WireCodec()

    init(state: ClientState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        do {
            state.receive(try codec.decodeResponse(line))
        } catch {
            // A frame this client does not know (a newer daemon's) fails only the request it answers.
            if let (id, client) = codec.correlation(of: line) {
                state.reject(id: id, client: client, .protocolViolation("\(error)"))
            } else if state.notHello(TodoConnection.said(line)) {
                context.close(promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.fail(.disconnected(state.goodbye))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A socket error (the daemon hung up mid-write) is a disconnection: channelInactive
        // reports it, with the goodbye if one came. Anything else is a frame not understood.
        if !(error is IOError) { state.fail(.protocolViolation("\(error)")) }
        context.close(promise: nil)
    }
}
