import Foundation
import Synchronization
import TodoClock
import TodoEvents
import TodoModel

/// Says on stderr, once per command, when todoctl's time zone is not the daemon's (an ssh
/// session or a systemd unit with another TZ): times of day are wall-clock times without a
/// zone, and each reads them in its own, so the same todo was "11 min overdue" here and "9 h
/// overdue" there without a word (outside probe 12, finding 4). todoctl's zone wins for what
/// it reads and writes, what the user at this shell sees and types; the daemon ends waits and
/// days in its own. A daemon from before the hello said its offset is not asked.
enum ZoneCheck {
    private static let said = Mutex(false)

    /// The line for a daemon at `daemonOffset` seen from a shell at `ownOffset`; nil when they agree.
    static func warning(daemonOffset: Int?, ownOffset: Int) -> String? {
        guard let daemonOffset, daemonOffset != ownOffset else { return nil }
        return """
            the daemon runs in \(LocalMinute.describe(utcOffset: daemonOffset)), this shell in \(LocalMinute.describe(utcOffset: ownOffset)): \
            times of day are read and written here in this shell's zone (in 2 h, due:15:00), while the daemon ends waits \
            and days in its own; give both the same TZ to have them agree
            """
    }

    /// Prints `warning` for `hello` the first time in this process.
    static func check(_ hello: ServerHello) {
        guard let line = warning(daemonOffset: hello.utcOffset, ownOffset: LocalMinute.utcOffset(at: WallClock.now())) else { return }
        let first = said.withLock { said in
            defer { said = true }
            return !said
        }
        if first { Terminal.error(line) }
    }
}
