import Foundation
import NIOCore
import Synchronization
import Testing
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

@Suite("WireCodec")
struct WireCodecTests {
    let codec = WireCodec()
    // Whole seconds, so that these round trips test the frame, not the milliseconds (see below).
    static let instant = Date(millisecondsSince1970: 1_780_000_000_000)
    static let todo = Todo(
        number: 3, title: "Buy milk", notes: "oat", priority: .high, due: LocalDate("2026-12-24"), tags: ["home"],
        createdAt: instant, updatedAt: instant.addingTimeInterval(2), completedAt: instant.addingTimeInterval(2), revision: 2)

    private func buffer(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// The line without its newline, as the frame decoder hands it on.
    private func line(_ encoded: ByteBuffer) throws -> ByteBuffer {
        var encoded = encoded
        #expect(encoded.readableBytesView.last == UInt8(ascii: "\n"))
        #expect(encoded.readableBytesView.dropLast().contains(UInt8(ascii: "\n")) == false)
        let slice = encoded.readSlice(length: encoded.readableBytes - 1)
        return try #require(slice)
    }

    private func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> TodoError? {
        rejected(buffer(text), sourceLocation: sourceLocation)?.error
    }

    private func failure(_ line: ByteBuffer, sourceLocation: SourceLocation = #_sourceLocation) -> TodoError? {
        rejected(line, sourceLocation: sourceLocation)?.error
    }

    private func rejected(_ line: ByteBuffer, sourceLocation: SourceLocation = #_sourceLocation) -> RejectedFrame? {
        switch codec.decodeRequest(line) {
        case .success(let frame):
            Issue.record("decoded \(frame) where an error was expected", sourceLocation: sourceLocation)
            return nil
        case .failure(let rejected):
            #expect(rejected.error.code == .badRequest, sourceLocation: sourceLocation)
            return rejected
        }
    }

    @Test("the rows a client reads say their due dates against the day its codec is given, asked once per frame; without one, as the date")
    func rowsTakeTheCodecsDay() throws {
        let asked = AskCount()
        let dayBefore = WireCodec(today: {
            asked.count.withLock { $0 += 1 }
            return LocalDate("2026-12-21")!
        })
        var open = Self.todo
        open.completedAt = nil
        let rows = [TodoViewModel(open), TodoViewModel(open), TodoViewModel(open)]
        let list = WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 1)))
        guard case .responseTodoViewModels(let read) = try dayBefore.decodeResponse(try line(try codec.encode(list))).event else {
            Issue.record("not a list")
            return
        }
        #expect(read.todos.map(\.dueText) == ["in 3 days", "in 3 days", "in 3 days"])
        #expect(asked.count.withLock { $0 } == 1)
        let detail = WireFrame(event: .responseTodoDetail(TodoDetailViewModel(open, subtasks: [open])))
        guard case .responseTodoDetail(let shown) = try dayBefore.decodeResponse(try line(try codec.encode(detail))).event else {
            Issue.record("not a detail")
            return
        }
        #expect(shown.summary.dueText == "in 3 days" && shown.subtasks.map(\.dueText) == ["in 3 days"])
        let dayAfter = WireCodec(today: { LocalDate("2026-12-26")! })
        let change = WireFrame(event: .responseTodoViewModel(TodoChange(kind: .created, todo: TodoViewModel(open), sequence: 1)))
        guard case .responseTodoViewModel(let changed) = try dayAfter.decodeResponse(try line(try codec.encode(change))).event else {
            Issue.record("not a change")
            return
        }
        #expect(changed.todo.dueText == "2 days overdue" && changed.todo.isOverdue)
        guard case .responseTodoViewModels(let undated) = try codec.decodeResponse(try line(try codec.encode(list))).event else {
            Issue.record("not a list")
            return
        }
        #expect(undated.todos.first?.dueText == "2026-12-24" && undated.todos.first?.isOverdue == false)
    }

    @Test("a refused request keeps its id when it could be read, so the asker gets its answer")
    func rejectedKeepsID() {
        #expect(rejected(buffer(#"{"event": "requestTeleport", "id": "r7"}"#))?.id == "r7")
        #expect(rejected(buffer(#"{"event": "requestWriteTodo", "id": "r8"}"#))?.id == "r8")
        #expect(rejected(buffer(#"{"event": "requestNewTodo", "id": "r9", "data": {"priority": "low"}}"#))?.id == "r9")
        #expect(rejected(buffer("{not json"))?.id == nil)
        #expect(rejected(buffer(#"{"event": "requestNewTodo", "data": 3}"#))?.id == nil)
    }

    static let frames: [WireFrame] = [
        WireFrame(event: .requestNewTodo(NewTodo(title: "Buy milk", tags: ["home"])), id: "r1"),
        WireFrame(event: .requestStatus, id: "status-1", client: 4),
        WireFrame(event: .requestTodoViewModels(TodoFilter(status: .all, search: "a/b \"quoted\"")), id: "r2", client: 1),
        WireFrame(event: .responseTodoViewModel(TodoChange(kind: .completed, todo: TodoViewModel(todo), sequence: 12)), id: "r3", client: 7),
        WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: [TodoViewModel(todo)], asOf: 12))),
        WireFrame(event: .responseError(TodoError(.conflict, "changed", todo: TodoViewModel(todo))), id: "r4", client: 2),
        WireFrame(event: .responseHello(ServerHello(protocolVersion: WireProtocol.version, serverVersion: "1.0", client: 9, sequence: 3))),
    ]

    @Test("a frame round trips as one JSON line, with its id and client", arguments: frames)
    func roundTrip(_ frame: WireFrame) throws {
        let decoded = try codec.decodeResponse(try line(try codec.encode(frame)))
        #expect(decoded == frame)
        #expect(decoded.id == frame.id)
        #expect(decoded.client == frame.client)
    }

    @Test("a request round trips through decodeRequest")
    func requestRoundTrip() throws {
        let frame = WireFrame(event: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(2), revision: 3, edit: TodoEdit(title: "x"))), id: "e1")
        #expect(try codec.decodeRequest(try line(try codec.encode(frame))).get() == frame)
    }

    @Test("an event correlated without a request id goes out without an id")
    func envelopeWithoutID() {
        let inDaemon = Correlation(client: 2, request: "")
        #expect(WireFrame(.requestStatus, correlation: inDaemon) == WireFrame(event: .requestStatus, id: nil, client: 2))
        #expect(WireFrame(.requestStatus, correlation: nil) == WireFrame(event: .requestStatus))
    }

    @Test("an event goes out as a frame with its correlation")
    func envelope() throws {
        let correlation = Correlation(client: 3, request: "abc")
        let text = String(buffer: try codec.encode(.requestStatus, correlation: correlation))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "requestStatus")
        #expect(object["id"] as? String == "abc")
        #expect(object["client"] as? Int == 3)
        #expect(try codec.decodeResponse(try line(try codec.encode(.requestStatus, correlation: correlation))) == WireFrame(.requestStatus, correlation: correlation))
    }

    /// A todo whose instants fall on `millisecond` past a whole second.
    private static func todo(atMillisecond millisecond: Int64) -> Todo {
        var todo = Self.todo
        todo.createdAt = Date(millisecondsSince1970: 1_780_000_000_000 + millisecond)
        todo.updatedAt = todo.createdAt
        todo.completedAt = nil
        return todo
    }

    private func encodedCreatedAt(_ todo: Todo) throws -> String? {
        let text = String(buffer: try codec.encode(WireFrame(event: .responseTodoDetail(TodoDetailViewModel(todo)))))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (object?["data"] as? [String: Any])?["createdAt"] as? String
    }

    @Test("instants go out as ISO 8601 in UTC with their exact millisecond")
    func encodesMilliseconds() throws {
        #expect(try encodedCreatedAt(Self.todo(atMillisecond: 0)) == "2026-05-28T20:26:40.000Z")
        var wrong: [Int64] = []
        for millisecond in Int64(0)..<1000 {
            let expected = "2026-05-28T20:26:40." + String(repeating: "0", count: 3 - String(millisecond).count) + "\(millisecond)Z"
            if try encodedCreatedAt(Self.todo(atMillisecond: millisecond)) != expected { wrong.append(millisecond) }
        }
        // Date(millisecondsSince1970: …) is a binary fraction a hair below the millisecond
        // for about half of them; formatting truncates it to the millisecond before.
        #expect(wrong == [], "\(wrong.count) of 1000 milliseconds written wrong, e.g. .\(wrong.prefix(5).map(String.init).joined(separator: ", ."))")
    }

    @Test("instants written with milliseconds read back to that millisecond")
    func decodesMilliseconds() throws {
        var wrong: [Int64] = []
        for millisecond in Int64(0)..<1000 {
            let text = "2026-05-28T20:26:40." + String(repeating: "0", count: 3 - String(millisecond).count) + "\(millisecond)Z"
            let line = #"{"event":"responseTodoDetail","data":{"id":"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9","number":1,"title":"t","createdAt":""# + text + #"","updatedAt":""# + text + #"","revision":1}}"#
            guard case .responseTodoDetail(let detail) = try codec.decodeResponse(buffer(line)).event else {
                Issue.record("not a detail")
                return
            }
            if detail.todo.createdAt.millisecondsSince1970 != 1_780_000_000_000 + millisecond { wrong.append(millisecond) }
        }
        // Parsing gives a binary fraction a hair below the millisecond for some of them;
        // rounding it down loses the millisecond.
        #expect(wrong == [], "\(wrong.count) of 1000 milliseconds read wrong, e.g. .\(wrong.prefix(5).map(String.init).joined(separator: ", ."))")
    }

    @Test("an id, an instant and a due date read from the frame's bytes read the same written with escapes, and a bad one is refused")
    func escapedIdsAndTimes() throws {
        func detail(id: String, createdAt: String, due: String) throws -> Todo? {
            let line = #"{"event":"responseTodoDetail","data":{"id":""# + id + #"","number":1,"title":"t","createdAt":""# + createdAt
                + #"","updatedAt":"2026-05-28T20:26:40.123Z","due":""# + due + #"","revision":1}}"#
            guard case .responseTodoDetail(let detail) = try codec.decodeResponse(buffer(line)).event else { return nil }
            return detail.todo
        }
        let plain = try detail(id: "fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9", createdAt: "2026-05-28T20:26:40.123Z", due: "2026-06-01")
        let escaped = try detail(id: #"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9"#, createdAt: #"2026-05-28T20:26:40.123Z"#, due: #"2026-06-01"#)
        #expect(plain != nil && plain == escaped, "\(String(describing: plain)) and \(String(describing: escaped))")
        #expect(plain?.id.uuidString.lowercased() == "fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9")
        #expect(plain?.createdAt.millisecondsSince1970 == 1_780_000_000_123, "\(String(describing: plain?.createdAt))")
        for (id, createdAt) in [("fc1cd20f-e7e3-40a4-a32d-59bb4c36daa", "2026-05-28T20:26:40.123Z"), ("fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9", "2026-05-28T20:26:4x.123Z")] {
            #expect(throws: (any Error).self, "\(id) \(createdAt)") { _ = try detail(id: id, createdAt: createdAt, due: "2026-06-01") }
        }
    }

    @Test("a todo sent over the wire arrives equal, whatever its milliseconds")
    func todoRoundTripAnyMillisecond() throws {
        var wrong = 0
        for millisecond in Int64(0)..<1000 {
            let todo = Self.todo(atMillisecond: millisecond)
            let frame = WireFrame(event: .responseTodoDetail(TodoDetailViewModel(todo)))
            guard case .responseTodoDetail(let back) = try codec.decodeResponse(try line(try codec.encode(frame))).event else {
                Issue.record("not a detail")
                return
            }
            if back.todo != todo { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of 1000 todos changed on the way")
    }

    @Test("the protocol's own example request decodes")
    func protocolExample() throws {
        let frame = try codec.decodeRequest(buffer(#"{"event": "requestNewTodo", "id": "r1", "data": {"title": "Buy milk"}}"#)).get()
        #expect(frame == WireFrame(event: .requestNewTodo(NewTodo(title: "Buy milk")), id: "r1"))
    }

    @Test("typical hand-written requests decode")
    func handWritten() throws {
        #expect(try codec.decodeRequest(buffer(#"{"event":"requestStatus"}"#)).get() == WireFrame(event: .requestStatus))
        #expect(try codec.decodeRequest(buffer(#"{"event":"requestToggleComplete","id":"t","data":3}"#)).get()
            == WireFrame(event: .requestToggleComplete(.number(3)), id: "t"))
        #expect(try codec.decodeRequest(buffer(##"{"event":"requestDeleteTodo","data":"#4"}"##)).get()
            == WireFrame(event: .requestDeleteTodo(.number(4))))
        #expect(try codec.decodeRequest(buffer(#"{"event":"requestTodoViewModels","id":"l"}"#)).get()
            == WireFrame(event: .requestTodoViewModels(TodoFilter()), id: "l"))
        #expect(try codec.decodeRequest(buffer(#"{"event":"requestNewTodo","data":{"title":"x","notes":"","priority":"low","tags":[]}}"#)).get()
            == WireFrame(event: .requestNewTodo(NewTodo(title: "x", priority: .low))))
    }

    @Test("a line that is not UTF-8 is refused")
    func invalidUTF8() {
        let error = failure(ByteBuffer(bytes: [0x7B, 0xFF, 0xFE, 0x7D]))
        #expect(error?.message.contains("UTF-8") == true)
    }

    @Test("a blank line is passed over, not answered", arguments: ["", "   ", "\t"])
    func blankLine(_ text: String) {
        #expect(WireCodec().decodeRequest(ByteBuffer(string: text)) == .failure(.blank))
    }

    @Test("an id that is not a string is refused, naming it")
    func numericID() {
        let error = failure(#"{"event": "requestStatus", "id": 1}"#)
        #expect(error?.message.contains("at id") == true, "\(String(describing: error))")
    }

    @Test("a line that is not JSON is refused", arguments: ["{not json", "[1, 2]", "\"requestStatus\"", "{\"event\": 3}"])
    func invalidJSON(_ text: String) {
        let error = failure(text)
        #expect(error?.message.contains("cannot read the line as a frame") == true, "\(String(describing: error))")
    }

    @Test("a line without an event is refused, saying so")
    func missingEvent() {
        let error = failure(#"{"id": "r1", "data": {"title": "x"}}"#)
        #expect(error?.message.contains("\"event\"") == true)
        #expect(error?.message.contains("missing field") == true)
    }

    @Test("an unknown event is refused, naming it and the known requests")
    func unknownEvent() {
        let error = failure(#"{"event": "requestTeleport", "id": "r1"}"#)
        #expect(error?.message.contains("unknown event \"requestTeleport\"") == true)
        #expect(error?.message.contains("requestNewTodo") == true)
    }

    @Test("a response event is refused: only the daemon sends those")
    func responseEvent() {
        let error = failure(#"{"event": "responseError", "data": {"code": "storage", "message": "x"}}"#)
        #expect(error?.message.contains("\"responseError\"") == true)
        #expect(error?.message.contains("a response") == true)
        #expect(failure(#"{"event": "responseHello"}"#)?.message.contains("a response") == true)
    }

    @Test("a model event is refused: it never crosses the socket", arguments: ["requestWriteTodo", "requestReadTodos", "responseTodo", "responseTodos"])
    func modelEvent(_ name: String) {
        let error = failure(#"{"event": "\#(name)", "data": {"create": {"_0": {"title": "x"}}}}"#)
        #expect(error?.message.contains("\"\(name)\"") == true)
        #expect(error?.message.contains("model event") == true)
    }

    @Test("bad data is refused, naming where it is wrong")
    func badData() {
        let priority = failure(#"{"event": "requestNewTodo", "data": {"title": "x", "notes": "", "priority": "urgent", "tags": []}}"#)
        #expect(priority?.message.contains("\"requestNewTodo\" has bad data") == true)
        #expect(priority?.message.contains("data.priority") == true, "\(String(describing: priority))")
        let ref = failure(#"{"event": "requestCompleteTodo", "data": "junk"}"#)
        #expect(ref?.message.contains("data") == true)
        #expect(ref?.message.contains("junk") == true)
        let missing = failure(#"{"event": "requestCompleteTodo"}"#)
        #expect(missing?.message.contains("missing field \"data\"") == true, "\(String(describing: missing))")
        let due = failure(#"{"event": "requestUpdateTodoDetail", "data": {"ref": 1, "edit": {"due": "2026-02-30"}}}"#)
        #expect(due?.message.contains("data.edit.due") == true, "\(String(describing: due))")
        let id = failure(#"{"event": "requestStatus", "id": 5}"#)
        #expect(id?.message.contains("id") == true)
    }
}

/// How often a codec asked for its day.
private final class AskCount: Sendable {
    let count = Mutex(0)
}
