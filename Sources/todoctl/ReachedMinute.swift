import Foundation
import TodoModel

/// The minute it is now for due times: the latest minute of today whose instant has come, a
/// local time read as `LocalInstant` reads it (RFC 5545: a minute the clocks show twice is the
/// first). It is the clock's minute, except in the hour the clocks show twice: at the second
/// 02:10 every minute up to 02:59 has come (their first instants are past), so a todo due at
/// 02:30, overdue since the first 02:30, stays overdue; read by the clock's 02:10 it was not
/// overdue again for twenty minutes. Lists, `--overdue` and watch compare due times with it.
enum ReachedMinute {
    /// Today and that minute at `instant`, in the zone the C library reads (`LocalMinute`'s).
    static func at(_ instant: Date) -> (date: LocalDate, timeOfDay: TimeOfDay) {
        let clock = LocalMinute(instant)
        // Only after the clocks went back in the last two hours (the offset is now smaller) can
        // a later minute already be past: else the clock's minute, without reading the zone again.
        guard LocalMinute.offset(at: instant.addingTimeInterval(-7_200)) > LocalMinute.offset(at: instant) else {
            return (clock.date, clock.timeOfDay)
        }
        var reached = clock.timeOfDay
        for minutes in (reached.minutes + 1)..<min(1_440, reached.minutes + 121) {
            guard let time = TimeOfDay(minutes: minutes) else { break }
            if LocalInstant(clock.date, time, offset: LocalMinute.offset(at:)).instant <= instant { reached = time }
        }
        return (clock.date, reached)
    }
}
