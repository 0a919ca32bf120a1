import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// What the listener does when `accept` fails for want of resources (out of file
/// descriptors: EMFILE, ENFILE; out of memory): it stops accepting for a moment instead
/// of retrying at once, which would spin a core while clients wait, and logs the first
/// failure of a run of them.
///
/// NIO's own `AcceptBackoffHandler` delays the next `read`, but after a failed accept
/// NIO 2.101 still has a read pending and polls the socket again at once (measured: one
/// core at 56%), so this pauses by turning the server channel's `autoRead` off instead.
final class AcceptBackoff: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// How long accepting pauses after a failure.
    static let pause: TimeAmount = .milliseconds(250)

    private let logger: Logger
    private var paused = false
    /// A failure logged at most once a minute, however long the shortage lasts.
    private var lastLogged: NIODeadline?

    init(logger: Logger) {
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        let now = NIODeadline.now()
        if lastLogged.map({ now - $0 > .seconds(60) }) ?? true {
            lastLogged = now
            logger.error("cannot accept connections (\(error.description)): pausing; too many clients or open files? (raise LimitNOFILE)")
        }
        guard !paused else { return }
        paused = true
        let channel = context.channel
        channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.pause) {
            self.paused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }
}
