import Foundation
import TodoModel

/// Tells a View when the local day changes, so that "today" and "tomorrow" are told
/// again at midnight: it sleeps until the next local midnight (no polling), and after
/// waking checks the day again, since a suspended machine wakes late. The clock is
/// injected: `now` reads it and `sleep` waits on it, so a test can drive days by.
public struct MidnightTimer: Sendable {
    let now: @Sendable () -> Date
    let timeZone: @Sendable () -> TimeZone
    let sleep: @Sendable (Duration) async throws -> Void

    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.now = now
        self.timeZone = timeZone
        self.sleep = sleep
    }

    /// The first instant of the day after `date`'s, in `timeZone` (where a clock change
    /// skips midnight, the first instant that day has).
    public static func nextMidnight(after date: Date, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: date)) ?? date.addingTimeInterval(86_400)
        return calendar.startOfDay(for: tomorrow)
    }

    /// Calls `dayChanged` with the new day each time the local day changes, until the task
    /// is cancelled.
    public func run(_ dayChanged: @Sendable (LocalDate) -> Void) async {
        var day = LocalDate(now(), in: timeZone())
        while !Task.isCancelled {
            let start = now()
            let wait = Self.nextMidnight(after: start, in: timeZone()).timeIntervalSince(start)
            // A millisecond past midnight, so that the clock reads the new day on waking.
            do { try await sleep(.milliseconds(Int64((wait * 1000).rounded(.up)) + 1)) } catch { return }
            let today = LocalDate(now(), in: timeZone())
            if today != day {
                day = today
                dayChanged(today)
            }
        }
    }
}
