import Foundation
import TestHarness
import Testing

/// Frames a hostile or careless client can send within the 1 MiB line limit: each is
/// answered with `badRequest` (or passed over, for a blank line), the daemon stays up and
/// the same connection carries on.
@Suite("hostile frames")
struct HostileFrameTests {
    /// Sends `line` on a fresh connection and returns the answer, after checking that the
    /// connection (and so the daemon) still answers.
    private func answer(to line: String, on daemon: DaemonProcess) async throws -> [String: Any] {
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        try raw.send(line + "\n")
        let answer = try jsonObject(try await raw.awaitLine(containing: "\"event\":\"response"))
        try raw.send(#"{"event":"requestStatus","id":"after"}"# + "\n")
        _ = try await raw.awaitLine(containing: "responseStatus", "\"id\":\"after\"")
        return answer
    }

    private func message(_ frame: [String: Any]) -> String {
        frame.path("data", "message") as? String ?? ""
    }

    @Test("120,000 nested brackets are refused with badRequest, wherever they are, and the daemon lives",
          arguments: ["data", "unknown", "unclosed"])
    func deepNesting(_ place: String) async throws {
        let daemon = try await DaemonProcess.start()
        let deep = String(repeating: "[", count: 120_000) + String(repeating: "]", count: 120_000)
        let line = switch place {
        case "data": #"{"event":"requestNewTodo","id":"n","data":"# + deep + "}"
        case "unknown": #"{"event":"requestStatus","id":"n","x":"# + deep + "}"
        default: #"{"event":"requestStatus","id":"n","x":"# + String(repeating: "[", count: 120_000)
        }
        let error = try await answer(to: line, on: daemon)
        #expect(error.path("data", "code") as? String == "badRequest")
        #expect(message(error).contains("nested deeper than 64"), "\(message(error))")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a request with 100,000 tags is refused at once, while it is read")
    func manyTags() async throws {
        let daemon = try await DaemonProcess.start()
        let tags = (0..<100_000).map { "\"t\($0)\"" }.joined(separator: ",")
        let error = try await answer(to: #"{"event":"requestNewTodo","id":"t","data":{"title":"x","tags":["# + tags + "]}}", on: daemon)
        // Refused by the decoder (badRequest), before any tag is checked: the quadratic tag
        // checks this replaces (validation) stalled every writer for 8.6 s.
        #expect(error.path("data", "code") as? String == "badRequest")
        #expect(message(error).contains("at most 256"), "\(message(error))")
        try await daemon.stop()
    }

    @Test("what RFC 8259 refuses, the daemon refuses too, naming the problem",
          arguments: [
            (#"{"event":"requestNewTodo","id":"c","data":{"title":"x",}}"#, "trailing comma"),
            (#"{"event":"requestNewTodo","id":"c","data":{"title":"x","title":"y"}}"#, "duplicate key \"title\""),
            (#"{"event":"requestCompleteTodo","id":"c","data":01}"#, "leading zero"),
          ])
    func strictJSON(_ line: String, _ words: String) async throws {
        let daemon = try await DaemonProcess.start()
        let error = try await answer(to: line, on: daemon)
        #expect(error.path("data", "code") as? String == "badRequest")
        #expect(message(error).contains(words), "\(message(error))")
        let listed = try await daemon.todoctl("list", "--all", "--json")
        #expect(listed.stdout.contains("\"title\":\"x\"") == false)
        try await daemon.stop()
    }

    @Test("references are read exactly as documented: no spaces, sign or leading zero",
          arguments: [##"" 1""##, ##""1 ""##, ##""+1""##, ##""01""##, ##""#01""##])
    func looseReferences(_ ref: String) async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", "the one")
        #expect(added.status == 0, "\(added.stderr)")
        let error = try await answer(to: ##"{"event":"requestTodoDetail","id":"r","data":"## + ref + "}", on: daemon)
        #expect(error.path("data", "code") as? String == "badRequest", "\(ref) was read as a reference: \(error)")
        #expect(message(error).contains("not a todo number, UUID or UUID prefix"), "\(message(error))")
        try await daemon.stop()
    }
}
