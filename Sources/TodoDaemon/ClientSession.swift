import Logging
import NIOCore
import TodoEvents
import TodoViewModel
import TodoWire
import UnixSocket

#if canImport(Glibc)
import Glibc
#endif

/// One connection's inbound side: checks who the peer is, says hello, and turns each
/// line into a view request on the bus. A bad line is answered with an error naming the
/// problem, and the connection carries on; an over-long line closes it.
///
/// A client the registry holds back (too much in flight) is not read: its socket stops
/// being read, and the lines already read wait in `held` (at most one read's worth) until
/// the registry sends `ResumeRequests`.
final class ClientSession: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: ClientRegistry
    private let hello: @Sendable (UInt64) -> ServerHello
    /// Who the peer is: `SO_PEERCRED` on a Unix socket. Given, so that a channel without a
    /// socket (the tests' `EmbeddedChannel`) can be one user's or another's.
    private let peerUserID: @Sendable (any Channel) -> EventLoopFuture<uid_t>
    private let logger: Logger
    private let codec = WireCodec()
    private var connection: ClientConnection?
    /// Lines read while held back, in order.
    private var held: [ByteBuffer] = []
    private var holding = false
    /// The client closed its side while lines were held: closed once they are answered.
    private var inputClosed = false

    init(registry: ClientRegistry, logger: Logger, hello: @escaping @Sendable (UInt64) -> ServerHello,
         peerUserID: @escaping @Sendable (any Channel) -> EventLoopFuture<uid_t> = PeerCredentials.userID(of:)) {
        self.registry = registry
        self.logger = logger
        self.hello = hello
        self.peerUserID = peerUserID
    }

    /// A client connection's pipeline, in order: its bytes cut into lines at the protocol's
    /// limit, then the session. The listener builds every connection with it, and the tests
    /// theirs, so that what they test is what the daemon runs.
    static func handlers(
        registry: ClientRegistry, logger: Logger, hello: @escaping @Sendable (UInt64) -> ServerHello,
        peerUserID: @escaping @Sendable (any Channel) -> EventLoopFuture<uid_t> = PeerCredentials.userID(of:)
    ) -> [any ChannelHandler] {
        [ByteToMessageHandler(LineFrameDecoder(maximumLength: WireProtocol.maximumRequestLength)),
         ClientSession(registry: registry, logger: logger, hello: hello, peerUserID: peerUserID)]
    }

    func channelActive(context: ChannelHandlerContext) {
        let id = registry.nextClientID()
        var logger = logger
        logger[metadataKey: "client"] = "\(id)"
        let connection = ClientConnection(
            id: id, channel: context.channel, logger: logger, flusher: registry.flusher,
            answersWritten: { [registry] count in registry.written(count, to: id) })
        peerUserID(context.channel).assumeIsolated().whenComplete { [registry, hello] result in
            switch result {
            case .success(let uid) where uid == getuid():
                self.connection = connection
                connection.send(Self.encode(WireFrame(event: .responseHello(hello(connection.id)), client: connection.id)))
                registry.add(connection)
                logger.debug("client connected")
            case .success(let uid):
                logger.warning("refused a client of another user", metadata: ["uid": "\(uid)"])
                connection.close(saying: TodoError(.permissionDenied, "this todod belongs to user \(getuid()) and serves no one else: start your own with `todod`"))
            case .failure(let error):
                logger.warning("could not learn who the client is; closing", metadata: ["error": "\(error)"])
                connection.close(saying: TodoError(.permissionDenied, "the daemon could not check who you are (\(error))"))
            }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection, !connection.isClosing else { return }
        if holding {
            held.append(unwrapInboundIn(data))
        } else {
            take(unwrapInboundIn(data), from: connection, context: context)
        }
    }

    private func take(_ line: ByteBuffer, from connection: ClientConnection, context: ChannelHandlerContext) {
        switch codec.decodeRequest(line) {
        case .success(let frame):
            switch registry.publish(frame.event, from: connection.id, request: frame.id ?? "", program: frame.program, step: frame.step) {
            case .accepted:
                break
            case .acceptedAndHeld:
                // Backpressure: stop reading this client's socket; its requests wait in the kernel.
                holding = true
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            case .refused:
                reply(to: connection, id: frame.id, TodoError(.shuttingDown, "the daemon is shutting down and takes no new requests: retry in a moment"))
            }
        case .failure(let rejected) where rejected.isBlank:
            break
        case .failure(let rejected):
            logger.notice("bad request", metadata: ["client": "\(connection.id)", "error": "\(rejected.error.message)"])
            reply(to: connection, id: rejected.id, rejected.error)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ResumeRequests {
            resume(context: context)
            return
        }
        // The client closed its side (`echo … | socat`): answer what it asked, then close.
        if let event = event as? ChannelEvent, event == .inputClosed, let connection {
            if held.isEmpty { registry.closeWhenAnswered(connection.id) } else { inputClosed = true }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The registry let a held-back client go on: its held lines first, then its socket.
    private func resume(context: ChannelHandlerContext) {
        guard holding, let connection else { return }
        holding = false
        var next = 0
        while !holding, next < held.count, !connection.isClosing {
            take(held[next], from: connection, context: context)
            next += 1
        }
        held.removeFirst(next)
        guard !holding else { return }
        held = []
        if inputClosed {
            registry.closeWhenAnswered(connection.id)
        } else {
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let connection {
            registry.remove(connection.id)
            logger.debug("client disconnected", metadata: ["client": "\(connection.id)"])
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let reason: TodoError
        if let error = error as? LineTooLongError {
            reason = TodoError(.frameTooLong, error.description)
        } else {
            reason = TodoError(.badRequest, "the connection failed: \(error)")
        }
        if Self.peerWentAway(error) {
            // A client that exits with an answer unread resets its socket (todoctl does, a few
            // times in a thousand calls): ordinary, not worth a notice (outside probe 11, F13).
            logger.debug("a client reset its connection; closing it", metadata: ["client": "\(connection?.id ?? 0)", "error": "\(reason.message)"])
        } else {
            logger.notice("closing a client connection", metadata: ["client": "\(connection?.id ?? 0)", "error": "\(reason.message)"])
        }
        if let connection { connection.close(saying: reason) } else { context.close(promise: nil) }
    }

    /// The peer closed with bytes unread (ECONNRESET) or before an answer was written (EPIPE).
    private static func peerWentAway(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
    }

    private func reply(to connection: ClientConnection, id: String?, _ error: TodoError) {
        connection.send(Self.encode(WireFrame(event: .responseError(error), id: id, client: connection.id)))
    }

    private static func encode(_ frame: WireFrame) -> ByteBuffer {
        // Our own frames always encode; an empty buffer would only drop one line.
        (try? WireCodec().encode(frame)) ?? ByteBuffer()
    }
}

/// Sent by the registry down a held-back client's pipeline once it has caught up.
struct ResumeRequests: Sendable {}

/// Who is at the other end of a client's channel (SO_PEERCRED, through NIO).
extension PeerCredentials {
    struct Unsupported: Error, CustomStringConvertible {
        var description: String { "the channel cannot report its peer's credentials" }
    }

    static func userID(of channel: any Channel) -> EventLoopFuture<uid_t> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(Unsupported())
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.map { $0.uid }
    }
}
