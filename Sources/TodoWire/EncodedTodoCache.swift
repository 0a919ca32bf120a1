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
    /// Process-wide, for every thread that encodes (the daemon's core; a client's main thread or
    /// NIO loop), so it keeps its lock; in the daemon only the core takes it, uncontended.
    private let entries = Mutex<[UUID: (todo: Todo, bytes: [UInt8])]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The todo's JSON (`Todo.encode(to:)` through `WireEncoder`).
    func bytes(of todo: Todo) throws -> [UInt8] {
        try bytes(of: [todo])[0]
    }

    /// Each todo's JSON, in their order, the cache locked twice for all of them (a list of
    /// 300 locked it 300 times).
    func bytes(of todos: [Todo]) throws -> [[UInt8]] {
        let hits: [[UInt8]?] = entries.withLock { entries in
            todos.map { todo in entries[todo.id].flatMap { $0.todo == todo ? $0.bytes : nil } }
        }
        var made: [(Todo, [UInt8])] = []
        let all = try zip(todos, hits).map { todo, hit in
            if let hit { return hit }
            let bytes = try WireEncoder.bytes(TodoFields(todo: todo))
            made.append((todo, bytes))
            return bytes
        }
        guard !made.isEmpty else { return all }
        entries.withLock { entries in
            for (todo, bytes) in made {
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[todo.id] = (todo, bytes)
            }
        }
        return all
    }

    /// A todo encoded through its own conformance (not through the cache again).
    private struct TodoFields: Encodable {
        let todo: Todo
        func encode(to encoder: any Encoder) throws { try todo.encode(to: encoder) }
    }
}
