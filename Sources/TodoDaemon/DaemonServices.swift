import Logging
import NIOCore
import ServiceLifecycle
import TodoServers
import TodoSystemd

/// The ViewModelServer for the run. It has nothing to start or stop (it answers inside the
/// bus's dispatch), but the bus holds its handler weakly: this service is what keeps it. First
/// in the group, so stopped last: it turns the last commits into answers and broadcasts.
struct ViewModelService: Service {
    let server: ViewModelServer

    func run() async {
        try? await gracefulShutdown()
    }
}

/// The iCalendar directory (`--ical-dir`) for the run: its watcher's thread and the bus drive
/// it, and hold it weakly, so this service keeps it. Stopped after the ModelServer, so the last
/// commits' files are written.
struct CalendarService: Service {
    let directory: CalendarDirectory

    func run() async {
        try? await gracefulShutdown()
    }
}

/// The ModelServer, stopped late and gently: it commits every write it has received.
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

/// The midnight waker for the run: it wakes what is due as the group starts, and stops
/// at shutdown, once the listener has answered its clients (the group stops its services
/// in the reverse of their order), so no todo wakes or expires while the daemon closes.
struct MidnightService: Service {
    let waker: MidnightWaker

    func run() async {
        waker.start()
        try? await gracefulShutdown()
        waker.stop()
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

/// When the last client left, and how many are connected: bound to the core, where the
/// registry counts its clients.
final class IdleClock: Sendable {
    private let state: NIOLoopBoundBox<(clients: Int, idleSince: ContinuousClock.Instant?)>

    init(core: any EventLoop) {
        state = .makeBoxSendingValue((0, .now), eventLoop: core)
    }

    /// On the core.
    func clientCountChanged(to count: Int) {
        state.withValue { state in
            state.idleSince = count == 0 ? (state.idleSince ?? .now) : nil
            state.clients = count
        }
    }

    /// Since when no client is connected (nil: one is), read on the core for a task elsewhere.
    var idleSince: ContinuousClock.Instant? {
        get async { try? await state.eventLoop.submit { self.state.value.idleSince }.get() }
    }
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
                let idleSince = await clock.idleSince
                if let since = idleSince, ContinuousClock.now - since >= limit {
                    logger.info("no client for \(limit); exiting until the socket is used again")
                    return
                }
                let wake = (idleSince ?? .now) + limit
                try? await Task.sleep(until: wake, clock: .continuous)
            }
        }
    }
}
