import Foundation
import TestHarness
import Testing

/// Limits that count characters let one character weigh 800 KB ("Z" and 400,000 combining
/// accents); journal answers carried every change whole, and `import` read all of its
/// input first. Each bound here is in bytes, and each big answer comes in pages.
@Suite("bounds in bytes")
struct ByteBoundsTests {
    /// One character of 800 KB.
    private let heavy = "Z" + String(repeating: "\u{301}", count: 400_000)

    /// Sends `frame` on a new connection and returns the first answer naming `id`.
    private func answer(_ frame: [String: Any], id: String, on daemon: DaemonProcess) async throws -> [String: Any] {
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        try raw.send(String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self) + "\n")
        return try jsonObject(try await raw.awaitLine(containing: "\"id\":\"\(id)\""))
    }

    @Test("a title of one character and 400,000 combining accents is refused by its bytes, with the request's id")
    func heavyTitle() async throws {
        let daemon = try await DaemonProcess.start()
        let error = try await answer(["event": "requestNewTodo", "id": "h", "data": ["title": heavy]], id: "h", on: daemon)
        #expect(error["event"] as? String == "responseError", "\(error["event"] ?? "nothing")")
        #expect(error.path("data", "code") as? String == "validation", "\(error.path("data") ?? "nothing")")
        #expect((error.path("data", "message") as? String)?.contains("is 800001 bytes of UTF-8; the most is 4096") == true, "\(error.path("data", "message") ?? "nothing")")
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        #expect(status["sequence"] as? Int == 0, "\(status)")
        try await daemon.stop()
    }

    @Test("a program's name is kept to 256 bytes, cut between characters")
    func heavyProgram() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await answer(
            ["event": "requestNewTodo", "id": "p", "program": "ab" + heavy, "data": ["title": "named"]], id: "p", on: daemon)
        #expect(added["event"] as? String == "responseTodoViewModel", "\(added["event"] ?? "nothing")")
        let log = try jsonObject(try await daemon.todoctl("log", "--json").stdout)
        #expect(log["program"] as? String == "ab", "\((log["program"] as? String)?.utf8.count ?? -1) bytes")
        try await daemon.stop()
    }

    @Test("log and history of big todos come in pages of a few MiB, every change once, in order")
    func pagedJournal() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        // One todo of 64 KiB of notes, toggled 130 times: 131 changes of 128 KiB each (before and after), 16 MiB.
        let notes = String(repeating: "n", count: 64 * 1024)
        try raw.send(#"{"event":"requestNewTodo","id":"new","data":{"title":"big","notes":""# + notes + #""}}"# + "\n")
        _ = try await raw.awaitLine(containing: "\"id\":\"new\"")
        // One at a time: 130 answers of 64 KiB unread would pass the daemon's bound on unread bytes.
        for toggle in 1...130 {
            try raw.send(#"{"event":"requestToggleComplete","id":"t\#(toggle)","data":1}"# + "\n")
            _ = try await raw.awaitLine(containing: "\"id\":\"t\(toggle)\"")
        }

        try raw.send(#"{"event":"requestLog","id":"log","data":{}}"# + "\n")
        let first = try await raw.awaitLine(containing: "\"id\":\"log\"")
        #expect(first.utf8.count < 9 << 20, "the first page is \(first.utf8.count) bytes")
        #expect(try jsonObject(first).path("data", "more") as? Bool == true, "\(first.prefix(200))")

        let log = try await daemon.todoctl("log", "--json")
        let seqs = try log.lines.map { try jsonObject($0)["seq"] as? Int ?? 0 }
        #expect(seqs == Array(1...131), "\(seqs.count) changes: \(seqs.prefix(5))…\(seqs.suffix(5))")
        let last = try await daemon.todoctl("log", "--json", "--limit", "100")
        let lastSeqs = try last.lines.map { try jsonObject($0)["seq"] as? Int ?? 0 }
        #expect(lastSeqs == Array(32...131), "\(lastSeqs.count) changes: \(lastSeqs.prefix(5))…\(lastSeqs.suffix(5))")
        let history = try await daemon.todoctl("history", "1", "--json")
        let historySeqs = try history.lines.map { try jsonObject($0)["seq"] as? Int ?? 0 }
        #expect(historySeqs == Array(1...131), "\(historySeqs.count) changes: \(historySeqs.prefix(5))…\(historySeqs.suffix(5))")
        try await daemon.stop()
    }

    @Test("import refuses an input over 64 MiB as it reads it, saying so, and imports nothing")
    func endlessImport() async throws {
        let daemon = try await DaemonProcess.start()
        let line = "BEGIN:VCALENDAR\n"
        let input = String(repeating: line, count: (64 << 20) / line.utf8.count + 1)
        let result = try await run("todoctl", ["import", "--from", "ical", "-"], environment: daemon.environment, input: input, timeout: 120)
        #expect(result.status == 65, "status \(result.status): \(result.stderr.prefix(500))")
        #expect(result.stderr == "todoctl: standard input is more than 64 MiB, the most one import reads: nothing was imported; split it and import the parts one after another\n", "\(result.stderr.prefix(500))")
        try await daemon.stop()
    }

    @Test("33 different tags are refused by validation, answering the request's id; tags and notTags share one bound")
    func tagBounds() async throws {
        let daemon = try await DaemonProcess.start()
        let many = try await answer(
            ["event": "requestNewTodo", "id": "t33", "data": ["title": "x", "tags": (1...33).map { "t\($0)" }]], id: "t33", on: daemon)
        #expect(many.path("data", "code") as? String == "validation", "\(many)")
        #expect((many.path("data", "message") as? String)?.contains("more than 32 different tags") == true, "\(many)")
        let half = (1...200).map { "t\($0)" }
        // Refused as the line is read, before its id is: the answer has none.
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        let frame: [String: Any] = ["event": "requestTodoViewModels", "id": "f", "data": ["tags": half, "notTags": half]]
        try raw.send(String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self) + "\n")
        let filter = try jsonObject(try await raw.awaitLine(containing: "responseError"))
        #expect(filter.path("data", "code") as? String == "badRequest", "\(filter)")
        #expect((filter.path("data", "message") as? String)?.contains("hold more than 256 tags together") == true, "\(filter)")
        try await daemon.stop()
    }

    @Test("done and rm with --json say what each todo went through")
    func changeKindInJSON() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "A")
        let done = try jsonArray(try await daemon.todoctl("done", "1", "--json").stdout)
        #expect(done.map { $0["change"] as? String } == ["completed"], "\(done)")
        let again = try jsonArray(try await daemon.todoctl("done", "1", "--json").stdout)
        #expect(again.map { $0["change"] as? String } == ["unchanged"], "\(again)")
        let removed = try jsonArray(try await daemon.todoctl("rm", "1", "--json").stdout)
        #expect(removed.map { $0["change"] as? String } == ["deleted"], "\(removed)")
        #expect(removed.first?["number"] as? Int == 1, "\(removed)")
        try await daemon.stop()
    }
}
