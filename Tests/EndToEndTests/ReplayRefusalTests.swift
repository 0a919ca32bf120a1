import Foundation
import Testing

/// Logs changed by hand (or by someone else) before `todoctl replay`: found by probing from
/// outside, each once crashed or hung todod or todoctl, or stored a todo no list could show.
@Suite("replay of a tampered log")
struct ReplayRefusalTests {
    /// `todoctl log --json` of a database holding one todo, with `change` applied to its todo.
    private func tamperedLog(_ change: (inout [String: Any]) -> Void) async throws -> String {
        let source = try await DaemonProcess.start()
        _ = try await source.todoctl("add", "A", "-t", "x")
        let line = try await source.todoctl("log", "--json").stdout
        try await source.stop()
        var entry = try jsonObject(line)
        var todo = entry["todo"] as? [String: Any] ?? [:]
        change(&todo)
        entry["todo"] = todo
        let file = source.directory + "/tampered.jsonl"
        try String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self).write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Replays `file` into a new daemon: refused with `words`, and the daemon still writes.
    private func expectRefused(_ file: String, saying words: String) async throws {
        let target = try await DaemonProcess.start()
        let replay = try await target.todoctl("replay", file)
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stderr.contains(words), "\(replay.stderr)")
        let add = try await target.todoctl("add", "still here")
        #expect(add.status == 0 && add.stdout == "added #1 still here\n", "\(add.stderr)")
        try await target.stop()
    }

    @Test("a number or revision no database reaches is refused, and the next write does not crash todod")
    func hugeCounts() async throws {
        for key in ["revision", "number"] {
            let file = try await tamperedLog { $0[key] = Int64.max }
            try await expectRefused(file, saying: "from 1 to 2147483647")
        }
    }

    @Test("a todo that is its own parent, or whose parent is not there, is refused")
    func badParents() async throws {
        try await expectRefused(try await tamperedLog { $0["parent"] = 1 }, saying: "cannot be its own parent")
        try await expectRefused(try await tamperedLog { $0["parent"] = 5 }, saying: "names #5 as its parent, which is not a todo here")
    }

    @Test("a change over a wire limit (200 tags) is answered with the daemon's words, not waited for for ever")
    func overLimit() async throws {
        let file = try await tamperedLog { $0["tags"] = (0..<200).map { "t\($0)" } }
        try await expectRefused(file, saying: "more than 32 tags")
    }
}
