import Dispatch
import Synchronization
import TodoSystemd

/// Sends notifications to systemd from a queue of its own: `sd_notify` blocks when
/// systemd is slow to read, and that must never stall the event loop or the servers.
/// Status lines are coalesced, so a burst of connections sends only the latest one.
final class SystemdReporter: Sendable {
    let notifier: SystemdNotifier
    private let queue = DispatchQueue(label: "todod.systemd")
    /// The one lock here crosses threads on purpose: the core leaves the latest line, the
    /// `todod.systemd` queue takes it, so a burst of lines costs the core no hop per line.
    private let pendingStatus = Mutex<(text: String?, scheduled: Bool)>((nil, false))

    init(notifier: SystemdNotifier = SystemdNotifier()) {
        self.notifier = notifier
    }

    var watchdogInterval: Duration? { notifier.watchdogInterval }

    func ready(status: String) {
        queue.async { [notifier] in notifier.ready(status: status) }
    }

    func stopping(status: String) {
        queue.async { [notifier] in notifier.stopping(status: status) }
    }

    func watchdog() {
        queue.async { [notifier] in notifier.watchdog() }
    }

    /// Sends `text` as the status line, unless a newer one replaces it before it is sent.
    func status(_ text: String) {
        guard notifier.isSupervised else { return }
        let schedule = pendingStatus.withLock { pending in
            pending.text = text
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        guard schedule else { return }
        queue.async { [self] in
            let latest = pendingStatus.withLock { pending in
                defer { pending = (nil, false) }
                return pending.text
            }
            if let latest { notifier.status(latest) }
        }
    }
}
