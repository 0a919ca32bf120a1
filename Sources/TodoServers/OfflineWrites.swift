import Synchronization

/// Writes kept on this machine alone because the shared store could not be reached (shared
/// once it is back, `PendingChanges`), counted instead of logged one by one: a storm of
/// writes while PostgreSQL was down made a log line each, 2,000 a second (issue 25). The
/// outage is logged once when it starts and once when it ends, with this count
/// (SharedStoreMonitor); while it lasts, the count so far at most once per `interval`.
public final class OfflineWrites: Sendable {
    private struct State {
        var count = 0
        /// When the count was last logged, or the outage's first write was counted.
        var told: ContinuousClock.Instant?
    }

    /// A lock shared by two threads: `todod.storage` counts as it commits offline, the core takes
    /// the count when the store is back (SharedStoreMonitor); a hop to the core per offline commit would slow the write path.
    private let state = Mutex(State())
    /// How often the count so far is logged while the offline writes go on.
    let interval: Duration

    init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    /// Counts `count` writes made offline at `now`; returns the count so far when it is to be
    /// logged now (`interval` after the first write, or after the count was last logged).
    func counted(_ count: Int, at now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            state.count += count
            guard let told = state.told else {
                state.told = now
                return nil
            }
            guard now - told >= interval else { return nil }
            state.told = now
            return state.count
        }
    }

    /// The writes made offline since the outage began (since the last call), and zero again:
    /// the store is back, or the daemon stops.
    public func take() -> Int {
        state.withLock { state in
            defer { state = State() }
            return state.count
        }
    }
}
