import Foundation
import Synchronization

/// Names of files another program removed, handed on together once removals have been quiet
/// for `quiet`, for CalendarDirectory: `rm -rf DIR` removes every file before the directory,
/// and a directory that goes away must delete no todo, which only a look after the last
/// removal can tell.
final class QuietRemovals: Sendable {
    /// How long removals must be quiet before they are handed on.
    static let quiet = DispatchTimeInterval.milliseconds(500)

    private struct State {
        var names: [String] = []
        /// Counts the removals, so that a wait that another removal followed hands on nothing.
        var generation = 0
    }

    /// A lock shared by two threads: `todod.ical-dir` counts each removal as inotify reads it, and
    /// Dispatch's timer queue takes the names once quiet; neither is the core, and neither waits on it.
    private let state = Mutex(State())

    /// The file `name` was removed: `handOn` gets it, with the others removed meanwhile, once
    /// `quiet` has passed without another removal (on a queue of Dispatch's).
    func removed(_ name: String, handOn: @escaping @Sendable ([String]) -> Void) {
        let generation = state.withLock { state in
            state.names.append(name)
            state.generation += 1
            return state.generation
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.quiet) { [weak self] in
            guard let names = self?.take(ifStill: generation) else { return }
            handOn(names)
        }
    }

    /// The names removed, unless another removal came after `generation`.
    private func take(ifStill generation: Int) -> [String]? {
        state.withLock { state in
            guard state.generation == generation, !state.names.isEmpty else { return nil }
            defer { state.names = [] }
            return state.names
        }
    }
}
