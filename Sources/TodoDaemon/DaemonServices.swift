import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TodoServers
import TodoSystemd

/// The ModelServer, stopped last and gently: it commits every write it has received.
struct ModelService: Service {
    let server: ModelServer

    func run() async {
        await withGracefulShutdownHandler {
            await server.run()
        } onGracefulShutdown: {
            server.shutdown()
        }
    }
}

/// Tells systemd the daemon is ready, keeps its status line and watchdog fed, and that
/// it is stopping. Without systemd every call is a no-op.
///
/// The watchdog is fed only after a probe has run on the core event loop and come back:
/// a core that is wedged (in a handler that never returns) stops the feeding, and
/// systemd restarts the service.
struct SystemdService: Service {
    let systemd: SystemdReporter
    let status: StatusResponder
    let core: any EventLoop
    let logger: Logger

    func run() async {
        // The status counts the core's clients and todos: read there.
        systemd.ready(status: (try? await core.submit { status.summary }.get()) ?? "")
        if let interval = systemd.watchdogInterval {
            logger.debug("feeding the systemd watchdog", metadata: ["every": "\(interval)"])
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    guard (try? await core.submit({}).get()) != nil else { return }
                    systemd.watchdog()
                    try? await Task.sleep(for: interval)
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        systemd.stopping(status: "stopping: answering the last requests")
    }
}

/// When the last client left, and how many are connected.
final class IdleClock: Sendable {
    private let state = Mutex<(clients: Int, idleSince: ContinuousClock.Instant?)>((0, .now))

    func clientCountChanged(to count: Int) {
        state.withLock { state in
            state.idleSince = count == 0 ? (state.idleSince ?? .now) : nil
            state.clients = count
        }
    }

    var idleSince: ContinuousClock.Instant? { state.withLock { $0.idleSince } }
}

/// Ends the daemon once no client has been connected for `limit`
/// (`--exit-idle-after`); socket activation starts it again on the next connection.
struct IdleExitService: Service {
    let clock: IdleClock
    let limit: Duration
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // Sleeps until the earliest moment the daemon could have been idle for `limit`.
                if let since = clock.idleSince, ContinuousClock.now - since >= limit {
                    logger.info("no client for \(limit); exiting until the socket is used again")
                    return
                }
                let wake = (clock.idleSince ?? .now) + limit
                try? await Task.sleep(until: wake, clock: .continuous)
            }
        }
    }
}
