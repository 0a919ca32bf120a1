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
            try await expectRefused(file, saying: "from 1 to 1000000000")
        }
    }

    @Test("number 2147483647 is refused: the next add would get a number the shared store and --migrate-to refuse for good")
    func numberWithoutRoom() async throws {
        for key in ["revision", "number"] {
            let file = try await tamperedLog { $0[key] = Int(Int32.max) }
            try await expectRefused(file, saying: "from 1 to 1000000000, which leaves room for a billion more")
        }
        // At the bound, the next add still has room.
        let file = try await tamperedLog { $0["number"] = 1_000_000_000 }
        let target = try await DaemonProcess.start()
        #expect(try await target.todoctl("replay", file).status == 0)
        let add = try await target.todoctl("add", "next")
        #expect(add.stdout == "added #1000000001 next\n", "\(add.stdout)\(add.stderr)")
        try await target.stop()
    }

    @Test("more than 64 KiB of other programs' fields is refused, as an import's are")
    func bigForeign() async throws {
        let file = try await tamperedLog { $0["foreign"] = ["ical": String(repeating: "X", count: 70_000)] }
        try await expectRefused(file, saying: "#1 revision 1: foreign: 70004 bytes of other programs' fields; the most is 65536 (64 KiB)")
    }

    @Test("a live subtask of a deleted todo is refused, naming its line and seq: todod deletes subtasks with their parent")
    func liveSubtaskOfDeletedParent() async throws {
        let source = try await DaemonProcess.start()
        _ = try await source.todoctl("add", "Parent")
        _ = try await source.todoctl("add", "Child", "--parent", "1")
        _ = try await source.todoctl("rm", "1")
        var lines = try await source.todoctl("log", "--json").lines
        try await source.stop()
        #expect(lines.count == 4, "\(lines)")
        // The subtask's deletion, changed by hand into a live revision 2.
        var entry = try jsonObject(lines[3])
        var todo = entry["todo"] as? [String: Any] ?? [:]
        todo["deletedAt"] = NSNull()
        entry["todo"] = todo
        lines[3] = String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self)
        let file = source.directory + "/tampered.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try await expectRefused(file, saying: "line 4 (seq 4) was refused")
        try await expectRefused(file, saying: "#2 revision 2 is a live subtask of #1, which is deleted")
    }

    @Test("a todo that is its own parent, or whose parent is not there, is refused")
    func badParents() async throws {
        try await expectRefused(try await tamperedLog { $0["parent"] = 1 }, saying: "cannot be its own parent")
        let orphan = try await tamperedLog { $0["parent"] = 5 }
        try await expectRefused(orphan, saying: "names #5 as its parent, which is not a todo here")
        // A refusal that names no line names the batch's lines, in the plural.
        try await expectRefused(orphan, saying: "lines 1–1 (seq 1–1) were refused")
    }

    @Test("a change over a wire limit (200 tags) is answered with the daemon's words, not waited for for ever")
    func overLimit() async throws {
        let file = try await tamperedLog { $0["tags"] = (0..<200).map { "t\($0)" } }
        try await expectRefused(file, saying: "more than 32 different tags")
    }
}
