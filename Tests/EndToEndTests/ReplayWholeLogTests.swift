import Foundation
import Testing

/// `todoctl replay` of a log with changes left out (found by probing from outside): a line
/// cut from the middle, or the part `log --json --since/--limit` prints. Replayed, it
/// journaled edits that never happened and made todos from updates with no creation, and
/// said "replayed 4 changes". It must write nothing and say which seq is missing.
@Suite("replay of a log with changes left out")
struct ReplayWholeLogTests {
    /// A source daemon's `log --json` after one add and four edits of it (seqs 1–5), by line.
    private func editedLog() async throws -> (lines: [String], directory: String) {
        let source = try await DaemonProcess.start()
        _ = try await source.todoctl("add", "A")
        for title in ["B", "C", "D", "E"] {
            let edit = try await source.todoctl("edit", "1", "--title", title)
            #expect(edit.status == 0, "\(edit.stderr)")
        }
        let log = try await source.todoctl("log", "--json")
        try await source.stop()
        #expect(log.lines.count == 5, "\(log.stdout)")
        return (log.lines, source.directory)
    }

    private func write(_ lines: [String], to file: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// Replays `file` into a new daemon: refused as bad input with `words`, and nothing written.
    private func expectRefused(_ file: String, saying words: [String]) async throws {
        let target = try await DaemonProcess.start()
        let replay = try await target.todoctl("replay", file)
        #expect(replay.status == 65, "\(replay.status) \(replay.stdout)\(replay.stderr)")
        for word in words { #expect(replay.stderr.contains(word), "\(word): \(replay.stderr)") }
        let log = try await target.todoctl("log", "--json")
        #expect(log.status == 0 && log.stdout.isEmpty, "written anyway: \(log.stdout)\(log.stderr)")
        try await target.stop()
    }

    @Test("a log with a line cut from the middle is refused, naming the missing seq, and nothing is written")
    func gapRefused() async throws {
        let (lines, directory) = try await editedLog()
        let file = directory + "/gap.jsonl"
        try write(Array(lines[0..<3]) + [lines[4]], to: file)
        try await expectRefused(file, saying: ["seq 4 is missing", "line 4 (seq 5) is #1 revision 5", "replay the whole `todoctl log --json`", "nothing was replayed"])
    }

    @Test("a log that starts mid-way, as log --json --since or --limit prints, is refused and nothing is written")
    func tailRefused() async throws {
        let (lines, directory) = try await editedLog()
        let file = directory + "/tail.jsonl"
        try write(Array(lines[3...]), to: file)
        try await expectRefused(file, saying: ["does not start at the first change", "seqs 1–3 are missing", "nothing was replayed"])
    }

    @Test("the rest of a log replays onto the daemon that holds the changes before it, and gives the same journal")
    func restReplaysAfterItsStart() async throws {
        let (lines, directory) = try await editedLog()
        let (head, rest) = (directory + "/head.jsonl", directory + "/rest.jsonl")
        try write(Array(lines[0..<3]), to: head)
        try write(Array(lines[3...]), to: rest)
        let target = try await DaemonProcess.start()
        for file in [head, rest] {
            let replay = try await target.todoctl("replay", file)
            #expect(replay.status == 0, "\(file): \(replay.stdout)\(replay.stderr)")
        }
        let log = try await target.todoctl("log", "--json")
        #expect(log.lines == lines, "\(log.stdout)")
        try await target.stop()
    }

    @Test("replay of a file that cannot be read names it and the reason, and exits 65 as import does")
    func unreadableFile() async throws {
        let target = try await DaemonProcess.start()
        let replay = try await target.todoctl("replay", target.directory + "/nonexistent.jsonl")
        #expect(replay.status == 65, "\(replay.status) \(replay.stdout)\(replay.stderr)")
        #expect(replay.stderr.contains("cannot read \(target.directory)/nonexistent.jsonl: No such file or directory"), "\(replay.stderr)")
        #expect(!replay.stderr.contains("Usage:"), "\(replay.stderr)")
        try await target.stop()
    }
}
