import EventTestSupport
import Foundation
import NIOCore
import Testing
import TodoEvents
import TodoModel
import TodoServers
import TodoViewModel

/// `requestImportTodos` through both servers onto a real SQLite file.
@Suite("Importing todos by id")
struct ImportTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)

    static func imported(_ title: String, id: UUID = UUID(), updatedAt: Date = then) -> ImportedTodo {
        ImportedTodo(id: id, title: title, tags: ["project:work"], createdAt: then, updatedAt: updatedAt,
                     foreign: ["taskwarrior": #"{"estimate":3}"#])
    }

    /// Publishes an import and returns the asker's answer and every change broadcast for it.
    private func send(_ todos: [ImportedTodo], to h: Harness) async -> (answer: Event?, broadcasts: [TodoChange]) {
        let responses = h.bus.subscribe(to: [.responseImportTodos, .responseError, .responseTodoViewModel])
        let correlation = Correlation(client: 4, request: "import")
        await h.core.publish(h.bus, .requestImportTodos(todos), correlation: correlation)
        var broadcasts: [TodoChange] = []
        for await envelope in responses {
            if case .responseTodoViewModel(let change) = envelope.view, envelope.correlation == nil { broadcasts.append(change); continue }
            if envelope.correlation == correlation { return (envelope.view, broadcasts) }
        }
        return (nil, broadcasts)
    }

    @Test("New ids are created with their source's times and foreign fields, each change broadcast, the asker told the sum")
    func create() async throws {
        try await withHarness { h in
            let todos = [Self.imported("one"), Self.imported(" two ")]
            let (answer, broadcasts) = await send(todos, to: h)
            guard case .responseImportTodos(let result)? = answer else { Issue.record("got \(String(describing: answer))"); return }
            #expect(result.changes.map(\.kind) == [.created, .created])
            #expect(broadcasts.map(\.sequence) == [1, 2])
            #expect(broadcasts.map(\.todo.title) == ["one", "two"])
            let list = try #require(await h.list())
            let stored = try #require(list.todos.first { $0.id == todos[0].id }?.todo)
            #expect(stored.createdAt == Self.then)
            #expect(stored.updatedAt == Self.then)
            #expect(stored.foreign == ["taskwarrior": #"{"estimate":3}"#])
            #expect(await h.onCore { $0.committedBatchSizes.last } == 2)
        }
    }

    @Test("The same import again changes nothing; a newer one updates; an older one leaves todod's todo")
    func reimport() async throws {
        try await withHarness { h in
            let id = UUID()
            _ = await send([Self.imported("first", id: id)], to: h)
            let (same, sameBroadcasts) = await send([Self.imported("first", id: id)], to: h)
            guard case .responseImportTodos(let unchanged)? = same else { Issue.record("got \(String(describing: same))"); return }
            #expect(unchanged.changes.map(\.kind) == [.unchanged])
            #expect(sameBroadcasts.isEmpty)

            let (newer, _) = await send([Self.imported("renamed", id: id, updatedAt: Self.then.addingTimeInterval(60))], to: h)
            guard case .responseImportTodos(let updated)? = newer else { Issue.record("got \(String(describing: newer))"); return }
            #expect(updated.changes.map(\.kind) == [.updated])
            #expect(updated.changes.first?.todo.todo.revision == 2)

            let (older, _) = await send([Self.imported("stale", id: id, updatedAt: Self.then.addingTimeInterval(30))], to: h)
            guard case .responseImportTodos(let kept)? = older else { Issue.record("got \(String(describing: older))"); return }
            #expect(kept.changes.map(\.kind) == [.unchanged])
            let list = try #require(await h.list())
            #expect(list.todos.map(\.title) == ["renamed"])
        }
    }

    @Test("An invalid todo in the batch is refused by its position and id, and none of the batch is written")
    func invalid() async throws {
        try await withHarness { h in
            let bad = Self.imported("bell\u{7}")
            let (answer, broadcasts) = await send([Self.imported("fine"), bad], to: h)
            guard case .responseError(let error)? = answer else { Issue.record("got \(String(describing: answer))"); return }
            #expect(error.code == .validation)
            #expect(error.message.hasPrefix("todo 2 (\(bad.id.uuidString.lowercased())): title: contains the control character U+0007"))
            #expect(broadcasts.isEmpty)
            let list = try #require(await h.list())
            #expect(list.todos.isEmpty)
        }
    }
}
