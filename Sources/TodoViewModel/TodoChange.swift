import TodoModel

/// One committed change to one todo, as every View receives it
/// (`responseTodoViewModel`). `sequence` is its place in the commit order: consecutive,
/// so a View that sees a gap knows it missed one and reloads.
///
/// A write that changes several todos in one step carries the others in `further`, so
/// that its answer is the whole step: one frame tells the asker and every View all of it.
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
    /// The other changes of the same step, in commit order, their sequence numbers following
    /// this one's: a repeating todo's next occurrence, the subtasks completed, deleted or
    /// restored with their parent. Empty on a change that is itself one of those.
    public var further: [TodoChange]
    /// The step it went on when an earlier request began it (the `seq` of that step's first
    /// change: a request naming `step`, or an import's later todos); nil when it is its
    /// own step's first change, or one of `further` (which share the answer's step).
    public var step: UInt64?
    /// Saved on the daemon's machine alone: its shared store (`todod --store`) was away (why,
    /// in the store's words), and the change is shared once it is back. Sent only when so.
    public var unshared: String?

    public init(kind: Kind, todo: TodoViewModel, sequence: UInt64, further: [TodoChange] = [], step: UInt64? = nil, unshared: String? = nil) {
        self.kind = kind
        self.todo = todo
        self.sequence = sequence
        self.further = further
        self.step = step
        self.unshared = unshared
    }

    /// The broadcast of one journaled change.
    public init(_ entry: JournalEntry) {
        self.init(kind: Kind(entry.kind), todo: TodoViewModel(entry.after), sequence: entry.seq, step: entry.step == entry.seq ? nil : entry.step,
                  unshared: entry.unshared)
    }

    /// A write's answer: its own journaled change, carrying the rest of its step.
    public init(_ own: JournalEntry, further: some Sequence<JournalEntry>) {
        self.init(own)
        self.further = further.map { TodoChange(kind: Kind($0.kind), todo: TodoViewModel($0.after), sequence: $0.seq) }
    }

    /// The step a client's next request of the same command names: the one this change
    /// went on (nil for `unchanged`, which wrote nothing).
    public var stepToContinue: UInt64? {
        kind == .unchanged ? nil : step ?? sequence
    }

    /// Each change of the step on its own, in commit order: what a View applies one by one.
    public var eachChange: [TodoChange] {
        [TodoChange(kind: kind, todo: todo, sequence: sequence)] + further
    }

    private enum CodingKeys: String, CodingKey {
        case kind = "change", todo, sequence = "seq", further, step, unshared
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try c.decode(Kind.self, forKey: .kind), todo: try c.decode(TodoViewModel.self, forKey: .todo),
            sequence: try c.decode(UInt64.self, forKey: .sequence),
            further: try c.decodeIfPresent([TodoChange].self, forKey: .further) ?? [],
            step: try c.decodeIfPresent(UInt64.self, forKey: .step),
            unshared: try c.decodeIfPresent(String.self, forKey: .unshared))
    }

    /// `further` only when there are some, so a one-change step is the line it always was
    /// (and a client that does not know `further` still reads every frame).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(todo, forKey: .todo)
        try c.encode(sequence, forKey: .sequence)
        if !further.isEmpty { try c.encode(further, forKey: .further) }
        try c.encodeIfPresent(step, forKey: .step)
        try c.encodeIfPresent(unshared, forKey: .unshared)
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

    /// The todos as rows when the filter asked for them (`TodoFilter.rows`), whole otherwise.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let filter = try c.decode(TodoFilter.self, forKey: .filter)
        let rows = filter.rows
        self.init(
            filter: filter,
            todos: try rows ? c.decode(TodoRows.self, forKey: .todos).rows : c.decode([TodoViewModel].self, forKey: .todos),
            asOf: try c.decode(UInt64.self, forKey: .asOf),
            context: try (rows ? c.decodeIfPresent(TodoRows.self, forKey: .context)?.rows : c.decodeIfPresent([TodoViewModel].self, forKey: .context)) ?? [],
            progress: try c.decodeIfPresent([SubtaskProgress].self, forKey: .progress) ?? [])
    }

    /// `context` and `progress` only when there are subtasks, so plain lists read as before;
    /// the todos as rows when the filter asks for them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(filter, forKey: .filter)
        if filter.rows { try c.encode(TodoRows(todos), forKey: .todos) } else { try c.encode(todos, forKey: .todos) }
        try c.encode(asOf, forKey: .asOf)
        if !context.isEmpty {
            if filter.rows { try c.encode(TodoRows(context), forKey: .context) } else { try c.encode(context, forKey: .context) }
        }
        if !progress.isEmpty { try c.encode(progress, forKey: .progress) }
    }
}
