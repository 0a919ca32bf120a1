/// How far a parent's live subtasks are: `2/5` is 2 done of 5.
public struct SubtaskProgress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The parent's number.
    public var parent: Int
    public var done: Int
    public var total: Int

    public init(parent: Int, done: Int, total: Int) {
        self.parent = parent
        self.done = done
        self.total = total
    }

    /// Counts the live subtasks among `subtasks`.
    public init(parent: Int, subtasks: some Sequence<Todo>) {
        var (done, total) = (0, 0)
        for todo in subtasks where !todo.isDeleted {
            total += 1
            if todo.isCompleted { done += 1 }
        }
        self.init(parent: parent, done: done, total: total)
    }

    /// `2/5`
    public var description: String { "\(done)/\(total)" }
}
