/// What a model read asks for: a filtered list, or one todo.
public enum TodoQuery: Sendable, Codable, Equatable {
    case list(TodoFilter)
    case one(TodoRef)
}

/// The answer to a model read, with the change sequence number it is current as of:
/// a View that applies later changes on top of it misses none and repeats none.
public struct TodoQueryResult: Sendable, Codable, Equatable {
    public var query: TodoQuery
    public var todos: [Todo]
    public var asOf: UInt64

    public init(query: TodoQuery, todos: [Todo], asOf: UInt64) {
        self.query = query
        self.todos = todos
        self.asOf = asOf
    }
}

/// The answer to a model write.
public enum TodoWriteResult: Sendable, Codable, Equatable {
    /// Committed and durable; `change` is its place in the commit order.
    case written(TodoMutation, Todo, change: UInt64)
    /// Nothing to change (completing a completed todo); nothing was written.
    case unchanged(TodoMutation, Todo)
    case failed(TodoMutation, TodoModelError)

    public var mutation: TodoMutation {
        switch self {
        case .written(let m, _, _), .unchanged(let m, _), .failed(let m, _): m
        }
    }
}
