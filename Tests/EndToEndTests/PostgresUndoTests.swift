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
}
