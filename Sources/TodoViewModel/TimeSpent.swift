import Foundation
import TodoModel

/// The time a todo was worked on, summed from its history's starts and stops (`todoctl
/// start`/`stop`, and `done`, which stops): each start until the change that stopped it, the
/// current one until `now`. An undo that takes back a start takes back its time too, and
/// one that takes back a stop (or a done) carries the start on as if never stopped.
public enum TimeSpent {
    /// Seconds, from `history`: one todo's changes, oldest first (`responseHistory`).
    public static func seconds(in history: [JournaledChange], now: Date) -> TimeInterval {
        // Each start's end, by the start's time; nil while it runs.
        var ends: [Date: Date?] = [:]
        var current: Date?
        for change in history {
            let started = change.todo.todo.started
            guard started != current else { continue }
            if let current {
                if change.undoes != nil && started == nil { ends[current] = nil } else { ends[current] = .some(change.at) }
            }
            if let started { ends[started] = .some(nil) }
            current = started
        }
        return ends.reduce(0) { total, span in total + max(0, (span.value ?? now).timeIntervalSince(span.key)) }
    }
}
