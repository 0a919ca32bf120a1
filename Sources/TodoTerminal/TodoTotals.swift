import TodoViewModel

/// How many live todos are open and done in the whole database, whatever the list shows:
/// the watch header's counts. The daemon counts them once (its status, on connecting and
/// after a gap); from then on each change's kind keeps them, so no change costs a request.
public struct TodoTotals: Sendable, Equatable {
    public private(set) var open: Int
    public private(set) var done: Int
    /// The sequence number of the last change these counts include.
    public private(set) var asOf: UInt64

    public init(open: Int, done: Int, asOf: UInt64) {
        self.open = open
        self.done = done
        self.asOf = asOf
    }

    /// Counts a change, once: one already included (`sequence` ≤ `asOf`) changes nothing.
    public mutating func count(_ change: TodoChange) {
        guard change.sequence > asOf else { return }
        asOf = change.sequence
        // A deleted or restored todo leaves or rejoins the count its completion says.
        let completed = change.todo.isCompleted
        switch change.kind {
        case .created: open += 1
        case .completed: (open, done) = (open - 1, done + 1)
        case .reopened: (open, done) = (open + 1, done - 1)
        case .deleted: if completed { done -= 1 } else { open -= 1 }
        case .restored: if completed { done += 1 } else { open += 1 }
        case .updated, .unchanged: break
        }
    }
}
