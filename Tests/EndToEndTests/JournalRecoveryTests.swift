import Foundation
import Synchronization
import Testing
import TodoClient
import TodoEvents
import TodoModel

/// The journal when things go wrong or come back: catching up after a gap, a crash in
/// the middle of writes, and a whole log replayed into another database.
@Suite("The journal: catching up, crashes and replay")
struct JournalRecoveryTests {
    private func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }.merging(extra) { $1 }
    }

    /// Every row of the todo table, every column, as the sqlite3 shell prints them.
    private func rows(_ database: String) async throws -> String {
        try await run("/usr/bin/sqlite3", [database, "SELECT * FROM todo ORDER BY number"]).stdout
    }

    @Test("a client that missed changes gets exactly those from requestChanges; one too far behind is told to re-list")
    func catchUpWithChanges() async throws {
        let daemon = try await DaemonProcess.start()
        let client = try await TodoClient.connect(to: daemon.socketPath, program: "watch")
        let seen = client.hello.sequence
        for title in ["one", "two", "three"] { _ = try await daemon.todoctl("add", title) }
        guard case .responseChanges(let list) = try await client.request(.requestChanges(ChangesRequest(since: seen))) else {
            throw TestFailure("expected responseChanges")
        }
        #expect(list.changes.map(\.sequence) == [1, 2, 3])
        #expect(list.changes.map(\.todo.title) == ["one", "two", "three"])
        #expect(list.changes.allSatisfy { $0.kind == .created && $0.program == "todoctl" && $0.before == nil })
        #expect(list.seq == 3 && !list.tooFarBehind)
        guard case .responseChanges(let behind) = try await client.request(.requestChanges(ChangesRequest(since: 0, limit: 2))) else {
            throw TestFailure("expected responseChanges")
        }
        #expect(behind.tooFarBehind && behind.changes.isEmpty && behind.seq == 3)
        await #expect(throws: TodoClientError.self) { try await client.request(.requestChanges(ChangesRequest(since: 9))) }
        await client.close()
        try await daemon.stop()
    }

    @Test("events, back after the daemon was away, first prints the changes made meanwhile, from the journal")
    func eventsCatchUpAfterReconnecting() async throws {
        let daemon = try await DaemonProcess.start()
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: environment(daemon.environment))
        defer { events.stopNow() }
        // Connected first: a change made before it subscribes is not one it prints.
        try await awaitClients(2, on: daemon)
        _ = try await daemon.todoctl("add", "before")
        _ = try await events.awaitLine(containing: "1 added #1 before")
        try await daemon.stop()
        _ = try await events.awaitLine(containing: "connecting again in")
        // Changes made while events cannot connect: the same database behind another socket.
        let aside = daemon.directory + "/aside.sock"
        let away = try await DaemonProcess.start(in: daemon.directory, arguments: ["--socket", aside])
        for command in [["add", "while away"], ["done", "1"]] {
            let result = try await run("todoctl", ["--socket", aside] + command)
            #expect(result.status == 0, "\(result.stderr)")
        }
        try await away.stop()
        let back = try await DaemonProcess.start(in: daemon.directory)
        _ = try await events.awaitLine(containing: "catching up")
        _ = try await events.awaitLine(containing: "2 added #2 while away")
        _ = try await events.awaitLine(containing: "3 done #1 before")
        _ = try await back.todoctl("add", "after")
        _ = try await events.awaitLine(containing: "4 added #3 after")
        try await back.stop()
    }

    @Test("kill -9 in the middle of a storm of writes leaves the journal and the table agreeing, every answered write kept")
    func killDuringWrites() async throws {
        let daemon = try await DaemonProcess.start()
        let answered = Tally()
        let (enough, reached) = AsyncStream.makeStream(of: Void.self)
        let path = daemon.socketPath
        let writers = (0..<4).map { writer in
            Task {
                try? await blocking {
                    let connection = try TodoConnection(path: path)
                    for index in 0... {
                        _ = try connection.request(.requestNewTodo(NewTodo(title: "writer \(writer) todo \(index)")))
                        if answered.add() == 200 { reached.yield() }
                        if index % 3 == 0 { _ = try connection.request(.requestCompleteTodo(.number(index + 1))) }
                    }
                }
            }
        }
        for await _ in enough { break }
        kill(daemon.pid, SIGKILL)
        _ = try await daemon.waitForExit()
        for writer in writers { await writer.value }
        let check = try await daemon.check()
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let restarted = try await DaemonProcess.start(in: daemon.directory)
        let status = try jsonObject(try await restarted.todoctl("status", "--json").stdout)
        let total = (status["openTodos"] as? Int ?? 0) + (status["completedTodos"] as? Int ?? 0)
        #expect(total >= answered.value)
        _ = try await restarted.todoctl("add", "after the crash")
        try await restarted.stop()
        let checked = try await restarted.check()
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    @Test("log --json of one database replayed into an empty one gives the same todos, numbers and revisions")
    func replayEquality() async throws {
        let source = try await DaemonProcess.start()
        for title in ["Call plumber", "Milk", "Bread"] { _ = try await source.todoctl("add", title) }
        _ = try await source.todoctl("edit", "1", "--title", "Call the plumber", "--tag", "home", "--due", "2026-12-24")
        _ = try await source.todoctl("done", "2")
        _ = try await source.todoctl("rm", "3")
        _ = try await source.todoctl("undo", "4")
        let log = try await source.todoctl("log", "--json")
        #expect(log.lines.count == 7)
        try await source.stop()
        let file = source.directory + "/log.jsonl"
        try log.stdout.write(toFile: file, atomically: true, encoding: .utf8)

        let target = try await DaemonProcess.start()
        let replay = try await target.todoctl("replay", file)
        #expect(replay.status == 0 && replay.stdout.contains("replayed 7 changes"), "\(replay.stderr)")
        // Again: every change is here, the same, so each is skipped and nothing is applied twice.
        let again = try await target.todoctl("replay", file)
        #expect(again.status == 0 && again.stdout == "replayed 0 changes; 7 already here, the same, skipped\n", "\(again.stdout)\(again.stderr)")
        let added = try await target.todoctl("add", "numbered after the replayed ones", "--json")
        #expect(added.stdout.contains("\"number\" : 4"))
        _ = try await target.todoctl("rm", "4")
        try await target.stop()
        let sourceRows = try await rows(source.databasePath)
        let targetRows = try await rows(target.databasePath)
        #expect(sourceRows == targetRows.split(separator: "\n").dropLast().joined(separator: "\n") + "\n")
        let checked = try await target.check()
        #expect(checked.status == 0, "\(checked.stderr)")
    }
    @Test("purge removes deleted todos and their journal entries for good, only with --yes when stdin is not a terminal")
    func purge() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["keep", "gone", "also gone"] { _ = try await daemon.todoctl("add", title) }
        _ = try await daemon.todoctl("rm", "2", "3")
        let refused = try await daemon.todoctl("purge")
        // Unconfirmed, as a bulk change without a terminal: exit 1 (EXIT-CODES.md), not 64 (bad usage).
        #expect(refused.status == 1 && refused.stderr.contains("cannot ask without a terminal: nothing was purged. Pass --yes"),
                "\(refused.status) \(refused.stderr)")
        let purged2 = try await daemon.todoctl("purge", "--yes", "--older-than", "30d")
        #expect(purged2.stdout.contains("no deleted todos to purge"))
        let listed = try await daemon.todoctl("list", "--deleted", "--json")
        #expect(listed.stdout.contains("also gone"))
        let purged = try await daemon.todoctl("purge", "--yes")
        #expect(purged.status == 0 && purged.stdout.contains("purged for good: #2 #3"), "\(purged.stderr)")
        let listed2 = try await daemon.todoctl("list", "--deleted")
        #expect(listed2.stdout.contains("no deleted todos"))
        let history2 = try await daemon.todoctl("history", "2")
        #expect(history2.status == 1, "\(history2.stderr)")
        let logged = try await daemon.todoctl("log", "--json")
        #expect(logged.lines.count == 1)
        // The purge took change 6 without a broadcast; the next change is 7, and numbers are not reused.
        let next = try await daemon.todoctl("add", "next")
        #expect(next.stdout.contains("#4"))
        let history3 = try await daemon.todoctl("history", "4", "--json")
        #expect(try jsonObject(history3.stdout)["seq"] as? Int == 7, "\(history3.stdout)")
        let checked = try await daemon.check()
        #expect(checked.status == 0, "\(checked.stderr)")
        try await daemon.stop()
    }

    @Test("purge in a terminal lists what it would remove and asks; only yes removes them")
    func purgeAsksInATerminal() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["keep", "old draft"] { _ = try await daemon.todoctl("add", title) }
        _ = try await daemon.todoctl("rm", "2")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl purge; echo \"exit=$?\"")
        _ = try await tmux.waitFor("Purge them? [y/N]")
        let screen = try await tmux.screen()
        #expect(screen.contains("#2 old draft"))
        try await tmux.type("n")
        _ = try await tmux.waitFor("exit=0")
        let listed = try await daemon.todoctl("list", "--deleted")
        #expect(listed.stdout.contains("old draft"))
        try await tmux.type("clear; \(binaryDirectory)/todoctl purge; echo \"exit=$?\"")
        _ = try await tmux.waitFor("Purge them? [y/N]")
        try await tmux.type("y")
        _ = try await tmux.waitFor("purged for good: #2")
        let listed2 = try await daemon.todoctl("list", "--deleted")
        #expect(listed2.stdout.contains("no deleted todos"))
        await tmux.kill()
        try await daemon.stop()
    }
}

/// A count shared by writer threads.
private final class Tally: Sendable {
    private let count = Mutex(0)

    /// Adds one; returns the new count.
    func add() -> Int { count.withLock { $0 += 1; return $0 } }

    var value: Int { count.withLock { $0 } }
}
