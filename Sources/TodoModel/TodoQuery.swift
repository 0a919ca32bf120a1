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
    /// Todos shown beside the answer: the parents of listed subtasks that the filter left
    /// out, or the subtasks of the one todo asked for.
    public var context: [Todo]
    /// The subtask progress of each parent among `todos`.
    public var progress: [SubtaskProgress]

    public init(query: TodoQuery, todos: [Todo], asOf: UInt64, context: [Todo] = [], progress: [SubtaskProgress] = []) {
        self.query = query
        self.todos = todos
        self.asOf = asOf
        self.context = context
        self.progress = progress
    }
}

/// The answer to a model write.
public enum TodoWriteResult: Sendable, Codable, Equatable {
    /// Committed and durable: every row the mutation changed, in commit order, each with
    /// its own `seq`. Never empty; the first is the mutation's own change (the asker's
    /// answer), the rest are its consequences (the next occurrence, a child deleted too).
    case written(TodoMutation, [JournalEntry])
    /// Nothing to change (completing a completed todo); nothing was written.
    case unchanged(TodoMutation, Todo)
    /// A purge: these todos are gone for good, their journal entries too. It took the
    /// change number `change`, which no broadcast carries.
    case purged(TodoMutation, [Todo], change: UInt64)
    case failed(TodoMutation, TodoModelError)
    /// An undo's preview (`TodoUndo.preview`): the changes it would take back; nothing was written.
    case previewed(TodoMutation, [JournalEntry])

    public var mutation: TodoMutation {
        switch self {
        case .written(let m, _), .unchanged(let m, _), .failed(let m, _), .purged(let m, _, _), .previewed(let m, _): m
        }
    }

    /// The mutation's own change, when it wrote one.
    public var ownChange: JournalEntry? {
        if case .written(_, let changes) = self { changes.first } else { nil }
    }
}
