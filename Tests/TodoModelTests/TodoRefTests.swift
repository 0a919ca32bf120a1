import Foundation
import Testing
import TodoModel

@Suite("TodoRef")
struct TodoRefTests {
    @Test("a number, with or without #")
    func numbers() {
        #expect(TodoRef("3") == .number(3))
        #expect(TodoRef("#3") == .number(3))
        #expect(TodoRef("#12") == .number(12))
        #expect(TodoRef("#00000085") == nil, "a leading zero is no number")
        #expect(TodoRef("00000085") == .idPrefix("00000085"), "eight bare digits are an id prefix")
        #expect(TodoRef("1000") == .number(1000))
    }

    @Test("a full UUID, in either case")
    func uuids() throws {
        let id = UUID()
        #expect(TodoRef(id.uuidString) == .id(id))
        #expect(TodoRef(id.uuidString.lowercased()) == .id(id))
    }

    @Test("a prefix of 8 or more hex digits, lowercased")
    func prefixes() {
        #expect(TodoRef("deadbeef") == .idPrefix("deadbeef"))
        #expect(TodoRef("DEADBEEF-12") == .idPrefix("deadbeef-12"))
        #expect(TodoRef("0a1b2c3d4e") == .idPrefix("0a1b2c3d4e"))
    }

    @Test("a UUID prefix of 8 digits and no letters still names the todo")
    func digitOnlyPrefix() throws {
        // About one UUID in 43 starts with eight decimal digits; its prefix must work too.
        let todo = Todo(id: try #require(UUID(uuidString: "19003456-89AB-4CDE-8F01-23456789ABCD")), number: 1, title: "x",
                        createdAt: Date(timeIntervalSince1970: 0))
        let ref = try #require(TodoRef("19003456"))
        #expect(ref.matches(todo), "\"19003456\" was read as \(ref)")
        #expect(TodoRef("19003456-89") == .idPrefix("19003456-89"))
    }

    @Test("refuses junk", arguments: [
        "", "#", "0", "#0", "-1", "abc", "deadbee", "deadbeefz", "#deadbeef", "3x", "# 3", "three", "12.5",
        // Looser forms once accepted, which the protocol never documented.
        " 5", "5 ", "+5", "05", "#05", " #12 ", "٣", "1e3", "19003456-89ab-4cde-8f01-23456789abcd ",
    ])
    func refusesJunk(_ text: String) {
        #expect(TodoRef(text) == nil)
    }

    @Test("matches the todo it names")
    func matching() throws {
        let todo = Todo(number: 7, title: "x", createdAt: Date(timeIntervalSince1970: 0))
        #expect(TodoRef.number(7).matches(todo))
        #expect(!TodoRef.number(8).matches(todo))
        #expect(TodoRef.id(todo.id).matches(todo))
        #expect(!TodoRef.id(UUID()).matches(todo))
        // Nine characters: the dash keeps an all-digit start from reading as a number.
        let prefix = String(todo.id.uuidString.prefix(9))
        #expect(try #require(TodoRef(prefix)).matches(todo))
        #expect(try #require(TodoRef(prefix.uppercased())).matches(todo))
    }

    @Test("codes a number as a JSON number and accepts the typed forms")
    func coding() throws {
        #expect(String(decoding: try JSONEncoder().encode([TodoRef.number(3)]), as: UTF8.self) == "[3]")
        let id = UUID()
        #expect(String(decoding: try JSONEncoder().encode([TodoRef.id(id)]), as: UTF8.self) == "[\"\(id.uuidString.lowercased())\"]")
        let decoded = try JSONDecoder().decode([TodoRef].self, from: Data(##"[3, "#4", "deadbeef"]"##.utf8))
        #expect(decoded == [.number(3), .number(4), .idPrefix("deadbeef")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([TodoRef].self, from: Data(#"["junk"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([TodoRef].self, from: Data("[0]".utf8)) }
    }
}
