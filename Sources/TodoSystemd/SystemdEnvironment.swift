#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The variables through which systemd talks to the daemon it starts (systemd.exec(5)), as
/// values: read from the process once where the daemon asks, or given by a test. A test that
/// set them with setenv(3) instead would race every other test of the process that reads the
/// environment (glibc's setenv moves and frees the array others are walking), so the library
/// reads them only here, and never changes them.
public struct SystemdEnvironment: Sendable, Equatable {
    /// `$LISTEN_FDS` and `$LISTEN_PID`: how many sockets were passed, and to which process.
    public var listenFDs: String?
    public var listenPID: String?
    /// `$NOTIFY_SOCKET`: where `sd_notify` messages go.
    public var notifySocket: String?
    /// `$WATCHDOG_USEC` and `$WATCHDOG_PID`: the watchdog's deadline, and for which process.
    public var watchdogUSec: String?
    public var watchdogPID: String?
    /// `$JOURNAL_STREAM`: "DEVICE:INODE" of the journal's stream, when stdout/stderr are connected to it.
    public var journalStream: String?

    /// The variables given, by name (those not given are unset).
    public init(_ variables: [String: String] = [:]) {
        listenFDs = variables["LISTEN_FDS"]
        listenPID = variables["LISTEN_PID"]
        notifySocket = variables["NOTIFY_SOCKET"]
        watchdogUSec = variables["WATCHDOG_USEC"]
        watchdogPID = variables["WATCHDOG_PID"]
        journalStream = variables["JOURNAL_STREAM"]
    }

    /// This process's variables, read now.
    public static var process: SystemdEnvironment {
        var environment = SystemdEnvironment()
        func read(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        environment.listenFDs = read("LISTEN_FDS")
        environment.listenPID = read("LISTEN_PID")
        environment.notifySocket = read("NOTIFY_SOCKET")
        environment.watchdogUSec = read("WATCHDOG_USEC")
        environment.watchdogPID = read("WATCHDOG_PID")
        environment.journalStream = read("JOURNAL_STREAM")
        return environment
    }

}
