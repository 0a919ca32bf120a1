import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Chooses where the daemon's logs go: the journal when systemd runs it, stderr otherwise.
public enum SystemdLogging {
    /// A `JournalLogHandler` when stderr is connected to the journal, else `StreamLogHandler.standardError`.
    ///
    /// Meant for `LoggingSystem.bootstrap { label in SystemdLogging.makeHandler(label: label, level: level) }`.
    public static func makeHandler(label: String, level: Logger.Level, environment: SystemdEnvironment = .process) -> any LogHandler {
        if stderrIsJournal(in: environment) {
            return BackgroundLogHandler(JournalLogHandler(label: label, logLevel: level))
        }
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return BackgroundLogHandler(handler)
    }

    /// Returns once every message logged so far is written: call it before the process exits.
    public static func flush() {
        LogWriter.shared.flush()
    }

    /// Whether stderr is the journal's stream, per `$JOURNAL_STREAM` ("DEVICE:INODE", systemd.exec(5)).
    ///
    /// Comparing with stderr's own device and inode, not just checking the variable is set,
    /// tells apart a child whose stderr was redirected elsewhere but inherited the variable.
    public static func stderrIsJournal(in environment: SystemdEnvironment = .process) -> Bool {
        guard let value = environment.journalStream else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
            return false
        }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
