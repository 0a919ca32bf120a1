import TodoModel

/// One committed change to one todo, as every View receives it
/// (`responseTodoViewModel`). `sequence` is its place in the commit order: consecutive,
/// so a View that sees a gap knows it missed one and reloads.
public struct TodoChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case created, updated, completed, reopened, deleted, restored
        /// Nothing needed changing (completing a completed todo); only the asker hears it.
        case unchanged

        public init(_ kind: TodoChangeKind) {
            switch kind {
            case .created: self = .created
            case .updated: self = .updated
            case .completed: self = .completed
            case .reopened: self = .reopened
            case .deleted: self = .deleted
            case .restored: self = .restored
            }
        }
    }

    public var kind: Kind
    public var todo: TodoViewModel
    public var sequence: UInt64

    public init(kind: Kind, todo: TodoViewModel, sequence: UInt64) {
        self.kind = kind
        self.todo = todo
        self.sequence = sequence
    }

    /// The broadcast of one journaled change.
    public init(_ entry: JournalEntry) {
        self.init(kind: Kind(entry.kind), todo: TodoViewModel(entry.after), sequence: entry.seq)
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
    /// Parents of listed subtasks that the filter left out, shown for context.
    public var context: [TodoViewModel]
    /// Each listed (or context) parent's subtask progress.
    public var progress: [SubtaskProgress]

    public init(filter: TodoFilter, todos: [TodoViewModel], asOf: UInt64, context: [TodoViewModel] = [], progress: [SubtaskProgress] = []) {
        self.filter = filter
        self.todos = todos
        self.asOf = asOf
        self.context = context
        self.progress = progress
    }

    /// The progress of the parent numbered `number`, or nil when it has no subtasks.
    public func progress(of number: Int) -> SubtaskProgress? {
        progress.first { $0.parent == number }
    }

    private enum CodingKeys: String, CodingKey {
        case filter, todos, asOf = "seq", context, progress
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            filter: try c.decode(TodoFilter.self, forKey: .filter), todos: try c.decode([TodoViewModel].self, forKey: .todos),
            asOf: try c.decode(UInt64.self, forKey: .asOf),
            context: try c.decodeIfPresent([TodoViewModel].self, forKey: .context) ?? [],
            progress: try c.decodeIfPresent([SubtaskProgress].self, forKey: .progress) ?? [])
    }

    /// `context` and `progress` only when there are subtasks, so plain lists read as before.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(filter, forKey: .filter)
        try c.encode(todos, forKey: .todos)
        try c.encode(asOf, forKey: .asOf)
        if !context.isEmpty { try c.encode(context, forKey: .context) }
        if !progress.isEmpty { try c.encode(progress, forKey: .progress) }
    }
}
