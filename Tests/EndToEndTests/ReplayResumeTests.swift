import Foundation
import Testing

/// `todoctl replay` interrupted: by kill -9 of todod, the batch that was committing may be
/// durable or not, and no one can tell before asking todod again. The advice must hold
/// either way, and the same replay run again must finish the job.
@Suite("replay after a crash")
struct ReplayResumeTests {
    /// A log of `count` todos made, in `todoctl log --json`'s shape: a real line, renumbered.
    private func madeLog(count: Int) async throws -> String {
        let source = try await DaemonProcess.start()
        _ = try await source.todoctl("add", "template")
        let line = try await source.todoctl("log", "--json").stdout
        try await source.stop()
        let template = try jsonObject(line)
        var lines: [String] = []
        lines.reserveCapacity(count)
        for number in 1...count {
            var entry = template
            var todo = entry["todo"] as? [String: Any] ?? [:]
            todo["id"] = UUID().uuidString.lowercased()
            todo["number"] = number
            todo["title"] = "todo \(number)"
            entry["todo"] = todo
            entry["seq"] = number
            entry["step"] = number
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self))
        }
        let file = source.directory + "/made.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("kill -9 of todod during a replay: its advice is true, and the same replay run again finishes, skipping what was stored")
    func killDuringReplay() async throws {
        let count = 10_000
        let file = try await madeLog(count: count)
        let target = try await DaemonProcess.start()
        let replay = Task { try await run("todoctl", ["replay", file], environment: target.environment, timeout: 600) }
        // Some batches in, and many to go (157 batches of 64): kill todod in the middle.
        try await awaitSequence(64, on: target, timeout: 120)
        kill(target.pid, SIGKILL)
        _ = try await target.waitForExit()
        let interrupted = try await replay.value
        #expect(interrupted.status == 69, "status \(interrupted.status): \(interrupted.stdout)\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("may be stored or not"), "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("run `todoctl replay \(file)` again"), "\(interrupted.stderr)")

        let restarted = try await DaemonProcess.start(in: target.directory)
        let stored = try jsonObject(try await restarted.todoctl("status", "--json").stdout)["sequence"] as? Int ?? 0
        #expect(stored >= 64 && stored < count, "\(stored) changes stored before the kill")
        let again = try await run("todoctl", ["replay", file], environment: restarted.environment, timeout: 600)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "replayed \(count - stored) changes; \(stored) already here, the same, skipped\n", "\(again.stdout)")
        let status = try jsonObject(try await restarted.todoctl("status", "--json").stdout)
        #expect(status["openTodos"] as? Int == count, "\(status)")
        let added = try await restarted.todoctl("add", "after the replay")
        #expect(added.stdout == "added #\(count + 1) after the replay\n", "\(added.stdout)\(added.stderr)")
        try await restarted.stop()
    }

    @Test("a change already here but different is refused, naming its line, and nothing of its batch is written")
    func differentChangeRefused() async throws {
        let file = try await madeLog(count: 3)
        let target = try await DaemonProcess.start()
        #expect(try await target.todoctl("replay", file).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        var entry = try jsonObject(lines[1])
        var todo = entry["todo"] as? [String: Any] ?? [:]
        todo["title"] = "changed by hand"
        entry["todo"] = todo
        lines[1] = String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self)
        let changed = target.directory + "/changed.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: changed, atomically: true, encoding: .utf8)
        let replay = try await target.todoctl("replay", changed)
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stderr.contains("line 2 (seq 2) was refused"), "\(replay.stderr)")
        #expect(replay.stderr.contains("#2 revision 1 does not follow revision 1 of the same todo, and is not that revision as stored here"), "\(replay.stderr)")
        #expect(try await target.todoctl("show", "2").stdout.contains("todo 2"))
        try await target.stop()
    }
}
