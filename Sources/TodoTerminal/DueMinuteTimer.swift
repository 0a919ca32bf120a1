import Foundation
import TodoModel

/// Tells a View when the due minute of a todo it shows comes, so that the row turns overdue
/// then (`in 1 min` becomes `due now`, red): it sleeps until that instant (no polling),
/// and on waking checks the clock again, since a suspended machine wakes late and a test's
/// clock is moved by hand. The clock is injected, as `MidnightTimer`'s is.
public struct DueMinuteTimer: Sendable {
    let now: @Sendable () -> Date
    let sleep: @Sendable (Duration) async throws -> Void

    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// Returns true once `now()` has reached `target`; false when the task was cancelled first.
    public func wait(until target: Date) async -> Bool {
        while !Task.isCancelled {
            let left = target.timeIntervalSince(now())
            if left <= 0 { return true }
            // A millisecond past it, so that the clock reads the minute on waking.
            do { try await sleep(.milliseconds(Int64((left * 1000).rounded(.up)) + 1)) } catch { return false }
        }
        return false
    }
}
