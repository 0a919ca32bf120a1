import Foundation
import Synchronization
import TodoModel

/// Each todo's JSON, kept by id while the todo stays the same, so that a list of 10,000
/// todos sent again (every `todoctl list`, every `watch` refresh) splices bytes instead
/// of encoding every field again.
///
/// An entry is used only when the todo equals the one it was made from (every field, so a
/// revision reused by another database or a test cannot serve stale bytes). The cache
/// holds at most `capacity` todos and starts over when full: simple, and a daemon's
/// working set (its todos) fits.
final class EncodedTodoCache: Sendable {
    static let shared = EncodedTodoCache(capacity: 50_000)

    let capacity: Int
    private let entries = Mutex<[UUID: (todo: Todo, bytes: [UInt8])]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The todo's JSON (`Todo.encode(to:)` through `WireEncoder`).
    func bytes(of todo: Todo) throws -> [UInt8] {
        if let hit = entries.withLock({ $0[todo.id] }), hit.todo == todo { return hit.bytes }
        let bytes = try WireEncoder.bytes(TodoFields(todo: todo))
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[todo.id] = (todo, bytes)
        }
        return bytes
    }

    /// A todo encoded through its own conformance (not through the cache again).
    private struct TodoFields: Encodable {
        let todo: Todo
        func encode(to encoder: any Encoder) throws { try todo.encode(to: encoder) }
    }
}
