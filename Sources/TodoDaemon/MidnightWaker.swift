import Dispatch
import Foundation
import Logging
import NIOCore
import Synchronization
import TodoEvents
import TodoModel
import TodoServers

/// Ends the waiting of todos whose day (or time of day) has come, so that they appear in
/// every list at once, and deletes the open todos whose until day has passed (they expire,
/// as in Taskwarrior): at start, then at each local midnight and at each timed wait's minute
/// (`wait:fri@9am`). No polling: one timer, armed for the earliest of the next midnight and
/// the next timed wait's end on the wall clock (`CLOCK_REALTIME`, which libdispatch arms as
/// an absolute timerfd), so it also fires right after a suspend that slept through it, or
/// after the clock was set past it. A change that gives a todo an earlier timed wait arms it
/// again for then; one that takes a wait away leaves it, to wake for nothing and arm for the next.
///
/// Midnight and the minute are read from `clock` (the daemon's "now", which tests drive); the
/// timer waits as long in real time as `clock` says is left.
///
/// The timer is armed on the core, where the todos it waits for are known, and its state is
/// bound there (no lock): `todod.midnight` is only the queue its wall-clock timer fires on,
/// which hands the wake to the core.
final class MidnightWaker: Sendable {
    /// The timer armed and the instant it is armed for, by `clock`; `generation` tells a timer
    /// that fired as it was replaced from the one armed now.
    private struct Armed {
        var source: (any DispatchSourceTimer)?
        var target: Date = .distantFuture
        var generation: UInt64 = 0
    }

    private let model: ModelServer
    /// Where committed changes are read from (nil in a test of the timer alone).
    private let bus: EventBus?
    private let clock: @Sendable () -> Date
    private let timeZone: TimeZone
    private let core: any EventLoop
    private let logger: Logger
    /// Where the timer fires; Dispatch's, for a timer on the wall clock (NIO's follow the monotonic one).
    private let queue = DispatchQueue(label: "todod.midnight")
    /// Set by the stopping task, read when the timer fires and on the core: an atomic flag,
    /// no lock, set once and never cleared.
    private let stopped = Atomic(false)
    private let armed: NIOLoopBoundBox<Armed>

    init(model: ModelServer, bus: EventBus? = nil, clock: @escaping @Sendable () -> Date, timeZone: TimeZone = .current,
         logger: Logger, core: any EventLoop) {
        self.model = model
        self.bus = bus
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
        self.core = core
        armed = .makeBoxSendingValue(Armed(), eventLoop: core)
    }

    /// Wakes what is due now, arms the timer for the next wake, and follows the committed
    /// changes that bring a timed wait nearer.
    func start() {
        bus?.subscribe(to: [.view(.responseTodoViewModel), .view(.responseImportTodos)]) { [weak self] envelope in
            switch envelope.view {
            case .responseTodoViewModel(let change)?: self?.follow(change.eachChange.map(\.todo.todo))
            case .responseImportTodos(let result)?: self?.follow(result.changes.map(\.todo.todo))
            default: break
            }
        }
        core.execute { self.wake() }
    }

    /// The armed timer then fires once more at most, doing nothing.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// On the core: ends what is over now, and arms the timer for the next midnight or the
    /// next timed wait's end, whichever comes first.
    private func wake() {
        let now = clock()
        let minute = Self.minute(of: now, in: timeZone)
        let woken = model.endWaiting(on: minute.day, at: minute.time)
        if woken > 0 { logger.info("waiting is over", metadata: ["todos": "\(woken)", "day": "\(minute.day)", "time": "\(minute.time)"]) }
        let expired = model.expire(on: minute.day)
        if expired > 0 { logger.info("expired: past their until day, deleted", metadata: ["todos": "\(expired)", "day": "\(minute.day)"]) }
        let midnight = Self.nextMidnight(after: now, in: timeZone)
        let next = model.nextWaitEnd(after: minute.day, at: minute.time).flatMap { Self.instant($0.day, $0.time, in: timeZone) }
        arm(for: min(midnight, next ?? midnight), replacing: true)
    }

    /// On the core, for committed changes: a timed wait earlier than the armed instant arms
    /// the timer for it (already come: at once).
    private func follow(_ todos: [Todo]) {
        let ends = todos.compactMap { $0.waitEnds.flatMap { Self.instant($0.day, $0.time, in: timeZone) } }
        guard let earliest = ends.min() else { return }
        arm(for: earliest, replacing: false)
    }

    /// On the core: a one-shot timer for `target` by `clock`, replacing the armed one
    /// (`replacing`, after a wake) or only when it is earlier; when it fires it wakes (a test
    /// clock that has not reached the target yet just wakes for nothing and arms for the time
    /// still left).
    private func arm(for target: Date, replacing: Bool) {
        guard !stopped.load(ordering: .relaxed) else { return }
        guard replacing || target < armed.value.target else { return }
        armed.value.source?.cancel()
        let wait = max(target.timeIntervalSince(clock()), 0.001)
        let deadline = Date().addingTimeInterval(wait).timeIntervalSince1970
        let source = DispatchSource.makeTimerSource(queue: queue)
        let seconds = deadline.rounded(.down)
        source.schedule(wallDeadline: DispatchWallTime(timespec: timespec(tv_sec: Int(seconds), tv_nsec: Int((deadline - seconds) * 1e9))), leeway: .milliseconds(100))
        let generation = armed.value.generation + 1
        source.setEventHandler { [weak self] in
            source.cancel()
            guard let self, !self.stopped.load(ordering: .relaxed) else { return }
            self.core.execute {
                // A timer cancelled on the core as it fired here: the one armed since stands.
                guard self.armed.value.generation == generation else { return }
                self.armed.value = Armed(generation: generation)
                self.wake()
            }
        }
        armed.value = Armed(source: source, target: target, generation: generation)
        source.resume()
    }

    /// The local day and minute of `instant` in `timeZone`.
    static func minute(of instant: Date, in timeZone: TimeZone) -> (day: LocalDate, time: TimeOfDay) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return (LocalDate(instant, in: timeZone), TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0) ?? .endOfDay)
    }

    /// The instant `time` begins on `day` in `timeZone` (a minute a clock change skips: the next there is).
    static func instant(_ day: LocalDate, _ time: TimeOfDay, in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute))
    }

    /// The first instant of the day after the one `instant` falls on, in `timeZone`.
    static func nextMidnight(after instant: Date, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: instant)
        return calendar.date(byAdding: .day, value: 1, to: today) ?? instant.addingTimeInterval(86_400)
    }
}
