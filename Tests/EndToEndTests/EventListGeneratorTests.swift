import Foundation
import TestHarness
import Testing

/// event-list-generator, which the build runs on TodoEvents' list of events: it reads case
/// lines, not Swift, so a line of another shape must stop the build at that line rather than
/// leave an event out of the kinds or the coding.
@Suite("the event list's generator")
struct EventListGeneratorTests {
    static let model = "enum ModelEvent {\n    case requestReadTodos(TodoQuery)\n}\n"

    /// The generator's exit and its error, on an `enum Event` of these case lines.
    static func generate(cases: [String]) async throws -> (result: CommandResult, events: String, output: String) {
        let directory = try makeTemporaryDirectory()
        let events = directory + "/Event.swift", output = directory + "/EventLists.swift"
        // The case lines are lines 4 and on: line 1 the import, 2 a comment with a brace, 3 the enum.
        let text = "import TodoModel\n/// Coded as {\"event\": …}.\npublic enum Event: Sendable {\n"
            + cases.map { "    \($0)\n" }.joined() + "}\n"
        try text.write(toFile: events, atomically: true, encoding: .utf8)
        try model.write(toFile: directory + "/ModelEvent.swift", atomically: true, encoding: .utf8)
        let result = try await run("event-list-generator", [events, directory + "/ModelEvent.swift", output])
        return (result, events, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    @Test("a case with several values, labels or a second case on its line stops it, naming the file and the line",
          arguments: ["case requestTwo(TodoRef, Int)", "case requestLabelled(ref: TodoRef)", "case requestA, requestB",
                      "case requestRaw = 3", "indirect case requestNested(Event)"])
    func refusesWhatItCannotRead(line: String) async throws {
        let (result, events, output) = try await Self.generate(cases: ["case requestStatus", line])
        #expect(result.status != 0, "it wrote: \(output)")
        #expect(result.stderr.hasPrefix("\(events):5: error: "), "\(result.stderr)")
        #expect(result.stderr.contains("`\(line)`"), "\(result.stderr)")
    }

    @Test("a payload may be any one type, brackets and generics included; a case without one is coded without data")
    func readsEveryCaseItShould() async throws {
        let (result, _, output) = try await Self.generate(cases: [
            "case requestImport([ImportedTodo]) // trailing comment", "/// a doc comment", "case requestMap([String: Int])",
            "case responseResult(Result<Int, TodoError>)", "case requestStatus",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for (name, type) in [("requestImport", "[ImportedTodo]"), ("requestMap", "[String: Int]"), ("responseResult", "Result<Int, TodoError>")] {
            #expect(output.contains("case .\(name): self = .\(name)(try c.eventData(\(type).self, forKey: .data))"), "\(output)")
        }
        #expect(output.contains("case .requestStatus: self = .requestStatus\n"), "\(output)")
        #expect(output.contains("case .requestStatus: break"), "\(output)")
        #expect(output.contains("import TodoModel"), "\(output)")
    }
}
