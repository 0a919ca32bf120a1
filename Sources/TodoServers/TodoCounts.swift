import TodoModel

/// How many todos are in each state, as of one committed change: kept by the in-memory
/// table as changes commit, so that the status costs nothing to answer.
public struct TodoCounts: Sendable, Equatable {
    public var open = 0
    public var completed = 0
    public var deleted = 0
    /// The last change these counts include: read together, so that a client can go on
    /// counting from the changes after it.
    public var asOf: UInt64 = 0

    mutating func add(_ todo: Todo, _ amount: Int) {
        if todo.isDeleted { deleted += amount } else if todo.isCompleted { completed += amount } else { open += amount }
    }
}
