import Foundation
import Testing
import TodoEvents
import TodoModel

/// The requests a client may send without `data`: their payload type is
/// `EmptyPayloadDecodable`, and a missing or null `data` is its empty value (docs/PROTOCOL.md,
/// Frames). Every other event with a payload needs its `data`.
struct EmptyPayloadTests {
    static func decode(_ json: String) throws -> Event { try JSONDecoder().decode(Event.self, from: Data(json.utf8)) }

    @Test("requestTodoViewModels, requestLog, requestUndo, requestPurge and requestConflicts without data, or with null, are their empty requests")
    func missingDataIsTheEmptyValue() throws {
        for data in ["", #","data":null"#] {
            #expect(try Self.decode(#"{"event":"requestTodoViewModels"\#(data)}"#) == .requestTodoViewModels(TodoFilter()))
            #expect(try Self.decode(#"{"event":"requestLog"\#(data)}"#) == .requestLog(LogRequest()))
            #expect(try Self.decode(#"{"event":"requestUndo"\#(data)}"#) == .requestUndo(TodoUndo()))
            #expect(try Self.decode(#"{"event":"requestPurge"\#(data)}"#) == .requestPurge(PurgeRequest()))
            #expect(try Self.decode(#"{"event":"requestConflicts"\#(data)}"#) == .requestConflicts(ConflictsRequest()))
        }
    }

    @Test("a request whose payload has no empty value is refused without data", arguments: [
        "requestTodoDetail", "requestNewTodo", "requestChanges", "requestHistory", "requestReplay", "requestImportTodos", "requestSettleConflict",
    ])
    func otherPayloadsAreRequired(kind: String) throws {
        #expect(throws: DecodingError.self) { try Self.decode(#"{"event":"\#(kind)"}"#) }
    }
}
