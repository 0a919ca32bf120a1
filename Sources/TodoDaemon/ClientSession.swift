import Logging
import NIOCore
import TodoEvents
import TodoViewModel
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// One connection's inbound side: checks who the peer is, says hello, and turns each
/// line into a view request on the bus. A bad line is answered with an error naming the
/// problem, and the connection carries on; an over-long line closes it.
final class ClientSession: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: ClientRegistry
    private let hello: @Sendable (UInt64) -> ServerHello
    private let logger: Logger
    private let codec = WireCodec()
    private var connection: ClientConnection?

    init(registry: ClientRegistry, logger: Logger, hello: @escaping @Sendable (UInt64) -> ServerHello) {
        self.registry = registry
        self.logger = logger
        self.hello = hello
    }

    func channelActive(context: ChannelHandlerContext) {
        let id = registry.nextClientID()
        var logger = logger
        logger[metadataKey: "client"] = "\(id)"
        let connection = ClientConnection(id: id, channel: context.channel, logger: logger, flusher: registry.flusher(for: context.eventLoop))
        PeerCredentials.userID(of: context.channel).assumeIsolated().whenComplete { [registry, hello] result in
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
        switch codec.decodeRequest(unwrapInboundIn(data)) {
        case .success(let frame):
            if !registry.publish(frame.event, from: connection.id, request: frame.id ?? "", program: frame.program) {
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
        // The client closed its side (`echo … | socat`): answer what it asked, then close.
        if let event = event as? ChannelEvent, event == .inputClosed, let connection {
            registry.closeWhenAnswered(connection.id)
        }
        context.fireUserInboundEventTriggered(event)
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
        logger.notice("closing a client connection", metadata: ["client": "\(connection?.id ?? 0)", "error": "\(reason.message)"])
        if let connection { connection.close(saying: reason) } else { context.close(promise: nil) }
    }

    private func reply(to connection: ClientConnection, id: String?, _ error: TodoError) {
        connection.send(Self.encode(WireFrame(event: .responseError(error), id: id, client: connection.id)))
    }

    private static func encode(_ frame: WireFrame) -> ByteBuffer {
        // Our own frames always encode; an empty buffer would only drop one line.
        (try? WireCodec().encode(frame)) ?? ByteBuffer()
    }
}

/// Who is at the other end of a Unix socket (SO_PEERCRED).
enum PeerCredentials {
    struct Unsupported: Error, CustomStringConvertible {
        var description: String { "the channel cannot report its peer's credentials" }
    }

    /// Linux's `struct ucred`, which Glibc shows Swift only under _GNU_SOURCE.
    struct Credentials: Sendable {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    static func userID(of channel: any Channel) -> EventLoopFuture<uid_t> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(Unsupported())
        }
        let credentials: EventLoopFuture<Credentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.map { $0.uid }
    }
}
