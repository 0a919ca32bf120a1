import TodoViewModel

/// A todo in a bulk command's `--json` array: its fields, and `change`, what its last
/// change in this run was (`completed`, `deleted`, `unchanged`, …), as broadcasts name it.
struct ChangedTodo: Encodable {
    let kind: TodoChange.Kind
    let todo: TodoViewModel

    func encode(to encoder: any Encoder) throws {
        try todo.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind, forKey: .change)
    }

    private enum Key: String, CodingKey { case change }
}
