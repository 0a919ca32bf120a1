import NIOCore
import Testing
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

/// What RFC 8259 refuses is a `badRequest`, also where Foundation on Linux is lenient, and
/// the protocol's limits (PROTOCOL.md, Limits) hold while a line is read.
@Suite("strict JSON and the protocol's limits")
struct StrictJSONTests {
    let codec = WireCodec()

    private func message(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        switch codec.decodeRequest(ByteBuffer(string: line)) {
        case .success(let frame):
            Issue.record("decoded \(frame) where an error was expected", sourceLocation: sourceLocation)
            return ""
        case .failure(let rejected):
            #expect(rejected.error.code == .badRequest, sourceLocation: sourceLocation)
            return rejected.error.message
        }
    }

    @Test("what RFC 8259 refuses is refused, naming the problem", arguments: [
        (#"{"event":"requestStatus",}"#, "trailing comma in an object"),
        (#"{"event":"requestNewTodo","data":{"title":"x","tags":["a",]}}"#, "trailing comma in an array"),
        (#"{"event":"requestCompleteTodo","data":01}"#, "leading zero"),
        (#"{"event":"requestStatus","x":"\q"}"#, "bad escape"),
        (#"{"event":"requestStatus","x":"\ud800"}"#, "lone surrogate"),
        (#"{"event":"requestStatus","x":"\udc00\ud800"}"#, "lone surrogate"),
        ("{\"event\":\"requestStatus\",\"x\":\"a\u{1}b\"}", "raw control character"),
        (#"{"event":"requestStatus","x":1-2}"#, "expected ',' or '}'"),
        (#"{"event":"requestStatus"} x"#, "after the JSON value"),
        (#"{"event":"requestStatus","x":.5}"#, "unexpected '.'"),
        (#"{"event":"requestStatus","x":tru}"#, "unexpected 't'"),
        (#"{"event":"requestStatus""#, "ends inside an object"),
        (#"{"event":"requestStatus","x":"open"#, "not closed"),
    ])
    func refusesWhatRFC8259Refuses(_ line: String, _ words: String) {
        let text = message(line)
        #expect(text.contains("cannot read the line as a frame"), "\(text)")
        #expect(text.contains(words), "\(text)")
    }

    @Test("a duplicate key is refused, naming it, wherever it is", arguments: [
        #"{"event":"requestStatus","event":"requestStatus"}"#,
        #"{"event":"requestStatus","ev\u0065nt":"requestStatus"}"#,
        #"{"event":"requestNewTodo","data":{"event":1,"title":"x","tags":[],"x":{"a":1,"event":2,"event":3}}}"#,
    ])
    func duplicateKeys(_ line: String) {
        #expect(message(line).contains("duplicate key \"event\""))
    }

    @Test("keys alike in length and first and last letters are not duplicates; two empty keys are")
    func duplicateFingerprints() {
        // The duplicate check compares a fingerprint (length, first and last byte) first.
        let alike = message(#"{"event":"requestNoSuchThing","data":{"ebent":1,"exent":2,"e\u0079ent":3}}"#)
        #expect(alike.contains("unknown event") && !alike.contains("duplicate"), "\(alike)")
        #expect(message(#"{"event":"requestStatus","data":{"":1,"a":2,"":3}}"#).contains("duplicate key \"\""))
        #expect(message(#"{"event":"requestStatus","data":{"exent":1,"e\u0078ent":2}}"#).contains("duplicate key \"exent\""))
    }

    @Test("a key after an escaped spelling of it is a duplicate, and so is each of many keys repeated at once")
    func duplicatesPastTheFingerprintFilter() {
        // Keys whose fingerprint is new skip the comparison; an escaped key compares every later one.
        #expect(message(#"{"event":"requestStatus","data":{"e\u0078ent":1,"exent":2}}"#).contains("duplicate key \"exent\""))
        for count in [2, 17, 31, 32, 33] {
            let keys = (0..<count).map { "\"k\($0)\":0" }.joined(separator: ",")
            #expect(message(#"{"event":"requestStatus","data":{"# + keys + ",\"k\(count - 1)\":1}}").contains("duplicate key \"k\(count - 1)\""))
        }
    }

    @Test("a string's quote, backslash, control character or invalid UTF-8 is seen at every offset of a long string")
    func stringStopsAtEveryOffset() {
        for offset in 0..<20 {
            let before = String(repeating: "a", count: offset), after = String(repeating: "b", count: 20)
            #expect(message("{\"event\":\"requestStatus\",\"x\":\"" + before + "\u{1}" + after + "\"}").contains("raw control character"))
            #expect(message("{\"event\":\"requestStatus\",\"x\":\"" + before + "\\q" + after + "\"}").contains("bad escape"))
            // The string ends at the quote: what follows it is no JSON.
            #expect(message("{\"event\":\"requestStatus\",\"x\":\"" + before + "\"" + after + "\"}").contains("expected ',' or '}'"))
            var bytes = Array("{\"event\":\"requestStatus\",\"x\":\"\(before)".utf8) + [0xC3] + Array("\(after)\"}".utf8)
            #expect(rejectedBytes(bytes).contains("UTF-8"))
            bytes = Array("{\"event\":\"requestNoSuchThing\",\"x\":\"\(before)é\(after)\"}".utf8)
            #expect(rejectedBytes(bytes).contains("unknown event"))
        }
    }

    private func rejectedBytes(_ bytes: [UInt8]) -> String {
        if case .failure(let rejected) = codec.decodeRequest(ByteBuffer(bytes: bytes)) { return rejected.error.message }
        return "decoded"
    }

    @Test("a duplicate among many keys is found too, in linear time")
    func duplicateAmongMany() {
        let keys = (0..<50_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(message(#"{"event":"requestStatus","# + keys + #","k7":1}"#).contains("duplicate key \"k7\""))
    }

    @Test("nesting deeper than 64 is refused; 64 is read", arguments: [65, 1000, 120_000])
    func deepNesting(_ depth: Int) {
        let deep = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        #expect(message(#"{"event":"requestStatus","x":"# + deep + "}").contains("nested deeper than 64 levels"))
        let unclosed = String(repeating: "{\"a\":", count: depth)
        #expect(message(#"{"event":"requestStatus","x":"# + unclosed).contains("nested deeper than 64 levels"))
    }

    @Test("64 levels of nesting are read")
    func nestingAtTheLimit() {
        let deep = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        let line = #"{"event":"requestStatus","x":"# + deep + "}"
        #expect(codec.decodeRequest(ByteBuffer(string: line)) == .success(WireFrame(event: .requestStatus)))
    }

    @Test("more than 256 tags in one list are refused while the line is read", arguments: ["tags", "addTags", "removeTags", "notTags"])
    func tooManyTags(_ key: String) {
        let tags = "[" + (0..<257).map { "\"t\($0)\"" }.joined(separator: ",") + "]"
        let data = key == "tags" ? #"{"title":"x","tags":"# + tags + "}" : #"{"ref":1,"edit":{"\#(key)":"# + tags + "}}"
        let event = key == "tags" ? "requestNewTodo" : "requestUpdateTodoDetail"
        let text = message(#"{"event":"\#(event)","id":"t","data":"# + data + "}")
        #expect(text.contains("\"\(key)\" holds more than 256 tags: a request may send at most 256"), "\(text)")
    }

    @Test("a filter's tags and notTags together over 256 are refused while the line is read")
    func tagListsShareTheCap() {
        let half = "[" + (0..<200).map { "\"t\($0)\"" }.joined(separator: ",") + "]"
        let text = message(#"{"event":"requestTodoViewModels","id":"f","data":{"tags":"# + half + #","notTags":"# + half + "}}")
        #expect(text.contains("hold more than 256 tags together"), "\(text)")
    }

    @Test("33 tags are read, so that validation refuses them with the request's id; 256 repeats too")
    func thirtyThreeTags() throws {
        for tags in [(0..<33).map { "t\($0)" }, Array(repeating: "home", count: 256)] {
            let line = #"{"event":"requestNewTodo","data":{"title":"x","tags":["# + tags.map { "\"\($0)\"" }.joined(separator: ",") + "]}}"
            let frame = try codec.decodeRequest(ByteBuffer(string: line)).get()
            #expect(frame == WireFrame(event: .requestNewTodo(NewTodo(title: "x", tags: tags))), "\(frame)")
        }
    }

    @Test("an id of more than 256 bytes is refused, and not sent back")
    func longID() throws {
        let long = String(repeating: "\u{301}", count: 129)
        guard case .failure(let rejected) = codec.decodeRequest(ByteBuffer(string: #"{"event":"requestStatus","id":""# + long + #""}"#)) else {
            Issue.record("an id of 258 bytes was read")
            return
        }
        #expect(rejected.id == nil, "\(String(describing: rejected.id))")
        #expect(rejected.error.message.contains("the id is 258 bytes of UTF-8; the most is 256"), "\(rejected.error.message)")
        let fits = String(repeating: "i", count: 256)
        let frame = try codec.decodeRequest(ByteBuffer(string: #"{"event":"requestStatus","id":""# + fits + #""}"#)).get()
        #expect(frame.id == fits, "\(String(describing: frame.id))")
    }

    @Test("any other array in a request holds at most 64 elements")
    func otherArrays() {
        let numbers = "[" + (0..<65).map(String.init).joined(separator: ",") + "]"
        #expect(message(#"{"event":"requestStatus","x":"# + numbers + "}").contains("\"x\" holds more than 64 elements"))
        #expect(message(#"{"event":"requestStatus","x":[["# + numbers.dropFirst() + "]}").contains("an array holds more than 64 elements"))
    }

    @Test("a list answer is not capped: the daemon sends every todo")
    func responsesUncapped() throws {
        let rows = (1...100).map { TodoViewModel(Todo(number: $0, title: "t", createdAt: .init(millisecondsSince1970: 0))) }
        let frame = WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 1)))
        var line = try codec.encode(frame)
        line.moveWriterIndex(to: line.writerIndex - 1)
        #expect(try codec.decodeResponse(line) == frame)
    }

    @Test("a ref that is not a positive integer or a string says what a ref is",
          arguments: ["9223372036854775808", "1e400", "1.5", "1.0", "true", "null", "[1]"])
    func refOfTheWrongType(_ ref: String) {
        let text = message(#"{"event":"requestCompleteTodo","id":"c","data":"# + ref + "}")
        #expect(text.contains("a todo reference is a todo number"), "\(text)")
        #expect(!text.contains("expected String"), "\(text)")
    }

    @Test("an id that is not a string makes a badRequest without an id")
    func numericID() {
        guard case .failure(let rejected) = codec.decodeRequest(ByteBuffer(string: #"{"event":"requestStatus","id":7}"#)) else {
            Issue.record("decoded")
            return
        }
        #expect(rejected.id == nil)
        #expect(rejected.error.message.contains("at id: expected a string, found a number"), "\(rejected.error.message)")
    }

    @Test("due: null in an edit is ignored; clearDue clears")
    func dueNullInAnEdit() throws {
        let line = #"{"event":"requestUpdateTodoDetail","data":{"ref":1,"edit":{"due":null,"title":"t"}}}"#
        let frame = try codec.decodeRequest(ByteBuffer(string: line)).get()
        #expect(frame.event == .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(title: "t"))))
    }
}
