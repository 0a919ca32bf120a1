import Foundation
import TestHarness
import Testing

/// Undo and redo across two daemons sharing one real PostgreSQL: what an undo took back
/// travels with its journal entries, so the other replica steps on from it.
@Suite("PostgreSQL as a shared store: undo that steps back", .serialized)
struct PostgresUndoTests {
    @Test("an undo through one daemon, then undo and redo through the other, step through one history")
    func undoAcrossDaemons() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for command in [["add", "Water the plants"], ["edit", "1", "--title", "Water the ferns"], ["edit", "1", "--priority", "high"]] {
            let result = try await run("todoctl", command, environment: first.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let undone = try await first.todoctl("undo")
        #expect(undone.stdout.contains("(undo of 3)"), "\(undone.stdout)\(undone.stderr)")
        try await awaitSequence(4, on: second)
        // The second replica knows change 3 is undone: it takes back change 2, not the undo.
        let before = try await second.todoctl("undo")
        #expect(before.status == 0 && before.stdout.contains("(undo of 2)"), "\(before.stdout)\(before.stderr)")
        try await awaitSequence(5, on: first)
        let redone = try await first.todoctl("redo")
        #expect(redone.status == 0 && redone.stdout.contains("(redo of 5)"), "\(redone.stdout)\(redone.stderr)")
        let shown = try jsonObject(try await first.todoctl("show", "1", "--json").stdout)
        #expect(shown["title"] as? String == "Water the ferns" && shown["priority"] as? String == "normal", "\(shown)")
        let stored = try await server.psql("SELECT entry->>'undoneSteps' FROM journal WHERE seq = 5")
        #expect(stored == "[2]", "\(stored)")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("O7: undo --since takes back the changes made since then by their time, not by their number: after a replica shares what it kept offline an hour ago, the other machine's recent change is taken back and the offline one is not")
    func sinceGoesByTime() async throws {
        let server = try await PostgresServer.start()
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2026-11-27T10:00:00Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri], environment: clock)
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri], environment: clock)
        func succeed(_ daemon: DaemonProcess, _ arguments: String...) async throws -> CommandResult {
            let result = try await daemon.todoctl(arguments, environment: clock)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        _ = try await succeed(first, "add", "before")
        try await server.stopServer()
        let kept = try await succeed(first, "add", "offline an hour ago")
        #expect(kept.stderr.contains("saved on this machine"), "\(kept.stderr)")
        // An hour later the store is back; the second writes before the first shares, so the
        // first's change of 10:00 gets a number above the second's of 11:00.
        try now.set("2026-11-27T11:00:00Z")
        kill(first.pid, SIGSTOP)
        try await server.startServer()
        let recent = try await succeed(second, "add", "recent on the other machine")
        kill(first.pid, SIGCONT)
        #expect(!recent.stderr.contains("saved on this machine"), "\(recent.stderr)")
        try now.set("2026-11-27T11:01:00Z")
        _ = try await succeed(first, "add", "recent here")
        try await awaitAlike([first, second], on: server)
        let order = try await server.psql("SELECT string_agg(entry->'after'->>'title', ',' ORDER BY seq) FROM journal")
        #expect(order == "before,recent on the other machine,offline an hour ago,recent here", "\(order)")

        try now.set("2026-11-27T11:05:00Z")
        let undone = try await succeed(first, "undo", "--since", "10m")
        #expect(undone.stdout.contains("took back 2 steps"), "\(undone.stdout)")
        let listed = try jsonArray(try await first.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }.sorted()
        #expect(listed == ["before", "offline an hour ago"], "\(listed) \(undone.stdout)")
        // Nothing made since 11:05 is in effect: the offline change of 10:00 is not taken back now either.
        let again = try await first.todoctl(["undo", "--since", "10m"], environment: clock)
        #expect(again.status != 0 && again.stderr.contains("no change made since then is still in effect"), "\(again.stdout)\(again.stderr)")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }
}
