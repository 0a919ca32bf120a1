import EventTestSupport
import Foundation
import NIOCore
import Testing
import TodoEvents
import TodoModel
import TodoServers
import TodoViewModel

@Suite("Servers under concurrent requests")
struct ConcurrencyTests {
    @Test("50 concurrent toggles of one todo: all answered, revision 51, open again")
    func concurrentToggles() async throws {
        try await withHarness { h in
            await h.create("flip")
            let answers = h.bus.subscribe(to: Harness.viewResponses)
            let bus = h.bus
            let core = h.core
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        await core.publish(bus, .requestToggleComplete(.number(1)), correlation: Correlation(client: 2, request: "toggle-\(index)"))
                    }
                }
            }
            let received = await collect(50, from: answers) { $0.correlation?.client == 2 }
            #expect(Set(received.compactMap(\.correlation?.request)) == Set((0..<50).map { "toggle-\($0)" }))
            var revisions: [Int] = []
            var completions = 0
            for envelope in received {
                guard case .responseTodoViewModel(let change) = envelope.view else {
                    Issue.record("expected a change, got \(envelope.view)")
                    continue
                }
                revisions.append(change.todo.todo.revision)
                if change.kind == .completed { completions += 1 }
                // A toggle to completed leaves a completed todo, and the other way round.
                #expect((change.kind == .completed) == change.todo.isCompleted)
            }
            // Each answer is one revision on from the previous, in commit order.
            #expect(revisions == Array(2...51))
            #expect(completions == 25)
            let final = try #require(await h.detail(.number(1)))
            #expect(final.revision == 51)
            #expect(final.stateText == "open")
            #expect(final.todo.completedAt == nil)
        }
    }

    @Test("200 concurrent new todos: 200 answers, 200 rows numbered 1...200")
    func concurrentCreates() async throws {
        let directory = try TemporaryDirectory()
        try await withHarness(directory) { h in
            let answers = h.bus.subscribe(to: Harness.viewResponses)
            let bus = h.bus
            let core = h.core
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        await core.publish(bus, .requestNewTodo(NewTodo(title: "todo \(index)")), correlation: Correlation(client: 3, request: "new-\(index)"))
                    }
                }
            }
            let received = await collect(200, from: answers) { $0.correlation?.client == 3 }
            let changes = received.compactMap { envelope -> TodoChange? in
                if case .responseTodoViewModel(let change) = envelope.view { return change }
                return nil
            }
            #expect(changes.count == 200)
            #expect(changes.allSatisfy { $0.kind == .created })
            #expect(Set(changes.map(\.todo.number)) == Set(1...200))
            // Each answer carries the title its own request asked for.
            for envelope in received {
                guard case .responseTodoViewModel(let change) = envelope.view, let request = envelope.correlation?.request else { continue }
                #expect(request == "new-" + change.todo.title.dropFirst("todo ".count))
            }
            let list = try #require(await h.list(TodoFilter(status: .all)))
            #expect(list.todos.count == 200)
            #expect(Set(list.todos.map(\.number)) == Set(1...200))
            let batches = await h.onCore { $0.committedBatchSizes }
            #expect(batches.reduce(0, +) == 200)
            #expect(batches.count <= 200)
        }
        // Every row is on disk.
        let (todos, lastChange) = try TodoStore(path: directory.databasePath).loadAll()
        #expect(todos.map(\.number) == Array(1...200))
        #expect(lastChange == 200)
    }

    @Test("writes waiting together commit in one transaction (group commit), each answered on its own")
    func groupCommit() async throws {
        let directory = try TemporaryDirectory()
        let core = TestCore.make()
        let bus = EventBus(core: core)
        let server = try ModelServer(bus: bus, store: try TodoStore(path: directory.databasePath), core: core)
        let answers = bus.subscribe(to: [.model(.responseTodo)])
        // Published in one turn of the core, before the server runs: all 100 are waiting when
        // the writer starts, at the end of that turn, so at most the first can commit alone.
        await core.run {
            for index in 0..<100 {
                bus.publish(.requestWriteTodo(.create(NewTodo(title: "t\(index)"))), correlation: Correlation(client: 0, request: "\(index)"))
            }
        }
        let task = Task { await server.run() }
        let received = await collect(100, from: answers)
        task.cancel()
        await task.value
        #expect(received.map(\.correlation?.request) == (0..<100).map { "\($0)" })
        var numbers: [Int] = []
        for envelope in received {
            if case .responseTodo(let result)? = envelope.model, let todo = result.ownChange?.after { numbers.append(todo.number) }
        }
        #expect(numbers == Array(1...100))
        let batches = await core.run { server.committedBatchSizes }
        #expect(batches.reduce(0, +) == 100)
        #expect(batches.contains { $0 > 1 }, "batches: \(batches)")
    }
}

@Suite("Servers when the disk is full")
struct StorageFullTests {
    @Test("a write the database cannot hold is a storage error; what was written before survives")
    func storageFull() async throws {
        let directory = try TemporaryDirectory()
        var kept: [Todo] = []
        var storageError: TodoError?
        try await withHarness(directory, maximumPageCount: 24) { h in
            for title in ["one", "two", "three"] {
                kept.append(try #require(await h.create(title)))
            }
            // About 60 KB each: a few of these fill 24 pages.
            let big = String(repeating: "n", count: 60_000)
            for index in 0..<20 {
                let answer = await h.request(.requestNewTodo(NewTodo(title: "big \(index)", notes: big)))
                switch answer?.view {
                case .responseTodoViewModel(let change)?:
                    kept.append(change.todo.todo)
                case .responseError(let error)?:
                    storageError = error
                default:
                    Issue.record("unexpected answer \(String(describing: answer?.view))")
                }
                if storageError != nil || answer == nil { break }
            }
            let error = try #require(storageError, "the capped database never filled up")
            #expect(error.code == .storage)
            #expect(error.message.contains("nothing was changed"))
            // The server carries on: reads still work, small writes still may.
            #expect(await h.list(TodoFilter(status: .all))?.todos.count == kept.count)
        }
        #expect(kept.count >= 3)
        try await withHarness(directory) { h in
            let todos = try #require(await h.list(TodoFilter(status: .all))).todos.map(\.todo)
            #expect(Set(todos.map(\.id)) == Set(kept.map(\.id)))
            for todo in kept { #expect(todos.first { $0.id == todo.id } == todo) }
            // Without the cap, the same write succeeds.
            #expect(await h.change(.requestNewTodo(NewTodo(title: "big again", notes: String(repeating: "n", count: 60_000))))?.kind == .created)
        }
    }
}
