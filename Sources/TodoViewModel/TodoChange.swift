import TodoModel

/// One committed change to one todo, as every View receives it
/// (`responseTodoViewModel`). `sequence` is its place in the commit order: consecutive,
/// so a View that sees a gap knows it missed one and reloads.
public struct TodoChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case created, updated, completed, reopened, deleted, restored
        /// Nothing needed changing (completing a completed todo); only the asker hears it.
        case unchanged
    }

    public var kind: Kind
    public var todo: TodoViewModel
    public var sequence: UInt64

    public init(kind: Kind, todo: TodoViewModel, sequence: UInt64) {
        self.kind = kind
        self.todo = todo
        self.sequence = sequence
    }

    /// What a committed mutation did, in the words a View shows.
    public static func kind(of mutation: TodoMutation, after: Todo) -> Kind {
        switch mutation {
        case .create: return .created
        case .complete: return .completed
        case .reopen: return .reopened
        case .toggleComplete: return after.isCompleted ? .completed : .reopened
        case .delete: return .deleted
        case .restore: return .restored
        case .edit: return .updated
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind = "change", todo, sequence = "seq"
    }
}

/// A list answer (`responseTodoViewModels`): the rows in the default order, the filter
/// they answer, and the change sequence number they are current as of.
public struct TodoViewModelList: Sendable, Equatable, Codable {
    public var filter: TodoFilter
    public var todos: [TodoViewModel]
    /// Changes with a sequence number up to this one are already in `todos`.
    public var asOf: UInt64

    public init(filter: TodoFilter, todos: [TodoViewModel], asOf: UInt64) {
        self.filter = filter
        self.todos = todos
        self.asOf = asOf
    }

    private enum CodingKeys: String, CodingKey {
        case filter, todos, asOf = "seq"
    }
}
