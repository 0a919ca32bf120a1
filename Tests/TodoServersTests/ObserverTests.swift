import EventTestSupport
import Foundation
import NIOCore
import Synchronization
import Testing
import TodoEvents
import TodoModel
import TodoServers
import TodoViewModel

/// Each server alone on a bus, in the style of the EventMVVM article: publish what it
/// observes, await what it publishes in answer, with the same correlation.
@Suite("ViewModelServer alone")
struct ViewModelServerTests {
    /// The loop the bus is bound to: events are published there, as the daemon's connections do.
    let core = TestCore.make()
    static let edit = TodoEdit(title: " New title ", tags: ["#a", "a"])
    static let todo = Todo(number: 3, title: "Buy milk", createdAt: Date(millisecondsSince1970: 1_780_000_000_000), revision: 2)

    /// View requests and the model request each must become.
    static let viewToModel: [(Event, ModelEvent)] = [
        (.requestNewTodo(NewTodo(title: "  Buy milk ", tags: ["#home", "home"])),
         .requestWriteTodo(.create(NewTodo(title: "Buy milk", tags: ["home"])))),
        (.requestToggleComplete(.number(3)), .requestWriteTodo(.toggleComplete(.number(3)))),
        (.requestCompleteTodo(.number(3)), .requestWriteTodo(.complete(.number(3)))),
        (.requestReopenTodo(.idPrefix("deadbeef")), .requestWriteTodo(.reopen(.idPrefix("deadbeef")))),
        (.requestDeleteTodo(.number(4)), .requestWriteTodo(.delete(.number(4)))),
        (.requestRestoreTodo(.number(4)), .requestWriteTodo(.restore(.number(4)))),
        (.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(3), revision: 2, edit: edit)),
         .requestWriteTodo(.edit(.number(3), TodoEdit(title: "New title", tags: ["a"]), expectedRevision: 2))),
        (.requestTodoViewModels(TodoFilter(status: .completed, tag: "home")),
         .requestReadTodos(.list(TodoFilter(status: .completed, tag: "home")))),
        (.requestTodoDetail(.number(3)), .requestReadTodos(.one(.number(3)))),
    ]

    @Test("a view request becomes its model request, with the same correlation", arguments: viewToModel)
    func viewRequestBecomesModelRequest(request: Event, expected: ModelEvent) async {
        let bus = EventBus(core: core)
        let server = ViewModelServer(bus: bus)
        defer { withExtendedLifetime(server) {} }
        let modelRequests = bus.subscribe(to: [.model(expected.kind)])
        let correlation = Correlation(client: 3, request: "req-\(request.kind.rawValue)")
        await core.publish(bus, request, correlation: correlation)
        let answer = await first(from: modelRequests)
        #expect(answer?.model == expected)
        #expect(answer?.correlation == correlation)
    }

    static func entry(_ seq: UInt64, _ kind: TodoChangeKind, before: Todo?) -> JournalEntry {
        JournalEntry(seq: seq, step: seq, at: todo.updatedAt, author: ChangeAuthor(), kind: kind, before: before, after: todo)
    }

    /// Model responses and the view response each must become.
    static let modelToView: [(ModelEvent, Event)] = [
        (.responseTodo(.written(.create(NewTodo(title: "Buy milk")), [entry(7, .created, before: nil)])),
         .responseTodoViewModel(TodoChange(kind: .created, todo: TodoViewModel(todo), sequence: 7))),
        (.responseTodo(.written(.delete(.number(3)), [entry(8, .deleted, before: todo)])),
         .responseTodoViewModel(TodoChange(kind: .deleted, todo: TodoViewModel(todo), sequence: 8))),
        (.responseTodo(.unchanged(.complete(.number(3)), todo)),
         .responseTodoViewModel(TodoChange(kind: .unchanged, todo: TodoViewModel(todo), sequence: 0))),
        (.responseTodo(.failed(.complete(.number(9)), .notFound(.number(9)))),
         .responseError(TodoError(TodoModelError.notFound(.number(9))))),
        (.responseTodo(.failed(.edit(.number(3), TodoEdit(title: "x"), expectedRevision: 1), .conflict(current: todo))),
         .responseError(TodoError(TodoModelError.conflict(current: todo)))),
        (.responseTodos(TodoQueryResult(query: .list(TodoFilter()), todos: [todo], asOf: 5)),
         .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: [TodoViewModel(todo)], asOf: 5))),
        (.responseTodos(TodoQueryResult(query: .one(.number(3)), todos: [todo], asOf: 5)),
         .responseTodoDetail(TodoDetailViewModel(todo))),
        (.responseTodos(TodoQueryResult(query: .one(.number(99)), todos: [], asOf: 5)),
         .responseError(TodoError(TodoModelError.notFound(.number(99))))),
    ]

    @Test("a model response becomes its view response, with the same correlation", arguments: modelToView)
    func modelResponseBecomesViewResponse(response: ModelEvent, expected: Event) async {
        let bus = EventBus(core: core)
        let server = ViewModelServer(bus: bus)
        defer { withExtendedLifetime(server) {} }
        let viewResponses = bus.subscribe(to: [expected.kind])
        let correlation = Correlation(client: 5, request: "model-answer")
        await core.publish(bus, response, correlation: correlation)
        let answer = await first(from: viewResponses)
        #expect(answer?.view == expected)
        #expect(answer?.correlation == correlation)
    }

    @Test("a mutation that changed several todos is answered with all of them in one event, its own first, and nothing else")
    func everyChangeOfAWriteIsInItsAnswer() async {
        let bus = EventBus(core: core)
        let server = ViewModelServer(bus: bus)
        defer { withExtendedLifetime(server) {} }
        let changes = bus.subscribe(to: [.responseTodoViewModel])
        var next = Self.todo
        next.id = UUID()
        next.number = 4
        let consequence = JournalEntry(seq: 8, step: 7, at: next.createdAt, author: ChangeAuthor(), kind: .created, before: nil, after: next)
        let correlation = Correlation(client: 5, request: "complete")
        await core.publish(bus, .responseTodo(.written(.complete(.number(3)), [Self.entry(7, .completed, before: Self.todo), consequence])), correlation: correlation)
        // The next write's answer comes right after: no change of the first step was published on its own.
        let later = Correlation(client: 6, request: "later")
        await core.publish(bus, .responseTodo(.written(.reopen(.number(4)), [Self.entry(9, .reopened, before: next)])), correlation: later)
        let events = await collect(2, from: changes)
        #expect(events.map(\.correlation) == [correlation, later])
        let completed = TodoChange(kind: .completed, todo: TodoViewModel(Self.todo), sequence: 7)
        let created = TodoChange(kind: .created, todo: TodoViewModel(next), sequence: 8)
        #expect(events.first?.view == .responseTodoViewModel(TodoChange(kind: .completed, todo: TodoViewModel(Self.todo), sequence: 7, further: [created])))
        if case .responseTodoViewModel(let answer)? = events.first?.view {
            #expect(answer.eachChange == [completed, created])
        }
    }

    @Test("an invalid request is answered with a validation error and reaches no model")
    func invalidRequestReachesNoModel() async {
        let bus = EventBus(core: core)
        let server = ViewModelServer(bus: bus)
        defer { withExtendedLifetime(server) {} }
        let observed = bus.subscribe(to: [.model(.requestWriteTodo), .view(.responseError)])
        let bad = Correlation(client: 1, request: "bad")
        let good = Correlation(client: 1, request: "good")
        await core.publish(bus, .requestNewTodo(NewTodo(title: "   ")), correlation: bad)
        await core.publish(bus, .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(tags: ["a b"]))), correlation: bad)
        await core.publish(bus, .requestNewTodo(NewTodo(title: "fine")), correlation: good)
        // The server handles events one at a time, in order: by the time the good request
        // has become a write, the bad ones have been answered, with errors only.
        let events = await collect(3, from: observed)
        #expect(events.map(\.correlation) == [bad, bad, good])
        guard events.count == 3 else { return }
        guard case .responseError(let first)? = events[0].view, case .responseError(let second)? = events[1].view else {
            Issue.record("expected two errors, got \(events.map(\.event))")
            return
        }
        #expect(first.code == .validation && first.field == "title")
        #expect(second.code == .validation && second.field == "tags")
        #expect(events[2].model == .requestWriteTodo(.create(NewTodo(title: "fine"))))
    }
}

@Suite("ModelServer alone")
struct ModelServerTests {
    /// The loop the server's state is bound to: requests are published there.
    let core = TestCore.make()

    /// A model server on a fresh database, running until `body` returns.
    private func withModelServer(_ body: (EventBus, ModelServer) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus(core: core)
        let server = try ModelServer(bus: bus, store: try TodoStore(path: directory.databasePath), core: core)
        let task = Task { await server.run() }
        do { try await body(bus, server) } catch { task.cancel(); throw error }
        task.cancel()
        await task.value
    }

    /// Publishes a model request and awaits the model response with its correlation.
    private func ask(_ bus: EventBus, _ event: ModelEvent, id: String, sourceLocation: SourceLocation = #_sourceLocation) async -> ModelEvent? {
        let responses = bus.subscribe(to: [.model(.responseTodo), .model(.responseTodos)])
        let correlation = Correlation(client: 0, request: id)
        await core.publish(bus, event, correlation: correlation)
        return await first(from: responses, sourceLocation: sourceLocation) { $0.correlation == correlation }?.model
    }

    @Test("requestWriteTodo(create) is answered with responseTodo(written) carrying the new todo")
    func writeCreate() async throws {
        try await withModelServer { bus, server in
            let new = NewTodo(title: "Buy milk", notes: "oat", priority: .high, due: LocalDate("2026-12-24"), tags: ["home"])
            let answer = await ask(bus, .requestWriteTodo(.create(new)), id: "w1")
            guard case .responseTodo(.written(let mutation, let changes))? = answer, let todo = changes.first?.after,
                  let change = changes.first?.seq else {
                Issue.record("expected a written todo, got \(String(describing: answer))")
                return
            }
            #expect(mutation == .create(new))
            #expect(change == 1)
            #expect(todo.number == 1 && todo.revision == 1)
            #expect(todo.title == "Buy milk" && todo.notes == "oat" && todo.priority == .high && todo.tags == ["home"])
            #expect(todo.due == LocalDate("2026-12-24"))
            #expect(todo.completedAt == nil && todo.deletedAt == nil && todo.updatedAt == todo.createdAt)
            #expect(await core.run { server.lastChange } == 1)
            let counts = await core.run { server.counts }
            #expect(counts.open == 1 && counts.completed == 0 && counts.deleted == 0)
        }
    }

    @Test("requestReadTodos is answered with responseTodos: a list, or one todo")
    func readTodos() async throws {
        try await withModelServer { bus, _ in
            _ = await ask(bus, .requestWriteTodo(.create(NewTodo(title: "first"))), id: "w1")
            _ = await ask(bus, .requestWriteTodo(.create(NewTodo(title: "second", priority: .high))), id: "w2")
            _ = await ask(bus, .requestWriteTodo(.complete(.number(1))), id: "w3")
            let all = await ask(bus, .requestReadTodos(.list(TodoFilter(status: .all))), id: "r1")
            guard case .responseTodos(let result)? = all else { Issue.record("expected todos, got \(String(describing: all))"); return }
            #expect(result.query == .list(TodoFilter(status: .all)))
            #expect(result.todos.map(\.title) == ["second", "first"])
            #expect(result.asOf == 3)
            let open = await ask(bus, .requestReadTodos(.list(TodoFilter(status: .open))), id: "r2")
            guard case .responseTodos(let openResult)? = open else { Issue.record("expected todos"); return }
            #expect(openResult.todos.map(\.title) == ["second"])
            let one = await ask(bus, .requestReadTodos(.one(.number(1))), id: "r3")
            guard case .responseTodos(let oneResult)? = one else { Issue.record("expected todos"); return }
            #expect(oneResult.todos.map(\.title) == ["first"])
            #expect(oneResult.todos.first?.isCompleted == true)
            let byID = await ask(bus, .requestReadTodos(.one(.id(try #require(oneResult.todos.first?.id)))), id: "r4")
            guard case .responseTodos(let byIDResult)? = byID else { Issue.record("expected todos"); return }
            #expect(byIDResult.todos == oneResult.todos)
        }
    }

    @Test("a write that cannot apply is answered as failed or unchanged, and writes nothing")
    func failedWrites() async throws {
        try await withModelServer { bus, server in
            _ = await ask(bus, .requestWriteTodo(.create(NewTodo(title: "only"))), id: "w1")
            #expect(await ask(bus, .requestWriteTodo(.complete(.number(9))), id: "w2")
                == .responseTodo(.failed(.complete(.number(9)), .notFound(.number(9)))))
            let edit = TodoMutation.edit(.number(1), TodoEdit(title: "x"), expectedRevision: 5)
            let conflict = await ask(bus, .requestWriteTodo(edit), id: "w3")
            guard case .responseTodo(.failed(_, .conflict(let current)))? = conflict else {
                Issue.record("expected a conflict, got \(String(describing: conflict))")
                return
            }
            #expect(current.revision == 1 && current.title == "only")
            let unchanged = await ask(bus, .requestWriteTodo(.reopen(.number(1))), id: "w4")
            guard case .responseTodo(.unchanged(_, let todo))? = unchanged else { Issue.record("expected unchanged"); return }
            #expect(todo.revision == 1)
            #expect(await core.run { server.lastChange } == 1)
        }
    }

    @Test("a write's answer and a read's are published on the core the server is handed, where its state lives, not on the storage thread")
    func answersOnTheCore() async throws {
        try await withModelServer { bus, _ in
            let onCore = Mutex<[Bool]>([])
            bus.subscribe(to: [.model(.responseTodo), .model(.responseTodos)]) { [core] _ in onCore.withLock { $0.append(core.inEventLoop) } }
            _ = await ask(bus, .requestWriteTodo(.create(NewTodo(title: "one"))), id: "w1")
            _ = await ask(bus, .requestReadTodos(.list(TodoFilter())), id: "r1")
            #expect(onCore.withLock { $0 } == [true, true])
        }
    }

    @Test("shutdown() makes run() return once the writes it received are answered")
    func shutdownEndsRun() async throws {
        let directory = try TemporaryDirectory()
        let bus = EventBus(core: core)
        let server = try ModelServer(bus: bus, store: try TodoStore(path: directory.databasePath), core: core)
        let task = Task { await server.run() }
        let answer = await ask(bus, .requestWriteTodo(.create(NewTodo(title: "before"))), id: "w1")
        guard case .responseTodo(.written)? = answer else { Issue.record("expected a write, got \(String(describing: answer))"); return }
        server.shutdown()
        // run() returns without being cancelled; the deadline turns a hang into a failure.
        let returned = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await task.value; return true }
            group.addTask { try? await Task.sleep(for: .seconds(10)); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(returned)
        task.cancel()
        #expect(try TodoStore(path: directory.databasePath).loadAll().todos.map(\.title) == ["before"])
    }
}
