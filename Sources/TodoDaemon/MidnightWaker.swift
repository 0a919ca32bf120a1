import Dispatch
import Foundation
import Logging
import Synchronization
import TodoModel
import TodoServers

/// Ends the waiting of todos whose day has come, so that they appear in every list at
/// once, and deletes the open todos whose until day has passed (they expire, as in
/// Taskwarrior): at start, then at each local midnight. No polling: one timer, armed for the next
/// midnight on the wall clock (`CLOCK_REALTIME`, which libdispatch arms as an absolute
/// timerfd), so it also fires right after a suspend that slept through midnight, or after
/// the clock was set past it.
///
/// Midnight is read from `clock` (the daemon's "now", which tests drive); the timer waits
/// as long in real time as `clock` says is left.
final class MidnightWaker: Sendable {
    private let model: ModelServer
    private let clock: @Sendable () -> Date
    private let timeZone: TimeZone
    private let onCore: ModelServer.Executor
    private let logger: Logger
    private let queue = DispatchQueue(label: "todod.midnight")
    /// Set by the stopping task, read on `todod.midnight` when the timer fires: an atomic flag,
    /// no lock, set once and never cleared.
    private let stopped = Atomic(false)

    init(model: ModelServer, clock: @escaping @Sendable () -> Date, timeZone: TimeZone = .current,
         logger: Logger, onCore: @escaping ModelServer.Executor) {
        self.model = model
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
        self.onCore = onCore
    }

    /// Wakes what is due today, and arms the timer for the next midnight.
    func start() {
        wake()
        queue.async { self.arm() }
    }

    /// The armed timer then fires once more at most, doing nothing.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func wake() {
        let today = LocalDate(clock(), in: timeZone)
        onCore { [model, logger] in
            let woken = model.endWaiting(on: today)
            if woken > 0 { logger.info("waiting is over", metadata: ["todos": "\(woken)", "day": "\(today)"]) }
            let expired = model.expire(on: today)
            if expired > 0 { logger.info("expired: past their until day, deleted", metadata: ["todos": "\(expired)", "day": "\(today)"]) }
        }
    }

    /// A one-shot timer for the next local midnight after `clock()`; when it fires it
    /// wakes the day's todos and arms the next (a test clock that has not reached midnight
    /// yet just gets a new timer for the time still left).
    private func arm() {
        let now = clock()
        let wait = max(Self.nextMidnight(after: now, in: timeZone).timeIntervalSince(now), 0.001)
        let deadline = Date().addingTimeInterval(wait).timeIntervalSince1970
        let source = DispatchSource.makeTimerSource(queue: queue)
        let seconds = deadline.rounded(.down)
        source.schedule(wallDeadline: DispatchWallTime(timespec: timespec(tv_sec: Int(seconds), tv_nsec: Int((deadline - seconds) * 1e9))), leeway: .milliseconds(100))
        // The handler holds its own source until it fires; cancelling it lets both go.
        source.setEventHandler { [weak self] in
            source.cancel()
            guard let self, !self.stopped.load(ordering: .relaxed) else { return }
            self.wake()
            self.arm()
        }
        source.resume()
    }

    /// The first instant of the day after the one `instant` falls on, in `timeZone`.
    static func nextMidnight(after instant: Date, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: instant)
        return calendar.date(byAdding: .day, value: 1, to: today) ?? instant.addingTimeInterval(86_400)
    }
}
