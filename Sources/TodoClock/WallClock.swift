import Foundation
import TodoModel

/// What time it is for todod and todoctl: the real clock, or for tests only the instant
/// `TODOD_TEST_NOW` gives, so that output with dates and "today" can be compared byte
/// for byte (the README's tour) and a test can carry a process across midnight.
///
/// `TODOD_TEST_NOW=2026-11-23T09:00:00Z` freezes the clock at that instant;
/// `TODOD_TEST_NOW=@/path` reads the instant from the file at every call, so a test moves
/// time by replacing the file. Timers (idle exit, reconnect backoff) do not use this clock.
public enum WallClock {
    #if DEBUG
    /// The test-only environment variable: not in a release build, which never reads it.
    public static let variable = "TODOD_TEST_NOW"
    #endif

    /// Where "now" comes from, read from the environment once per process. Only debug
    /// builds (the ones `make test` runs) read the variable: a release build, the one
    /// `make deb` and `make install` ship, always runs on the real clock, whatever its
    /// environment says. (docs/DAEMON.md gives it to tests only: no user pins the date.)
    public static let source: Source = {
        #if !DEBUG
        return .system
        #else
        let value = ProcessInfo.processInfo.environment[variable] ?? ""
        do throws(ClockError) {
            return try Source(value)
        } catch {
            // A test that meant a fixed clock must not run on the real one.
            FileHandle.standardError.write(Data("\(variable): \(error.message)\n".utf8))
            exit(64)
        }
        #endif
    }()

    /// The current instant.
    public static func now() -> Date { source.now() }

    /// The current day in this process's time zone (`TZ`).
    public static func today() -> LocalDate { LocalDate(now()) }
}
