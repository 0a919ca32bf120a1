import Foundation
import Testing
import TodoEvents
import TodoModel
import TodoViewModel

/// One example of every event, with every associated value filled in.
enum Samples {
    static let instant = Date(millisecondsSince1970: 1_780_000_000_123)
    static let todo = Todo(
        number: 3, title: "Buy milk", notes: "oat\nor soy", priority: .high, due: LocalDate("2026-12-24"), tags: ["home", "shop"],
        createdAt: instant, updatedAt: instant.addingTimeInterval(60), completedAt: instant.addingTimeInterval(60), revision: 2)
    static let filter = TodoFilter(status: .all, tag: "home", priority: .high, search: "milk")
    static let new = NewTodo(title: "Buy milk", notes: "oat", priority: .low, due: LocalDate("2026-12-24"), tags: ["home"])
    static let edit = TodoEdit(title: "t", notes: "n", priority: .normal, due: LocalDate("2027-01-01"), clearDue: false,
                               tags: ["a"], addTags: ["b"], removeTags: ["c"])
    static let imported = ImportedTodo(
        id: UUID(), title: "From Taskwarrior", tags: ["project:work"], createdAt: instant, completedAt: instant,
        foreign: ["taskwarrior": #"{"estimate":3}"#])
    static let error = TodoError(.conflict, "changed meanwhile", field: "title", todo: TodoViewModel(todo))

    static let events: [Event] = [
        .requestTodoViewModels(filter),
        .requestTodoDetail(.number(3)),
        .requestNewTodo(new),
        .requestUpdateTodoDetail(TodoDetailUpdate(ref: .idPrefix("deadbeef"), revision: 2, edit: edit)),
        .requestCompleteTodo(.number(1)),
        .requestReopenTodo(.id(UUID())),
        .requestToggleComplete(.number(2)),
        .requestDeleteTodo(.number(3)),
        .requestRestoreTodo(.number(4)),
        .requestStatus,
        .requestBackup,
        .requestCompleteTodoWithChildren(.number(1)),
        .responseTodoViewModels(TodoViewModelList(filter: filter, todos: [TodoViewModel(todo)], asOf: 9)),
        .responseTodoViewModel(TodoChange(kind: .completed, todo: TodoViewModel(todo), sequence: 10)),
        .responseTodoDetail(TodoDetailViewModel(todo)),
        .responseStatus(DaemonStatus(
            serverVersion: "1.0.0", protocolVersion: 1, processID: 4242, uptimeSeconds: 12.5, connectedClients: 2,
            openTodos: 3, completedTodos: 4, deletedTodos: 5, sequence: 99, databasePath: "/d/todo.sqlite", socketPath: "/r/todod.sock")),
        .responseBackup(DatabaseBackup(path: "/d/backups/todos-20261123-091911-123.sqlite", bytes: 20_480)),
        .responseError(error),
        .responseHello(ServerHello(protocolVersion: 1, serverVersion: "1.0.0", client: 7, sequence: 99)),
        .responseGoodbye(TodoError(.badRequest, "bye")),
        .requestChanges(ChangesRequest(since: 7, limit: 100)),
        .requestHistory(HistoryRequest(ref: .number(3))),
        .requestLog(LogRequest(since: instant, after: 4, limit: 10)),
        .requestUndo(TodoUndo(seq: 12, force: true)),
        .responseChanges(ChangeList(changes: [JournaledChange(entry, withBefore: false)], seq: 11)),
        .responseHistory(ChangeList(changes: [JournaledChange(entry, withBefore: true)], seq: 11)),
        .responseLog(ChangeList(changes: [JournaledChange(entry, withBefore: true)], seq: 11)),
        .responseUndo(ChangeList(changes: [], seq: 11, tooFarBehind: false)),
        .requestReplay(ReplayRequest(changes: [JournaledChange(entry, withBefore: true)])),
        .responseReplay(ChangeList(changes: [JournaledChange(entry, withBefore: true)], seq: 11)),
        .requestRedo,
        .responseRedo(ChangeList(changes: [JournaledChange(entry, withBefore: true)], seq: 11)),
        .requestPurge(PurgeRequest(deletedBefore: instant)),
        .responsePurge(PurgeResult(numbers: [2, 3], seq: 12)),
        .responseSharedStore(SharedStoreStatus(
            store: "postgresql://alice@db.home.lan/todos", reachable: false, since: Date(timeIntervalSince1970: 1_795_000_000),
            problem: "the connection to PostgreSQL was closed")),
        .requestImportTodos([imported]),
        .responseImportTodos(TodoImportResult(changes: [TodoChange(kind: .created, todo: TodoViewModel(todo), sequence: 11)])),
        .requestConflicts(ConflictsRequest(all: true)),
        .responseConflicts(ConflictList(conflicts: [conflict])),
        .requestSettleConflict(ConflictSettlement(n: 2, take: true)),
        .responseSettleConflict(conflict),
    ]

    /// Conflict 2: #3's title, "Buy oat milk" on this machine, "Buy milk" on the store; left.
    static var conflict: ConflictViewModel {
        var local = todo
        local.title = "Buy oat milk"
        let offline = OfflineConflict(id: todo.id, number: 3, field: .title, local: local, theirs: todo, at: instant)
        return ConflictViewModel(KeptConflict(n: 2, conflict: offline, state: .left, settledAt: instant))
    }

    static let entry = JournalEntry(
        seq: 11, step: 11, at: instant, author: ChangeAuthor(client: 2, program: "todoctl"), kind: .completed,
        before: { var open = todo; open.completedAt = nil; open.revision = 1; return open }(), after: todo, undoes: 9)

    static func json(_ event: Event) throws -> [String: Any] {
        let data = try JSONEncoder().encode(event)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}

@Suite("Event coding")
struct EventCodingTests {
    @Test("every event round trips through JSON", arguments: Samples.events)
    func roundTrip(_ event: Event) throws {
        let decoded = try JSONDecoder().decode(Event.self, from: try JSONEncoder().encode(event))
        #expect(decoded == event)
        #expect(decoded.kind == event.kind)
    }

    @Test("the samples hold one event of every kind")
    func samplesCoverEveryKind() {
        #expect(Samples.events.map(\.kind) == EventKind.allCases)
    }

    @Test("an event is {\"event\": kind, \"data\": value}", arguments: Samples.events)
    func shape(_ event: Event) throws {
        let object = try Samples.json(event)
        #expect(object["event"] as? String == event.kind.rawValue)
        let keys = Set(object.keys)
        #expect(keys == ([.requestStatus, .requestBackup, .requestRedo].contains(event) ? ["event"] : ["event", "data"]))
    }

    @Test("data holds the value in its own form")
    func dataForms() throws {
        #expect(try Samples.json(.requestCompleteTodo(.number(3)))["data"] as? Int == 3)
        #expect(try Samples.json(.requestCompleteTodo(.idPrefix("deadbeef")))["data"] as? String == "deadbeef")
        let new = try #require(try Samples.json(.requestNewTodo(Samples.new))["data"] as? [String: Any])
        #expect(new["title"] as? String == "Buy milk")
        #expect(new["priority"] as? String == "low")
        #expect(new["due"] as? String == "2026-12-24")
        let change = try #require(try Samples.json(.responseTodoViewModel(
            TodoChange(kind: .created, todo: TodoViewModel(Samples.todo), sequence: 5)))["data"] as? [String: Any])
        #expect(change["change"] as? String == "created")
        #expect(change["seq"] as? Int == 5)
        #expect((change["todo"] as? [String: Any])?["number"] as? Int == 3)
    }

    @Test("the hand-written forms a client sends decode")
    func handWritten() throws {
        func decode(_ json: String) throws -> Event { try JSONDecoder().decode(Event.self, from: Data(json.utf8)) }
        #expect(try decode(#"{"event":"requestStatus"}"#) == .requestStatus)
        #expect(try decode(#"{"event":"requestTodoViewModels"}"#) == .requestTodoViewModels(TodoFilter()))
        #expect(try decode(#"{"event":"requestTodoViewModels","data":{"status":"completed"}}"#) == .requestTodoViewModels(TodoFilter(status: .completed)))
        #expect(try decode(##"{"event":"requestToggleComplete","data":"#4"}"##) == .requestToggleComplete(.number(4)))
        #expect(try decode(#"{"event":"requestUpdateTodoDetail","data":{"ref":2,"revision":1,"edit":{"title":"x"}}}"#)
            == .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(2), revision: 1, edit: TodoEdit(title: "x"))))
        #expect(throws: DecodingError.self) { try decode(#"{"event":"requestNoSuchThing"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"event":"requestCompleteTodo"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"data":3}"#) }
    }

    @Test("model events and view events are told apart")
    func families() {
        // Model events are a type of their own, which the wire cannot encode, named apart from every view event.
        #expect(!(ModelEvent.self is any Encodable.Type))
        #expect(ModelEvent.Kind.allCases.allSatisfy { EventKind(rawValue: $0.rawValue) == nil })
        #expect(EventKind.viewRequests == [
            .requestTodoViewModels, .requestTodoDetail, .requestNewTodo, .requestUpdateTodoDetail, .requestCompleteTodo,
            .requestReopenTodo, .requestToggleComplete, .requestDeleteTodo, .requestRestoreTodo, .requestStatus, .requestBackup,
            .requestCompleteTodoWithChildren,
            .requestChanges, .requestHistory, .requestLog, .requestUndo, .requestReplay, .requestRedo, .requestPurge,
            .requestImportTodos, .requestConflicts, .requestSettleConflict,
        ])
        #expect(EventKind.viewResponses == [
            .responseTodoViewModels, .responseTodoViewModel, .responseTodoDetail, .responseStatus, .responseBackup, .responseError,
            .responseHello, .responseGoodbye, .responseChanges, .responseHistory, .responseLog, .responseUndo, .responseReplay, .responseRedo, .responsePurge,
            .responseImportTodos, .responseSharedStore, .responseConflicts, .responseSettleConflict,
        ])
        for kind in EventKind.allCases {
            #expect(kind.rawValue.hasPrefix("request") || kind.rawValue.hasPrefix("response"))
        }
    }
}
