import TodoModel

/// A list's todos in the shape a list shows (`TodoFilter.rows`): each as `Todo.encodeRow`
/// writes it, read back with the row's placeholders for what it leaves out.
///
/// A type of its own so that an encoder can tell these rows from whole todos: the daemon's
/// encoder splices each row's cached bytes (TodoWire's `EncodedTodoCache`), as it does a
/// whole todo's.
public struct TodoRows: Sendable, Equatable, Codable {
    public var rows: [TodoViewModel]

    public init(_ rows: [TodoViewModel]) {
        self.rows = rows
    }

    /// One row, coded as its todo's row.
    public struct Row: Codable {
        public let todo: Todo

        public init(_ todo: Todo) {
            self.todo = todo
        }

        public init(from decoder: any Decoder) throws {
            todo = try Todo(rowFrom: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try todo.encodeRow(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        rows = try [Row](from: decoder).map { TodoViewModel($0.todo) }
    }

    public func encode(to encoder: any Encoder) throws {
        try rows.map { Row($0.todo) }.encode(to: encoder)
    }
}
