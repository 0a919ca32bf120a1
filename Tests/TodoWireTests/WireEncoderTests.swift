import Foundation
import NIOCore
import Testing
import TodoEvents
import TodoModel
import TodoViewModel
@testable import TodoWire

/// `WireEncoder` and `WireDecoder` must write and read exactly what `JSONEncoder` and
/// `JSONDecoder` do with the protocol's settings, for every event.
@Suite("WireCodec against Foundation")
struct WireEncoderTests {
    let codec = WireCodec()
    static let instant = Date(millisecondsSince1970: 1_780_000_000_123)

    static let plain = Todo(number: 1, title: "Buy milk", createdAt: instant)
    static let full = Todo(
        number: 12_345, title: "Tricky \"quotes\" \\ back/slash\n\ttab \u{1}\u{1f}\u{7f} é 😀 \u{2028}",
        notes: "line 1\r\nline 2 \u{8}\u{c}", priority: .high, due: LocalDate("2026-02-28"), tags: ["home", "wörk", "a\"b"],
        createdAt: instant, updatedAt: instant.addingTimeInterval(0.5), completedAt: instant.addingTimeInterval(1),
        deletedAt: instant.addingTimeInterval(2), revision: 7)
    static let old = Todo(
        number: 2, title: "From before 1970", priority: .low, due: LocalDate("0001-01-01"),
        createdAt: Date(millisecondsSince1970: -86_400_001), updatedAt: Date(millisecondsSince1970: 253_402_300_799_999),
        completedAt: Date(millisecondsSince1970: 0), revision: 1)
    static let late = Todo(
        number: 3, title: "Late", due: LocalDate("9999-12-31"), createdAt: Date(millisecondsSince1970: 951_782_400_000),
        updatedAt: Date(millisecondsSince1970: 253_402_300_800_000), revision: 2)

    /// A todo waiting for two others, by id.
    static let waiting = Todo(
        number: 4, title: "Waits", createdAt: instant,
        depends: [UUID(uuidString: "8F4375F4-EA0D-4A1A-B310-70E3DCEF20EA")!, UUID(uuidString: "63f62c69-c59f-4510-bec7-fd7f5c145981")!])

    static let frames: [WireFrame] = {
        let rows = [plain, full, old, late].map { TodoViewModel($0) }
        var frames: [WireFrame] = [
            WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 99)), id: "r1", client: 3),
            WireFrame(event: .responseTodoViewModels(TodoViewModelList(
                filter: TodoFilter(status: .deleted, tag: "home", priority: .low, search: "a/b"), todos: [], asOf: 0))),
            WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(search: ""), todos: rows, asOf: UInt64.max))),
            WireFrame(event: .responseTodoDetail(TodoDetailViewModel(full)), id: "d", client: 1),
            WireFrame(event: .responseError(TodoError(.validation, "title: empty", field: "title")), id: "e", client: 2),
            WireFrame(event: .responseError(TodoError(.conflict, "changed", todo: TodoViewModel(full)))),
            WireFrame(event: .responseGoodbye(TodoError(.shuttingDown, "bye")), client: 5),
            WireFrame(event: .responseHello(ServerHello(protocolVersion: 1, serverVersion: "0.1.0", client: 1, sequence: 0))),
            WireFrame(event: .requestTodoViewModels(TodoFilter()), id: "l"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(status: .all, tag: "t", priority: .high, search: "x"))),
            WireFrame(event: .requestNewTodo(NewTodo(title: "x")), id: ""),
            WireFrame(event: .requestNewTodo(NewTodo(title: "y", notes: "n", priority: .low, due: LocalDate("2030-01-05"), tags: ["a", "b"]))),
            WireFrame(event: .requestStatus),
            WireFrame(event: .requestStatus, id: "s", client: 8),
            WireFrame(event: .requestTodoDetail(.number(3)), id: "x"),
            WireFrame(event: .requestCompleteTodo(.id(full.id))),
            WireFrame(event: .requestReopenTodo(.idPrefix("abcdef12"))),
            WireFrame(event: .requestToggleComplete(.number(Int.max))),
            WireFrame(event: .requestDeleteTodo(.number(1))),
            WireFrame(event: .requestRestoreTodo(.number(2))),
            // The requests written from their members (`WireEncoder+Request.swift`), as todoctl sends them.
            WireFrame(event: .requestNewTodo(NewTodo(title: "Bench process")), id: "r1", program: "todoctl"),
            WireFrame(event: .requestNewTodo(NewTodo(
                title: "Tricky \"quotes\" \\ /\n\u{1} é 😀", notes: "a\tb", priority: .high, due: LocalDate("2026-02-28"),
                tags: ["x\"y", "wörk"], parent: 12, wait: LocalDate("2026-02-01"))), id: "r\u{7}", program: "todo\"ctl"),
            WireFrame(event: .requestNewTodo(NewTodo(title: "w", wait: LocalDate("2026-03-01"))), program: "watch"),
            WireFrame(event: .requestNewTodo(NewTodo(title: "u", wait: LocalDate("2026-03-01"), scheduled: LocalDate("2026-03-02"), until: LocalDate("2026-03-31"))), program: "todoctl"),
            WireFrame(event: .requestNewTodo(NewTodo(title: "d", due: LocalDate("2026-03-01"), depends: [3, 12_345])), id: "r3", program: "todoctl"),
            // Times of day beside the days: each key just after its day's, as sorted keys put them.
            WireFrame(event: .requestNewTodo(NewTodo(
                title: "t", due: LocalDate("2026-12-24"), wait: LocalDate("2026-12-23"), scheduled: LocalDate("2026-12-24"),
                dueTime: TimeOfDay(hour: 15, minute: 0), waitTime: TimeOfDay(hour: 9, minute: 30), scheduledTime: TimeOfDay(hour: 0, minute: 0))),
                id: "r6", program: "todoctl"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(blocked: true, rows: true)), id: "r4", program: "todoctl"),
            WireFrame(event: .responseTodoDetail(TodoDetailViewModel(waiting, dependsOn: [plain], blocks: [late])), id: "d2", client: 1),
            WireFrame(event: .responseTodoViewModels(TodoViewModelList(
                filter: TodoFilter(blocking: false, rows: true), todos: [TodoViewModel(waiting.row)], asOf: 5)), id: "r5", client: 3),
            WireFrame(event: .requestNewTodo(NewTodo(title: "r", recurrence: Recurrence(count: 2, unit: .day))), id: "r2"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(status: .open)), id: "r1", program: "todoctl"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(status: .deleted)), id: "r1"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(noDue: true)), id: "r1", program: "todoctl"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(pressingOn: LocalDate("2026-11-26"))), id: "r1", program: "todoctl"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(tag: "home", pressingOn: LocalDate("2026-11-26"))), id: "r1"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(rows: true)), id: "r1", program: "todoctl"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(pressingOn: LocalDate("2026-11-26"), rows: true)), id: "r1"),
            WireFrame(event: .requestTodoViewModels(TodoFilter(tag: "home", rows: true)), id: "r1"),
            // A list of rows (`TodoFilter.rows`): todos that are rows already read back equal.
            WireFrame(event: .responseTodoViewModels(TodoViewModelList(
                filter: TodoFilter(rows: true), todos: [plain, full, old, late].map { TodoViewModel($0.row) }, asOf: 99,
                context: [TodoViewModel(full.row)], progress: [SubtaskProgress(parent: 12_345, done: 0, total: 1)])), id: "r1", client: 3),
            WireFrame(event: .requestTodoDetail(.number(150)), id: "r1", program: "todoctl"),
            WireFrame(event: .requestCompleteTodo(.number(150)), id: "r9", program: "todoctl"),
            WireFrame(event: .requestCompleteTodo(.number(151)), id: "r10", step: 41),
            WireFrame(event: .requestNewTodo(NewTodo(title: "imported")), id: "r11", program: "todoctl", step: UInt64.max),
            WireFrame(event: .requestCompleteTodoWithChildren(.idPrefix("abcdef12")), id: "r1", program: "todoctl"),
            WireFrame(event: .requestDeleteTodo(.id(full.id)), program: "todoctl"),
            WireFrame(event: .responseTodoViewModel(TodoChange(
                kind: .completed, todo: TodoViewModel(full), sequence: 7,
                further: [TodoChange(kind: .created, todo: TodoViewModel(plain), sequence: 8),
                          TodoChange(kind: .deleted, todo: TodoViewModel(old), sequence: 9)])), id: "r1", client: 4),
            WireFrame(event: .responseTodoViewModel(TodoChange(kind: .completed, todo: TodoViewModel(plain), sequence: 12, step: 10)), id: "r2", client: 4),
            // Kept on the daemon's machine while its shared store is away, saying why.
            WireFrame(event: .responseTodoViewModel(TodoChange(kind: .created, todo: TodoViewModel(plain), sequence: 13,
                                                               unshared: "the connection to PostgreSQL was closed \"now\"")), id: "r3", client: 4),
        ]
        for kind in TodoChange.Kind.allCases {
            frames.append(WireFrame(event: .responseTodoViewModel(TodoChange(kind: kind, todo: TodoViewModel(full), sequence: 5)), id: "c", client: 4))
        }
        return frames
    }()

    /// The line as the codec reads it (the way a client does).
    private func read(_ text: String) -> WireFrame? {
        try? codec.decodeResponse(ByteBuffer(string: text))
    }

    private func foundationRead(_ text: String) -> WireFrame? {
        try? JSONDecoderForTests.decode(text)
    }

    /// The frame as `JSONEncoder` writes it, newline included.
    private func foundationBytes(_ frame: WireFrame) throws -> [UInt8] {
        Array(try WireCodec.json(frame).utf8) + [UInt8(ascii: "\n")]
    }

    @Test("every event comes out as JSONEncoder writes it", arguments: frames + slowFrames)
    func writesAsJSONEncoder(_ frame: WireFrame) throws {
        let line = try codec.encode(frame)
        #expect(String(buffer: line) == String(decoding: try foundationBytes(frame), as: UTF8.self))
    }

    @Test("the requests todoctl sends most are written from their members, the rest through the conformances")
    func writesCommandRequestsFromMembers() {
        let quick: [Event] = [
            .requestNewTodo(NewTodo(title: "Bench process")), .requestNewTodo(NewTodo(title: "x", due: LocalDate("2026-02-28"), parent: 1)),
            .requestTodoDetail(.number(150)), .requestCompleteTodo(.number(3)), .requestTodoViewModels(TodoFilter(status: .open)),
            .requestTodoViewModels(TodoFilter(pressingOn: LocalDate("2026-11-26"))), .requestTodoViewModels(TodoFilter(rows: true)),
        ]
        for event in quick {
            #expect(WireEncoder.quickRequest(WireFrame(event: event, id: "r1", program: "todoctl")) != nil, "\(event)")
        }
        let conformance: [WireFrame] = [
            WireFrame(event: .requestNewTodo(NewTodo(title: "r", recurrence: Recurrence(count: 2, unit: .day)))),
            WireFrame(event: .requestTodoViewModels(TodoFilter(tag: "home"))),
            WireFrame(event: .requestStatus),
            WireFrame(event: .requestTodoDetail(.number(1)), client: 3),
        ]
        for frame in conformance {
            #expect(WireEncoder.quickRequest(frame) == nil, "\(frame)")
        }
    }

    @Test("the answers the daemon sends most are written from their members, the rest through the conformances")
    func writesHotAnswersFromMembers() throws {
        let parent = TodoDetailViewModel(WireEncoderTests.full, parent: WireEncoderTests.plain, subtasks: [])
        let quick: [Event] = [
            .responseTodoDetail(TodoDetailViewModel(WireEncoderTests.full)),
            .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: [TodoViewModel(WireEncoderTests.plain)], asOf: 3)),
            .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(tag: "home", rows: true), todos: [], asOf: 3)),
            .responseTodoViewModel(TodoChange(kind: .created, todo: TodoViewModel(WireEncoderTests.plain), sequence: 4)),
        ]
        for event in quick {
            #expect(try WireEncoder.quickResponse(WireFrame(event: event, id: "r1", client: 2)) != nil, "\(event)")
        }
        let conformance: [WireFrame] = [
            WireFrame(event: .responseTodoDetail(parent), id: "r1", client: 2),
            WireFrame(event: .responseError(TodoError(.validation, "title: empty", field: "title")), id: "r1", client: 2),
            WireFrame(event: .responseHello(ServerHello(protocolVersion: 1, serverVersion: "0.1.0", client: 1, sequence: 0))),
            WireFrame(event: .responseTodoDetail(TodoDetailViewModel(WireEncoderTests.full)), id: "r1", program: "todoctl"),
        ]
        for frame in conformance {
            #expect(try WireEncoder.quickResponse(frame) == nil, "\(frame)")
        }
    }

    @Test("the requests the daemon reads most are read from their members")
    func readsHotRequestsFromMembers() throws {
        let lines = [
            #"{"event":"requestTodoDetail","id":"bench","data":1}"#,
            #"{"event":"requestTodoViewModels","id":"bench","data":{}}"#,
            #"{"event":"requestTodoViewModels","data":{"pressingOn":"2026-11-26","rows":true,"status":"all"}}"#,
            #"{"event":"requestCompleteTodo","data":"fc1cd20f","program":"todoctl","step":4}"#,
            // A filter with conditions is read through TodoFilter's conformance, inside the frame read here.
            #"{"event":"requestTodoViewModels","data":{"search":"sand"}}"#,
        ]
        for line in lines {
            let document = try JSONDocument(bytes: Array(line.utf8), limits: .request)
            #expect(WireDecoder(document: document).quickRequestFrame() != nil, "\(line)")
        }
        let conformance = [
            #"{"event":"requestNewTodo","data":{"title":"x"}}"#,
            #"{"event":"requestUpdateTodoDetail","data":{"ref":1,"edit":{}}}"#,
            #"{"event":"requestStatus"}"#,
        ]
        for line in conformance {
            let document = try JSONDocument(bytes: Array(line.utf8), limits: .request)
            #expect(WireDecoder(document: document).quickRequestFrame() == nil, "\(line)")
        }
    }

    @Test("an id over the limit is refused however its request is read")
    func refusesLongIDOnQuickRequests() {
        let id = String(repeating: "x", count: WireProtocol.maximumIDBytes + 1)
        for event in [#""requestTodoDetail","data":1"#, #""requestTodoViewModels","data":{}"#, #""requestNewTodo","data":{"title":"x"}"#] {
            let line = #"{"event":\#(event),"id":"\#(id)"}"#
            guard case .failure(let rejected) = codec.decodeRequest(ByteBuffer(string: line)) else {
                Issue.record("\(event): a long id was taken")
                continue
            }
            #expect(rejected.id == nil)
            #expect(rejected.error.message.contains("the id is \(id.utf8.count) bytes"))
        }
    }

    @Test("the room reserved for every event is exactly the length written", arguments: frames + slowFrames)
    func reservesItsExactLength(_ frame: WireFrame) throws {
        let encoder = WireEncoder(scratch: EncodingScratch())
        try frame.encode(to: encoder)
        let value = try #require(encoder.value)
        var bytes: [UInt8] = []
        value.write(into: &bytes, scratch: encoder.scratch)
        #expect(value.byteCount(scratch: encoder.scratch) == bytes.count, "\(String(decoding: bytes, as: UTF8.self))")
    }

    @Test("every event reads back as JSONDecoder reads it", arguments: frames + slowFrames)
    func readsAsJSONDecoder(_ frame: WireFrame) throws {
        let text = String(decoding: try foundationBytes(frame).dropLast(), as: UTF8.self)
        let ours = try #require(read(text))
        #expect(ours == foundationRead(text))
        #expect(ours == frame)
    }

    static let slowFrames: [WireFrame] = [
        WireFrame(event: .responseStatus(DaemonStatus(
            serverVersion: "0.1.0", protocolVersion: 1, processID: 5, uptimeSeconds: 1.5, connectedClients: 2,
            openTodos: 1, completedTodos: 0, deletedTodos: 0, sequence: 3, databasePath: "/d", socketPath: "/s")), id: "s", client: 1),
        WireFrame(event: .responseStatus(DaemonStatus(
            serverVersion: "0.1.0", protocolVersion: 1, processID: 5, uptimeSeconds: 3, connectedClients: 2,
            openTodos: 1, completedTodos: 0, deletedTodos: 0, sequence: 3, databasePath: "/d", socketPath: "/s"))),
        WireFrame(event: .responseStatus(DaemonStatus(
            serverVersion: "0.1.0", protocolVersion: 1, processID: 5, uptimeSeconds: 1234.000123456, connectedClients: 2,
            openTodos: 1, completedTodos: 0, deletedTodos: 0, sequence: 3, databasePath: "/d", socketPath: "/s"))),
        WireFrame(event: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), revision: 2, edit: TodoEdit(title: "t"))), id: "u"),
        WireFrame(event: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .idPrefix("abcdef12"), edit: TodoEdit(
            notes: "n", priority: .low, due: LocalDate("2026-01-02"), clearDue: true, tags: ["a"], addTags: ["b"], removeTags: ["c"])))),
    ]

    @Test("every member of a todo is told apart by its bytes, and near misses are not taken for one")
    func todoKeysFromBytes() {
        for key in WireDecoder.TodoKey.allCases {
            #expect(WireDecoder.TodoKey(Array(key.rawValue.utf8)[...]) == key, "\(key.rawValue)")
        }
        for miss in ["", "i", "ID", "idd", "prioritx", "previouz", "tag", "titles", "createdAx", "annotation", "foreigns"] {
            #expect(WireDecoder.TodoKey(Array(miss.utf8)[...]) == nil, "\(miss)")
        }
    }

    @Test("reads keys in any order, with white space, nulls for optional fields and unknown keys")
    func readsAnyLayout() throws {
        let id = "fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9"
        let lines = [
            #"{ "event" : "responseTodoDetail" , "data" : { "revision" : 1 , "title" : "t" , "number" : 1 , "id" : "FC1CD20F-E7E3-40A4-A32D-59BB4C36DAA9" , "createdAt" : "2026-05-28T20:26:40.5Z" , "updatedAt" : "2026-05-28T22:26:40.000+02:00" , "notes" : null , "tags" : null , "priority" : null , "due" : null , "extra" : [1, -2.5e3, true, false, null, {"a": "\u00e9"}] } , "client" : 4 , "id" : null }"#,
            #"{"data":{"id":"\#(id)","number":1,"title":"a\u00e9\ud83d\ude00\/","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"tags":["x\n"],"due":"2026-12-24"},"event":"responseTodoDetail"}"#,
            #"{"event":"responseTodoViewModel","data":{"todo":{"id":"\#(id)","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"seq":4,"change":"created"},"id":"r"}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":[],"seq":0}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{"status":null,"tag":null},"todos":[],"seq":0}}"#,
            #"{"event":"responseError","data":{"code":"notFound","message":"m","field":null,"todo":null}}"#,
            #"{"event":"responseHello","data":{"server":"0.1.0","seq":0,"client":1,"protocol":1,"future":"field"}}"#,
        ]
        for line in lines {
            let ours = try #require(read(line), "could not read \(line)")
            #expect(ours == foundationRead(line), "\(line)")
        }
    }

    @Test("requests read as JSONDecoder reads them")
    func readsRequests() throws {
        let lines = [
            #"{"event":"requestStatus"}"#,
            #"{"event":"requestStatus","data":{"ignored":[1,2]}}"#,
            #"{"event":"requestToggleComplete","id":"t","data":3}"#,
            ##"{"event":"requestDeleteTodo","data":"#4"}"##,
            #"{"event":"requestTodoDetail","data":"fc1cd20f"}"#,
            #"{"event":"requestTodoViewModels","id":"l"}"#,
            #"{"event":"requestTodoViewModels","id":"l","data":null}"#,
            #"{"id":"l","data":{"status":"all","search":"milk"},"event":"requestTodoViewModels"}"#,
            #"{"event": "requestNewTodo", "id": "r1", "data": {"title": "Buy milk"}}"#,
            #"{"event":"requestNewTodo","data":{"title":"x","notes":"","priority":"low","tags":[],"due":"2030-02-28"}}"#,
            #"{"event":"requestUpdateTodoDetail","data":{"ref":1,"edit":{}}}"#,
            #"{"ev\u0065nt":"requestStatus"}"#,
        ]
        for line in lines {
            let expected = try #require(foundationRead(line), "\(line)")
            #expect(codec.decodeRequest(ByteBuffer(string: line)) == .success(expected), "\(line)")
        }
    }

    @Test("random todos go out and come back exactly as through Foundation")
    func randomTodos() throws {
        let rows = (1...300).map { TodoViewModel(RandomTodo.make(number: $0)) }
        let frame = WireFrame(
            event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(search: RandomTodo.text()), todos: rows, asOf: 1)),
            id: RandomTodo.text(), client: 1)
        let slow = try foundationBytes(frame)
        #expect(Array(try codec.encode(frame).readableBytesView) == slow)
        // Twice: the second time the todos come from EncodedTodoCache.
        #expect(Array(try codec.encode(frame).readableBytesView) == slow)
        let text = String(decoding: slow.dropLast(), as: UTF8.self)
        let ours = try #require(read(text))
        #expect(ours == foundationRead(text))
    }

    @Test("random todos go out as rows, exactly as through Foundation, and each row reads back as its todo's fields")
    func randomRows() throws {
        let todos = (1...300).map { RandomTodo.make(number: $0) }
        let context = (1...3).map { RandomTodo.make(number: $0) }
        let list = TodoViewModelList(
            filter: TodoFilter(search: RandomTodo.text(), rows: true), todos: todos.map { TodoViewModel($0) }, asOf: 1,
            context: context.map { TodoViewModel($0) }, progress: [SubtaskProgress(parent: 1, done: 1, total: 2)])
        let frame = WireFrame(event: .responseTodoViewModels(list), id: RandomTodo.text(), client: 1)
        let slow = try foundationBytes(frame)
        #expect(Array(try codec.encode(frame).readableBytesView) == slow)
        // Twice: the second time the rows come from EncodedTodoCache, beside the same todos' whole JSON.
        _ = try codec.encode(WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: list.todos, asOf: 1))))
        #expect(Array(try codec.encode(frame).readableBytesView) == slow)
        let text = String(decoding: slow.dropLast(), as: UTF8.self)
        let ours = try #require(read(text))
        #expect(ours == foundationRead(text))
        guard case .responseTodoViewModels(let answer) = ours.event else { Issue.record("\(ours)"); return }
        // Every field a row carries is the todo's; the rest are the row's placeholders.
        #expect(answer.todos.map(\.todo) == todos.map(\.row))
        #expect(answer.context.map(\.todo) == context.map(\.row))
        for (row, todo) in zip(answer.todos, todos) {
            #expect(row.todo.number == todo.number && row.title == todo.title && row.todo.priority == todo.priority)
            #expect(row.todo.due == todo.due && row.todo.tags == todo.tags && row.todo.project == todo.project)
            #expect(row.todo.createdAt == todo.createdAt && row.isCompleted == todo.isCompleted && row.isDeleted == todo.isDeleted)
            #expect(row.todo.parent == todo.parent && row.todo.wait == todo.wait && row.todo.completedAt == todo.completedAt)
            #expect(row.todo.dueTime == todo.dueTime && row.todo.waitTime == todo.waitTime && row.todo.scheduledTime == todo.scheduledTime)
        }
        // A row is no whole todo: the reader of whole todos refuses one.
        let whole = text.replacingOccurrences(of: #""rows":true,"#, with: "")
        #expect(read(whole) == nil)
        #expect(foundationRead(whole) == nil)
    }

    @Test("a list request without rows is the bytes it was before rows existed; with them, one member more")
    func listRequestBytes() throws {
        let old = WireFrame(event: .requestTodoViewModels(TodoFilter()), id: "1", program: "todoctl")
        #expect(String(buffer: try codec.encode(old)) == #"{"data":{"status":"open"},"event":"requestTodoViewModels","id":"1","program":"todoctl"}"# + "\n")
        let rows = WireFrame(event: .requestTodoViewModels(TodoFilter(rows: true)), id: "1", program: "todoctl")
        #expect(String(buffer: try codec.encode(rows)) == #"{"data":{"rows":true,"status":"open"},"event":"requestTodoViewModels","id":"1","program":"todoctl"}"# + "\n")
        // The daemon reads an older client's request as asking for whole todos.
        let read = try codec.decodeRequest(ByteBuffer(string: #"{"event":"requestTodoViewModels","id":"1","data":{"status":"open"}}"#)).get()
        #expect(read.event == .requestTodoViewModels(TodoFilter()))
        #expect(try codec.decodeRequest(ByteBuffer(string: #"{"event":"requestTodoViewModels","data":{"rows":true}}"#)).get().event
            == .requestTodoViewModels(TodoFilter(rows: true)))
    }

    @Test("random new todos go out, and random changes come back, exactly as through Foundation")
    func randomNewTodosAndChanges() throws {
        for number in 1...200 {
            let todo = RandomTodo.make(number: number)
            let new = NewTodo(
                title: todo.title, notes: todo.notes, priority: todo.priority, due: todo.due, tags: todo.tags,
                recurrence: todo.recurrence, parent: todo.parent, wait: todo.wait, project: todo.project,
                depends: Bool.random() ? [number, 12_345] : nil, scheduled: todo.scheduled, until: todo.until,
                dueTime: todo.dueTime, waitTime: todo.waitTime, scheduledTime: todo.scheduledTime)
            let request = WireFrame(event: .requestNewTodo(new), id: Bool.random() ? RandomTodo.text() : nil,
                                    program: Bool.random() ? RandomTodo.text() : nil)
            #expect(Array(try codec.encode(request).readableBytesView) == (try foundationBytes(request)), "\(request)")
            let change = TodoChange(
                kind: TodoChange.Kind.allCases.randomElement()!, todo: TodoViewModel(todo), sequence: UInt64(number),
                further: (0..<Int.random(in: 0...2)).map { TodoChange(kind: .created, todo: TodoViewModel(RandomTodo.make(number: number)), sequence: UInt64($0)) })
            let answer = WireFrame(event: .responseTodoViewModel(change), id: RandomTodo.text(), client: 1)
            let text = String(decoding: try foundationBytes(answer).dropLast(), as: UTF8.self)
            let ours = try #require(read(text))
            #expect(ours == foundationRead(text))
            #expect(ours == answer)
        }
    }

    @Test("random details, with a parent and subtasks or without, come back exactly as through Foundation")
    func randomDetails() throws {
        for number in 1...200 {
            let todo = RandomTodo.make(number: number)
            let detail = TodoDetailViewModel(
                todo, parent: Bool.random() ? RandomTodo.make(number: number) : nil,
                subtasks: (0..<Int.random(in: 0...3)).map { _ in RandomTodo.make(number: number) })
            let frame = WireFrame(event: .responseTodoDetail(detail), id: RandomTodo.text(), client: 1)
            let text = String(decoding: try foundationBytes(frame).dropLast(), as: UTF8.self)
            let ours = try #require(read(text))
            #expect(ours == foundationRead(text))
            #expect(ours == frame)
            // Written as Foundation writes it: a lone todo's detail from the cache, the others field by field.
            #expect(String(buffer: try codec.encode(frame)) == text + "\n")
        }
    }

    @Test("a hello, a detail, a list or a change is read as the frame's conformance reads it, or refused in its words",
          arguments: [
            #"{"event":"responseHello","data":{"protocol":1,"server":"0.1.0","client":3,"seq":42}}"#,
            #"{"event":"responseHello","data":{"protocol":1,"server":"0.1.0","client":3,"seq":42,"more":[1]},"id":"r1","client":3,"later":{}}"#,
            #"{"event":"responseHello","data":{"protocol":1,"server":"0.1.0","client":3}}"#,
            #"{"event":"responseHello","data":{"protocol":1,"server":"0.1.0","client":-3,"seq":42}}"#,
            #"{"event":"responseHello","data":{"protocol":1.5,"server":"0.1.0","client":3,"seq":42}}"#,
            #"{"event":"responseHello","data":{"protocol":1,"server":null,"client":3,"seq":42}}"#,
            #"{"event":"responseHello","data":{"protocol":1,"server":"0.1.0","client":3,"seq":42},"id":5}"#,
            #"{"event":"responseHello","data":null}"#,
            #"{"event":"responseHello"}"#,
            #"{"event":"responseHelo","data":{"protocol":1,"server":"0.1.0","client":3,"seq":42}}"#,
            #"{"data":{"protocol":1,"server":"0.1.0","client":3,"seq":42}}"#,
            #"{"event":"responseTodoDetail","data":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"client":null,"program":"x"}"#,
            #"{"event":"responseTodoDetail","data":{"number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}"#,
            #"{"event":"responseTodoDetail","data":{"\u0069d":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"t\u0069tle":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"titles":"x","tit":"y"}}"#,
            #"{"event":"responseTodoDetail","data":[]}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":[],"seq":7}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{"search":"x"},"todos":[{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":2,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"parent":1}],"seq":7,"context":[{"id":"0c1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"p","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}],"progress":[{"parent":1,"done":0,"total":1}]},"id":"r2","client":4}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":[],"seq":7,"context":null,"progress":null}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":[]}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":null,"todos":[],"seq":7}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":null,"seq":7}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":[{"number":1}],"seq":7}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{"status":"some"},"todos":[],"seq":7}}"#,
            #"{"event":"responseTodoViewModels","data":{"filter":{},"todos":[],"seq":7,"progress":[{"parent":1}]}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"created","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}},"id":"r1","client":2}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"completed","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"further":[{"change":"created","seq":4,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}]}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"completed","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"further":null}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"completed","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"further":[{"change":"created","todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}]}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"completed","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"further":[{"change":"moved","seq":4,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}]}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"exploded","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"created","seq":-3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"created","todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"created","seq":3,"todo":{"number":1}}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":7,"seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}}}"#,
            #"{"event":"responseTodoViewModel","data":{"change":"created","seq":3,"todo":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1},"further":{}}}"#,
          ])
    func quickFramesAsConformance(_ line: String) throws {
        let quick = Result { try codec.decodeResponse(ByteBuffer(string: line)) }
        let conformance = Result { try WireFrame(from: WireDecoder(document: try JSONDocument(bytes: Array(line.utf8), limits: .response))) }
        switch (quick, conformance) {
        case (.success(let ours), .success(let theirs)): #expect(ours == theirs, "\(line)")
        case (.failure(let ours), .failure(let theirs)): #expect(WireCodec.describe(ours) == WireCodec.describe(theirs), "\(line)")
        default: Issue.record("\(line): the codec gave \(quick), the conformance \(conformance)")
        }
    }

    @Test("a request is read as the frame's conformance reads it, or refused in its words",
          arguments: [
            #"{"event":"requestTodoDetail","id":"6","data":"1"}"#,
            #"{"event":"requestTodoDetail","id":"6","data":150,"program":"todoctl","later":[1]}"#,
            #"{"event":"requestTodoDetail","data":"fc1cd20f"}"#,
            #"{"event":"requestTodoDetail","data":"FC1CD20F-E7E3-40A4-A32D-59BB4C36DAA9"}"#,
            #"{"event":"requestTodoDetail","data":0}"#,
            #"{"event":"requestTodoDetail","data":-1}"#,
            #"{"event":"requestTodoDetail","data":1.5}"#,
            ##"{"event":"requestTodoDetail","data":"#x"}"##,
            #"{"event":"requestTodoDetail","data":null}"#,
            #"{"event":"requestTodoDetail"}"#,
            #"{"event":"requestTodoDetail","data":{"ref":1}}"#,
            #"{"event":"requestTodoDetail","data":"1","id":7}"#,
            #"{"event":"requestTodoDetail","data":"1","program":false}"#,
            #"{"event":"requestCompleteTodo","data":3,"id":"a"}"#,
            ##"{"event":"requestCompleteTodoWithChildren","data":"#3"}"##,
            #"{"event":"requestReopenTodo","data":"3"}"#,
            #"{"event":"requestToggleComplete","data":3}"#,
            #"{"event":"requestDeleteTodo","data":[3]}"#,
            #"{"event":"requestRestoreTodo","data":"12345678"}"#,
            #"{"event":"requestTodoViewModels","id":"4","data":{"search":"sand"}}"#,
            #"{"event":"requestTodoViewModels","data":{"waiting":true,"status":"all"}}"#,
            #"{"event":"requestTodoViewModels","data":{"status":"some"}}"#,
            #"{"event":"requestTodoViewModels","data":null}"#,
            #"{"event":"requestTodoViewModels"}"#,
            #"{"event":"requestTodoViewModels","data":[]}"#,
            #"{"event":"requestNewTodo","data":{"title":"x"}}"#,
            #"{"event":null,"data":1}"#,
            // Plain filters (`WireDecoder.plainFilter`), and near misses the conformance reads or refuses.
            #"{"event":"requestTodoViewModels","id":"bench","data":{}}"#,
            #"{"event":"requestTodoViewModels","data":{"status":"completed","rows":true}}"#,
            #"{"event":"requestTodoViewModels","data":{"rows":false,"status":"deleted"}}"#,
            #"{"event":"requestTodoViewModels","data":{"pressingOn":"2026-11-26","rows":true,"status":"open"}}"#,
            #"{"event":"requestTodoViewModels","data":{"pressingOn":"2026-02-30"}}"#,
            #"{"event":"requestTodoViewModels","data":{"pressingOn":"2026-1-26"}}"#,
            #"{"event":"requestTodoViewModels","data":{"pressingOn":null,"status":null}}"#,
            #"{"event":"requestTodoViewModels","data":{"status":3}}"#,
            #"{"event":"requestTodoViewModels","data":{"rows":"yes"}}"#,
            #"{"event":"requestTodoViewModels","data":{"status":"all","later":{"a":1}}}"#,
            #"{"event":"requestTodoViewModels","data":{"st\u0061tus":"all"}}"#,
            #"{"event":"requestTodoViewModels","data":{"tag":"home","status":"all"}}"#,
            #"{"event":"requestTodoDetail","data":9223372036854775807}"#,
            #"{"event":"requestTodoDetail","data":9223372036854775808}"#,
            #"{"event":"requestTodoDetail","data":1e2}"#,
          ])
    func quickRequestsAsConformance(_ line: String) throws {
        let quick = codec.decodeRequest(ByteBuffer(string: line))
        let conformance = Result { try WireFrame(from: WireDecoder(document: try JSONDocument(bytes: Array(line.utf8), limits: .request))) }
        switch (quick, conformance) {
        case (.success(let ours), .success(let theirs)): #expect(ours == theirs, "\(line)")
        case (.failure(let ours), .failure(let theirs)): #expect(ours.error.message.contains(WireCodec.describe(theirs)), "\(line): \(ours.error.message)")
        default: Issue.record("\(line): the codec gave \(quick), the conformance \(conformance)")
        }
    }

    @Test("a detail the detail reader refuses is refused as its conformance refuses it, in the same words",
          arguments: [
            #"{"number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"subtasks":3}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"subtasks":[{"number":2}]}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"parentTodo":"two"}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"parentTodo":{"id":"x"}}"#,
            #"["detail"]"#,
          ])
    func detailReaderRefusesAsConformance(_ line: String) throws {
        try expectRefusedAlike(line, conformance: { try TodoDetailViewModel(from: $0) }, reader: { try $0.detail() })
    }

    @Test("a row the todo reader refuses is refused as Todo's own conformance refuses it, in the same words",
          arguments: [
            #"{"number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":null,"number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":"1","title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":null,"createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","priority":"urgent","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","tags":["a",2],"createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","due":"2026-02-30","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"yesterday","updatedAt":"2026-05-28T20:26:40.000Z","revision":1}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1.5}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"recurrence":{"every":"often"}}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"foreign":{"a":1}}"#,
            #"{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":"2026-05-28T20:26:40.000Z","updatedAt":"2026-05-28T20:26:40.000Z","revision":1,"foreign":["a"]}"#,
            #"[1]"#,
          ])
    func todoReaderRefusesAsConformance(_ line: String) throws {
        // Todo's own init(from:), through the generic containers, against the reader.
        try expectRefusedAlike(line, conformance: { try Todo(from: $0) }, reader: { try $0.todo() })
    }

    /// Both refuse `line`, in the same words.
    private func expectRefusedAlike<T>(
        _ line: String, conformance: (WireDecoder) throws -> T, reader: (WireDecoder) throws -> T
    ) throws {
        let document = try JSONDocument(bytes: Array(line.utf8), limits: .response)
        let expected = Result { try conformance(WireDecoder(document: document)) }
        let got = Result { try reader(WireDecoder(document: document)) }
        guard case .failure(let theirs) = expected else { Issue.record("the conformance read \(line)"); return }
        guard case .failure(let ours) = got else { Issue.record("the reader read \(line)"); return }
        #expect(WireCodec.describe(ours) == WireCodec.describe(theirs), "\(line)")
    }

    @Test("the calendar arithmetic agrees with Foundation's calendar")
    func civilTime() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for milliseconds in stride(from: Int64(0), through: CivilTime.lastMillisecond, by: 9_876_543_211) + [0, CivilTime.lastMillisecond, 951_782_400_000] {
            let civil = CivilTime(millisecondsSince1970: milliseconds)!
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(millisecondsSince1970: milliseconds))
            let ours: [Int] = [civil.year, civil.month, civil.day, civil.hour, civil.minute, civil.second]
            let foundation: [Int] = [parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!]
            #expect(ours == foundation)
            #expect(civil.millisecondsSince1970 == milliseconds)
        }
    }
}

/// JSONDecoder as WireCodec set it up before it had a reader of its own: the oracle.
enum JSONDecoderForTests {
    static func decode(_ text: String) throws -> WireFrame {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = WireCodec.parseTimestamp(text) else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: text)) }
            return date
        }
        return try decoder.decode(WireFrame.self, from: Data(text.utf8))
    }
}
