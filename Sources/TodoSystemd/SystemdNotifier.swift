import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager about the daemon's state through `sd_notify(3)`.
///
/// Every method is a quiet no-op when the process was not started by systemd
/// (`$NOTIFY_SOCKET` unset), so the daemon can call them unconditionally.
public struct SystemdNotifier: Sendable {
    /// Creates a notifier; it holds no state, the target is read from the environment on each call.
    public init() {}

    /// Whether a service manager is listening for notifications (`$NOTIFY_SOCKET` is set).
    public var isSupervised: Bool {
        guard let socket = getenv("NOTIFY_SOCKET") else { return false }
        return socket.pointee != 0
    }

    /// How often to call ``watchdog()``: half the unit's `WatchdogSec=`, or nil when the watchdog is off.
    public var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        // 0 = keep $WATCHDOG_USEC: this may be asked again, and unsetenv is not thread-safe.
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
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
        // 0 = never unset $NOTIFY_SOCKET: the daemon notifies many times over its life.
        sd_notify(0, state) > 0
    }

    /// Newlines would start new assignments, so a status text could forge `READY=1`.
    static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
