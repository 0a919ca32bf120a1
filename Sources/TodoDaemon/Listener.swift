import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TodoEvents
import TodoSystemd
import TodoViewModel
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// The listening socket: the one systemd handed over (socket activation), or one bound
/// at the configured path with mode 0600. On shutdown it stops accepting, waits for the
/// requests already taken to be answered, and says goodbye to every client.
struct Listener: Service {
    let channel: any Channel
    let registry: ClientRegistry
    /// The socket file this daemon made and removes on exit; nil under socket activation.
    let ownedPath: String?
    let logger: Logger

    static func open(
        _ configuration: DaemonConfiguration, on group: any EventLoopGroup, registry: ClientRegistry, logger: Logger,
        hello: @escaping @Sendable (UInt64) -> ServerHello
    ) async throws -> Listener {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoff(logger: logger))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ClientSession.handlers(registry: registry, logger: logger, hello: hello))
                }
            }
        let inherited = try SocketActivation.listeningFileDescriptors()
        if let descriptor = inherited.first {
            logger.info("using the socket systemd passed", metadata: ["fd": "\(descriptor)"])
            let channel = try await bootstrap.withBoundSocket(descriptor).get()
            return Listener(channel: channel, registry: registry, ownedPath: nil, logger: logger)
        }
        let path = configuration.socketPath
        try SocketFile.prepare(path)
        let channel = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
        guard chmod(path, 0o600) == 0 else { throw DaemonError("cannot make \(path) private (chmod 0600 failed)") }
        return Listener(channel: channel, registry: registry, ownedPath: path, logger: logger)
    }

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("shutting down: no new connections; answering the requests already taken")
        try? await channel.close()
        if let ownedPath { unlink(ownedPath) }
        await registry.drain()
        await registry.closeAll(saying: TodoError(.shuttingDown, "the daemon is shutting down: reconnect when it is back (systemd starts it again on the next request)"))
    }
}
