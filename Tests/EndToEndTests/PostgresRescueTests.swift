import Foundation
import TestHarness
import Testing

/// The rescue by hand that SEVERAL-MACHINES.md, `todoctl status` and the log give a replica
/// refused for good (it purged todos after the point the store went back to), run as a person
/// would, step by step, with real processes: its changes the store lost reach a new replica,
/// and every other machine, through `todoctl log --json` and `todoctl replay`.
@Suite("PostgreSQL: the rescue of a replica refused for good", .serialized)
struct PostgresRescueTests {
    @Test("a replica that purged after the point the store went back to is rescued as the docs say: stop, copy, --leave-store, log --json, a new replica, replay; its changes the store lost reach every machine, a number another machine took meanwhile given anew, nothing twice")
    func refusedReplicaIsRescued() async throws {
        let server = try await PostgresServer.start()
        let writer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for arguments in [["add", "one"], ["add", "two"], ["add", "three"]] {
            let done = try await writer.todoctl(arguments)
            #expect(done.status == 0, "\(done.stderr)")
        }
        let backup = try await server.dump()
        // Only the writer holds these once the store goes back: todos, an edit, a delete and a purge, and past
        // the 64 changes of a replay's request a subtask of the first (its parent named by number).
        for arguments in [["add", "four"], ["edit", "3", "--title", "three edited"], ["rm", "2"], ["purge", "--yes"], ["add", "five"]] {
            let done = try await writer.todoctl(arguments)
            #expect(done.status == 0, "\(arguments): \(done.stderr)")
        }
        let filler = (1...70).map { "filler \($0)\n" }.joined()
        let imported = try await writer.todoctl("import", "--from", "todotxt", "-", input: filler)
        #expect(imported.status == 0, "\(imported.stderr)")
        let sub = try await writer.todoctl("add", "under four", "--parent", "4")
        #expect(sub.status == 0 && sub.stdout.contains("#76"), "\(sub.stdout)\(sub.stderr)")
        try await server.restore(backup)
        let other = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let taken = try await other.todoctl("add", "other four")
        #expect(taken.status == 0 && taken.stdout.contains("#4"), "\(taken.stdout)\(taken.stderr)")
        let refused = try await writer.todoctl("add", "six")
        #expect(refused.status != 0 && refused.stderr.contains("writes are refused"), "\(refused.stderr)")
        let status = try await writer.todoctl("status")
        #expect(status.stdout.contains("todod --leave-store --database COPY") && status.stdout.contains("todoctl replay CHANGES"), "\(status.stdout)")

        // The rescue, as the status says: stop todod, copy the database, leave the store on the copy.
        try await writer.stop()
        let rescue = try makeTemporaryDirectory()
        let copy = rescue + "/todos.sqlite"
        try FileManager.default.copyItem(atPath: writer.databasePath, toPath: copy)
        let left = try await run("todod", ["--leave-store", "--database", copy])
        #expect(left.status == 0, "\(left.stdout)\(left.stderr)")
        // A todod on the copy without --store, and its changes saved.
        let alone = try await DaemonProcess.start(in: rescue)
        let log = try await alone.todoctl("log", "--json")
        #expect(log.status == 0, "\(log.stderr)")
        let changes = rescue + "/CHANGES"
        try Data(log.stdout.utf8).write(to: URL(fileURLWithPath: changes))
        try await alone.stop()
        // A todod with --store and a new database, filled from the store, and the changes replayed.
        let fresh = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let replayed = try await fresh.todoctl("replay", changes)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        // The todos another machine had given the numbers of meanwhile get the next free ones, and say so.
        #expect(replayed.stdout.contains("#4 is now #5: another todo had that number here"), "\(replayed.stdout)")

        try await awaitAlike([fresh, other], on: server)
        let stored = try await server.psql("""
            SELECT string_agg(number || ' ' || (todo->>'title') || coalesce(' under ' || (todo->>'parent'), '')
                || CASE WHEN todo->>'deletedAt' IS NOT NULL THEN ' (deleted)' ELSE '' END, ',' ORDER BY number) FROM todo WHERE number < 8 OR number > 75
            """)
        // #2 was purged on the writer: its history went with it, so the store's #2 stays (nothing of it to replay).
        #expect(stored == "1 one,2 two,3 three edited,4 other four,5 four,6 five,7 filler 1,76 filler 70,77 under four under 5", "\(stored)\n\(replayed.stdout)")
        for daemon in [fresh, other] {
            let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }
            #expect(listed.count == 77 && listed.contains("three edited") && listed.contains("under four"), "\(listed)")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        // Replayed again, nothing changes: what the store holds is skipped.
        let again = try await fresh.todoctl("replay", changes)
        #expect(again.status == 0 && again.stdout.contains("replayed 0 changes"), "\(again.stdout)\(again.stderr)")
        let storedAgain = try await server.psql("SELECT count(*) FROM todo")
        #expect(storedAgain == "77")
        try await fresh.stop()
        try await other.stop()
        try await server.stop()
    }
}
