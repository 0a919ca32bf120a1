#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager about the daemon's state, as `sd_notify(3)` does: one datagram
/// per message to the socket `$NOTIFY_SOCKET` names (a path, or `@name` in the abstract namespace).
///
/// Every method is a quiet no-op when the process was not started by systemd
/// (`$NOTIFY_SOCKET` unset), so the daemon can call them unconditionally.
public struct SystemdNotifier: Sendable {
    /// Where messages go, or nil without a service manager.
    let socket: String?
    private let watchdogUSec: String?
    private let watchdogPID: String?

    /// A notifier for the service manager `environment` names (see SystemdEnvironment: read
    /// once, here, and never unset: the daemon notifies many times over its life).
    public init(environment: SystemdEnvironment = .process) {
        socket = environment.notifySocket.flatMap { $0.isEmpty ? nil : $0 }
        watchdogUSec = environment.watchdogUSec
        watchdogPID = environment.watchdogPID
    }

    /// Whether a service manager is listening for notifications (`$NOTIFY_SOCKET` is set).
    public var isSupervised: Bool { socket != nil }

    /// How often to call ``watchdog()``: half the unit's `WatchdogSec=`, or nil when the watchdog
    /// is off or meant for another process (`$WATCHDOG_PID`), as `sd_watchdog_enabled(3)` says.
    public var watchdogInterval: Duration? {
        guard let watchdogUSec, let usec = UInt64(watchdogUSec), usec > 0 else { return nil }
        if let watchdogPID, pid_t(watchdogPID) != getpid() { return nil }
        // Half the deadline, as sd_watchdog_enabled(3) recommends, so one late ping is not fatal.
        return .microseconds(Int64(clamping: usec / 2))
    }

    /// Reports that the daemon accepts requests (`READY=1`) with a human-readable status.
    @discardableResult
    public func ready(status: String) -> Bool {
        send("READY=1\nSTATUS=\(Self.singleLine(status))")
    }

    /// Updates the status line shown by `systemctl status` (`STATUS=`).
    @discardableResult
    public func status(_ status: String) -> Bool {
        send("STATUS=\(Self.singleLine(status))")
    }

    /// Reports that the daemon is shutting down (`STOPPING=1`) with a human-readable status.
    @discardableResult
    public func stopping(status: String) -> Bool {
        send("STOPPING=1\nSTATUS=\(Self.singleLine(status))")
    }

    /// Tells the service manager the daemon is alive (`WATCHDOG=1`).
    @discardableResult
    public func watchdog() -> Bool {
        send("WATCHDOG=1")
    }

    /// Sends `state`; returns true when a service manager received it, false when there is none or it failed.
    @discardableResult
    public func send(_ state: String) -> Bool {
        guard let socket else { return false }
        return NotifyDatagram.send(state, to: socket)
    }

    /// Newlines would start new assignments, so a status text could forge `READY=1`.
    static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
