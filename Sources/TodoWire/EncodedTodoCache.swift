import TodoModel
import TodoViewModel

/// Each todo's JSON, kept with the todo while it stays the same (`Todo.encoded(_:orMake:)`),
/// so that a list of 10,000 todos sent again (every `todoctl list`, every `watch` refresh)
/// splices bytes instead of encoding every field again; a list's rows (`TodoRows`) likewise,
/// apart.
///
/// Kept in the todo, not in a table by id: a lookup there (the UUID hashed, a lock, the todo
/// compared with the one the bytes were made of, an entry retained) was 740 instructions a
/// row, a third of the daemon's instructions answering a list of 100 (callgrind, a bare client
/// asking in a loop); the todo's own slot is one atomic load. Bytes kept with a todo cannot be
/// stale (a changed todo is new fields, with nothing kept), and go when it goes.
enum EncodedTodoCache {
    /// Which JSON of a todo: the whole todo, or its list row (`Todo.encodeRow`).
    typealias Shape = Todo.EncodedForm

    /// The todo's JSON in `shape` (`Todo.encode(to:)` or `encodeRow(to:)` through `WireEncoder`).
    static func bytes(of todo: Todo, _ shape: Shape = .whole) throws -> [UInt8] {
        try todo.encoded(shape) { try WireEncoder.bytes(TodoFields(todo: todo, shape: shape)) }
    }

    /// Each row's JSON in `shape`, in their order.
    static func bytes(of rows: [TodoViewModel], _ shape: Shape = .whole) throws -> [[UInt8]] {
        try rows.map { try bytes(of: $0.todo, shape) }
    }

    /// A todo encoded through its own conformance (not through its kept bytes again).
    private struct TodoFields: Encodable {
        let todo: Todo
        let shape: Shape
        func encode(to encoder: any Encoder) throws {
            switch shape {
            case .whole: try todo.encode(to: encoder)
            case .row: try todo.encodeRow(to: encoder)
            }
        }
    }
}
