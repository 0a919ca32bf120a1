import Foundation
import Synchronization
import TodoModel
import TodoViewModel

/// Each todo's JSON, kept by id while the todo stays the same, so that a list of 10,000
/// todos sent again (every `todoctl list`, every `watch` refresh) splices bytes instead
/// of encoding every field again; a list's rows (`TodoRows`) likewise, apart.
///
/// An entry is used only when the todo equals the one it was made from (every field, so a
/// revision reused by another database or a test cannot serve stale bytes). The cache
/// holds at most `capacity` todos and starts over when full: simple, and a daemon's
/// working set (its todos) fits.
final class EncodedTodoCache: Sendable {
    static let shared = EncodedTodoCache(capacity: 50_000)

    /// A todo and its JSON, by reference: a lookup is one retain. As a tuple in the
    /// dictionary, each lookup copied the todo field by field through its value witness,
    /// and the list's rows were copied out into an array of todos first: a fifth of the
    /// daemon's time answering a list of 10,000 (perf `-e cpu-clock`).
    private final class Entry: Sendable {
        let todo: Todo
        let bytes: [UInt8]

        init(_ todo: Todo, _ shape: Shape) throws {
            self.todo = todo
            bytes = try WireEncoder.bytes(TodoFields(todo: todo, shape: shape))
        }
    }

    /// Which JSON of a todo: the whole todo, or its list row (`Todo.encodeRow`).
    enum Shape {
        case whole, row
    }

    let capacity: Int
    /// Process-wide, for every thread that encodes (the daemon's core; a client's main thread or
    /// NIO loop), so it keeps its lock; in the daemon only the core takes it, uncontended.
    private let entries = Mutex<[Shape: [UUID: Entry]]>([.whole: [:], .row: [:]])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The todo's JSON (`Todo.encode(to:)` through `WireEncoder`).
    func bytes(of todo: Todo) throws -> [UInt8] {
        if let hit = entries.withLock({ $0[.whole]?[todo.id] }), hit.todo == todo { return hit.bytes }
        let made = try Entry(todo, .whole)
        keep([made], .whole)
        return made.bytes
    }

    /// Each row's JSON in `shape`, in their order, the cache locked twice for all of them
    /// (a list of 300 locked it 300 times).
    func bytes(of rows: [TodoViewModel], _ shape: Shape = .whole) throws -> [[UInt8]] {
        let hits: [Entry?] = entries.withLock { entries in
            let kept = entries[shape] ?? [:]
            return rows.map { kept[$0.todo.id] }
        }
        var all: [[UInt8]] = []
        all.reserveCapacity(rows.count)
        var made: [Entry] = []
        for index in rows.indices {
            if let hit = hits[index], hit.todo == rows[index].todo {
                all.append(hit.bytes)
            } else {
                let entry = try Entry(rows[index].todo, shape)
                made.append(entry)
                all.append(entry.bytes)
            }
        }
        keep(made, shape)
        return all
    }

    /// A todo's whole JSON and its row are kept apart: a list of rows and a change
    /// broadcast the same todo in turns.
    private func keep(_ made: [Entry], _ shape: Shape) {
        guard !made.isEmpty else { return }
        entries.withLock { entries in
            for entry in made {
                if entries[shape, default: [:]].count >= capacity { entries[shape]?.removeAll(keepingCapacity: true) }
                entries[shape, default: [:]][entry.todo.id] = entry
            }
        }
    }

    /// A todo encoded through its own conformance (not through the cache again).
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
