import Foundation
import Logging
import NIOCore
import TodoModel

/// The iCalendar files todod could not write (a full disk, a read-only remount), for
/// CalendarDirectory: told once, tried again after a wait that doubles at each failure up to
/// `lastRetry`, and said when they are all written. Bound to the core, where files are written.
final class UnwrittenCalendarFiles: Sendable {
    /// The first wait before a file not written is tried again, doubled at each failure up to `lastRetry`.
    static let firstRetry = 1.0
    static let lastRetry = 60.0

    private struct State {
        var todos: [UUID: Todo] = [:]
        var retryDelay = UnwrittenCalendarFiles.firstRetry
        var retryScheduled = false
    }

    /// The directory, for the log.
    private let path: String
    private let logger: Logger
    private let state: NIOLoopBoundBox<State>

    init(path: String, logger: Logger, core: any EventLoop) {
        self.path = path
        self.logger = logger
        state = .makeBoxSendingValue(State(), eventLoop: core)
    }

    /// `todo`'s file was not written: told the first time, and tried again on the core with
    /// `writeAgain` (for every file not written by then) until it is.
    func failed(_ todo: Todo, file: String, error: DaemonError, writeAgain: @escaping @Sendable (Todo) -> Void) {
        let (first, delay) = state.withValue { state -> (Bool, Double?) in
            let first = state.todos.isEmpty && !state.retryScheduled
            state.todos[todo.id] = todo
            guard !state.retryScheduled else { return (first, nil) }
            state.retryScheduled = true
            defer { state.retryDelay = min(state.retryDelay * 2, Self.lastRetry) }
            return (first, state.retryDelay)
        }
        if first {
            logger.error("cannot write an iCalendar file; check the directory given to --ical-dir (it must exist, be writable and have room): todod tries again until it can",
                         metadata: ["file": "\(file)", "error": "\(error.message)"])
        } else {
            logger.debug("an iCalendar file still cannot be written", metadata: ["file": "\(file)", "error": "\(error.message)"])
        }
        guard let delay else { return }
        state.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { [weak self] in
            for todo in self?.takeForRetry() ?? [] { writeAgain(todo) }
        }
    }

    /// `todo`'s file is written: when it was the last one waiting, that is said.
    func written(_ todo: Todo) {
        let caughtUp = state.withValue { state -> Bool in
            guard state.todos.removeValue(forKey: todo.id) != nil, state.todos.isEmpty else { return false }
            state.retryDelay = Self.firstRetry
            return true
        }
        if caughtUp { logger.notice("the iCalendar files that could not be written are written now", metadata: ["directory": "\(path)"]) }
    }

    /// `todo`'s file is not to be written any more (another program changed it).
    func forget(_ todo: Todo) {
        state.withValue { _ = $0.todos.removeValue(forKey: todo.id) }
    }

    /// Every file not written yet, to try again; another failure schedules the next try.
    private func takeForRetry() -> [Todo] {
        state.withValue { state in
            state.retryScheduled = false
            return Array(state.todos.values)
        }
    }
}
