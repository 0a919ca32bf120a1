import Foundation
import TestHarness
import Testing
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// The shared store going away while daemons run on it: what every client is told, what is
/// refused, and that nothing acknowledged is lost and nothing is applied twice. A real
/// PostgreSQL 15, stopped, started, frozen and locked under the daemons' feet.
@Suite("PostgreSQL going away", .serialized)
struct PostgresOutageTests {
    @Test("PostgreSQL stopped and started again is told to every client: events, status and a line in watch say so")
    func outageIsTold() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        // --json: the frame on stdout, for scripts (probe P18).
        let json = try ChildProcess(binaryDirectory + "/todoctl", ["events", "--json"], environment: daemon.environment, errors: .null)
        defer { json.stopNow() }
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("· connected")
        try await awaitClients(4, on: daemon)
        let store = "postgresql://postgres@/todos?host=\(server.directory)"

        try await server.stopServer()
        let told = try await events.awaitLine(containing: "is unreachable since")
        #expect(told.contains("the shared store \(store) is unreachable"), "\(told)")
        #expect(told.contains("changes are saved on this machine and shared once it is back"), "\(told)")
        try await tmux.waitFor("shared store unreachable since")
        let frame = try jsonObject(try await json.awaitLine(containing: "responseSharedStore"))
        #expect((frame["data"] as? [String: Any])?["reachable"] as? Bool == false)
        try await tmux.waitFor("· store unreachable")
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        let shared = status["sharedStore"] as? [String: Any]
        #expect(shared?["reachable"] as? Bool == false)
        #expect(shared?["store"] as? String == store)
        #expect((shared?["problem"] as? String)?.isEmpty == false)
        let status2 = try await daemon.todoctl("status")
        #expect(status2.stdout.contains("store     \(store), unreachable since"))
        // A key that writes is saved on this machine: the list shows it at once.
        try await tmux.keys("a")
        try await tmux.type("written while away")
        try await tmux.waitFor("written while away")

        try await server.startServer()
        _ = try await events.awaitLine(containing: "is reachable again")
        try await tmux.waitUntil("the outage line to give way") { !$0.contains("shared store unreachable") && $0.contains("· connected") }
        // The news that it is back goes by itself, giving its line back (probe Q3).
        try await tmux.waitUntil("the notice to go by itself") { !$0.contains("reachable again") && $0.contains("written while away") }
        let back = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        #expect((back["sharedStore"] as? [String: Any])?["reachable"] as? Bool == true)
        let added = try await daemon.todoctl("add", "after")
        #expect(added.status == 0, "\(added.stderr)")
        // The change made while away was shared before the one after it.
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored == "written while away,after")
        await tmux.kill()
        try await daemon.stop()
        try await server.stop()
    }

    @Test("started while PostgreSQL is away, todod serves its replica and keeps writes on this machine; once it is back, it shares them and takes what the other daemon wrote")
    func startsWhileAway() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await first.todoctl("add", "one")
        #expect(added.status == 0, "\(added.stderr)")
        try await first.stop()
        try await server.stopServer()
        let again = try await DaemonProcess.start(in: first.directory, arguments: ["--store", server.uri])
        let listed = try jsonArray(try await again.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }
        #expect(listed == ["one"])
        let status = try jsonObject(try await again.todoctl("status", "--json").stdout)
        #expect((status["sharedStore"] as? [String: Any])?["reachable"] as? Bool == false)
        let away = try await again.todoctl("add", "while away")
        #expect(away.status == 0, "\(away.stderr)")
        #expect(away.stderr.contains("saved on this machine; shared when the store is back"), "\(away.stderr)")
        // events started meanwhile says so at once (probe P21): no news would come until the store is back.
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: again.environment)
        defer { events.stopNow() }
        _ = try await events.awaitLine(containing: "is unreachable since")
        // An edit in the editor meanwhile is saved too.
        let editor = again.directory + "/editor.sh"
        try "#!/bin/sh\nsed -i 's/^title: .*/title: renamed while away/' \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let edited = try await again.todoctl("edit", "1", environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stderr.contains("saved on this machine"), "\(edited.stderr)")

        try await server.startServer()
        let added2 = try await second.todoctl("add", "two")
        #expect(added2.status == 0, "\(added2.stderr)")
        // The second daemon took #2 first: the one added here while away becomes #3.
        try await again.awaitLog(containing: "are shared")
        let last = try #require(UInt64(try await server.psql("SELECT value FROM counter WHERE name = 'change'")))
        try await awaitSequence(last, on: again)
        let caughtUp = try jsonArray(try await again.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }
        #expect(Set(caughtUp) == ["renamed while away", "two", "while away"], "\(caughtUp)")
        let added3 = try await again.todoctl("add", "three")
        #expect(added3.stdout.contains("#4"), "\(added3.stdout)")
        try await again.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("Q5: a database of its own, or another store's replica, started while PostgreSQL is away is refused at start, naming what it is, and left as it was")
    func foreignReplicaRefusedOffline() async throws {
        let (server, alone) = try await storeBesideAForeignDatabase()
        let replica = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await replica.todoctl("add", "shared")
        #expect(added.status == 0, "\(added.stderr)")
        try await replica.stop()
        try await server.stopServer()

        let own = try await run("todod", ["--socket", alone.socketPath, "--database", alone.databasePath, "--store", server.uri])
        #expect(own.status == 1)
        #expect(own.stderr.contains("holds todos of its own, not a replica of a shared store"), "\(own.stderr)")
        #expect(own.stderr.contains("todod --migrate-to URI --database \(alone.databasePath)"), "\(own.stderr)")
        let checked = try await alone.check()
        #expect(checked.stdout.contains("2 todos, 2 changes"))

        let other = server.uri.replacingOccurrences(of: "/todos?", with: "/elsewhere?")
        let another = try await run("todod", ["--socket", replica.socketPath, "--database", replica.databasePath, "--store", other])
        #expect(another.status == 1)
        #expect(another.stderr.contains("is the replica of the shared store \(server.uri), not of \(other)"), "\(another.stderr)")
        try await server.startServer()
        // Reachable and empty, the other store still hears whose replica the file is.
        _ = try await server.psql("CREATE DATABASE elsewhere")
        let reachable = try await run("todod", ["--socket", replica.socketPath, "--database", replica.databasePath, "--store", other])
        #expect(reachable.status == 1)
        #expect(reachable.stderr.contains("is the replica of the shared store \(server.uri), not of \(other), so nothing was changed: for it, start todod with --store \(server.uri)"),
                "\(reachable.stderr)")
        try await server.stop()
    }

    @Test("a replica started while its store is away with the store's socket directory spelled otherwise (host=/dir/./sock, doubled slashes) is the same store's, and so is one an older todod marked with such a spelling (outside probe 11, F13: refused as another store's)")
    func sameStoreSpelledOtherwiseStartsOffline() async throws {
        let server = try await PostgresServer.start()
        let replica = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await replica.todoctl("add", "shared")
        #expect(added.status == 0, "\(added.stderr)")
        try await replica.stop()
        try await server.stopServer()

        let spelled = server.uri.replacingOccurrences(of: "?host=/", with: "?host=//./")
        #expect(spelled != server.uri)
        let again = try await DaemonProcess.start(in: replica.directory, arguments: ["--store", spelled])
        let listed = try await again.todoctl("list")
        #expect(listed.stdout.contains("shared"), "\(listed.stdout) \(listed.stderr)")
        try await again.stop()

        // An older todod kept the URI as written: the mark spelled otherwise still names this store.
        let marked = try await run("/usr/bin/sqlite3", [replica.databasePath, "UPDATE replica SET store = '\(spelled)'"])
        #expect(marked.status == 0, "\(marked.stderr)")
        let older = try await DaemonProcess.start(in: replica.directory, arguments: ["--store", server.uri])
        let status = try await older.todoctl("status")
        #expect(status.stdout.contains("unreachable"), "\(status.stdout)")
        try await older.stop()
        try await server.stop()
    }

    /// Each daemon's titles by number, deleted ones too.
    private func titles(_ daemon: DaemonProcess) async throws -> [String] {
        try jsonArray(try await daemon.todoctl("list", "--all", "--json").stdout)
            .sorted { ($0["number"] as? Int ?? 0) < ($1["number"] as? Int ?? 0) }.compactMap { $0["title"] as? String }
    }

    @Test("the store's database dropped while the daemons run: a write is saved on this machine and said so, and shared once the database is restored; both replicas alike (outside probe 9, F8: it was refused as a setup error)")
    func droppedDatabaseKeepsWrites() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let one = try await first.todoctl("add", "one")
        #expect(one.status == 0, "\(one.stderr)")
        let backup = try await server.dump()
        try await server.dropDatabase()

        let two = try await first.todoctl("add", "two")
        #expect(two.status == 0 && two.stderr.contains("saved on this machine"), "\(two.stderr)")
        let status = try await first.todoctl("status")
        #expect(status.stdout.contains("is not there any more"), "\(status.stdout)")
        try await server.createDatabase()
        try await server.load(backup)
        try await first.awaitLog(containing: "are shared")
        try await awaitAlike([first, second], on: server)
        for daemon in [first, second] {
            #expect(try await titles(daemon) == ["one", "two"])
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("PostgreSQL restored from an older backup: a daemon sends back the changes it lost, as changes made while it was away, and writes on; every daemon alike, each change once; restarted, it starts on it")
    func restoredFromAnOlderBackup() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for title in ["one", "two", "three"] {
            let added = try await first.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let backup = try await server.dump()
        for title in ["four", "five"] {
            let added = try await second.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        try await awaitSequence(5, on: first)
        try await server.restore(backup)

        let added = try await first.todoctl("add", "six")
        #expect(added.status == 0 && !added.stderr.contains("saved on this machine"), "\(added.stderr)")
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored == "one,two,three,four,five,six", "\(stored)")
        let told = [first, second].filter { $0.log.contains("the shared store does not hold this replica's last changes") }
        #expect(!told.isEmpty, "\(first.log.suffix(1500))")
        try await awaitAlike([first, second], on: server)
        for daemon in [first, second] {
            let listed = try await titles(daemon)
            #expect(listed == ["one", "two", "three", "four", "five", "six"], "\(listed)")
            let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
            #expect((status["sharedStore"] as? [String: Any])?["reachable"] as? Bool == true, "\(status)")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        try await first.stop()
        let again = try await DaemonProcess.start(in: first.directory, arguments: ["--store", server.uri])
        #expect(try await titles(again) == ["one", "two", "three", "four", "five", "six"])
        try await again.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("a replica started again after another sent its lost changes back, and a newcomer wrote past the restored point, sends back only what the store lacks: all three alike, each todo once (outside probe 9, F1: it took the store's changes on top of its own)")
    func secondReplicaAfterAHealedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for (daemon, title) in [(first, "a"), (second, "b")] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let backup = try await server.dump()
        for (daemon, title) in [(first, "X1"), (second, "X2")] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        try await awaitSequence(4, on: first)
        try await awaitSequence(4, on: second)
        try await first.stop()
        try await second.stop()
        try await server.restore(backup)
        let newcomer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let y = try await newcomer.todoctl("add", "Y")
        #expect(y.status == 0, "\(y.stderr)")
        let healed = try await DaemonProcess.start(in: first.directory, arguments: ["--store", server.uri])
        #expect(healed.log.contains("does not hold this replica's last changes"), "\(healed.log.suffix(1500))")
        // The second's last number is one the healing left unused in the store.
        let again = try await DaemonProcess.start(in: second.directory, arguments: ["--store", server.uri])
        try await awaitAlike([newcomer, healed, again], on: server)
        let expected = try await titles(newcomer)
        #expect(expected.sorted() == ["X1", "X2", "Y", "a", "b"], "\(expected)")
        for daemon in [healed, again] {
            #expect(try await titles(daemon) == expected, "\(daemon.log.suffix(1500))")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        for daemon in [newcomer, healed, again] { try await daemon.stop() }
        try await server.stop()
    }

    /// The store's last changes taken away under running daemons, as a restore that cut no
    /// connection would: no daemon can tell from the counters until another one writes.
    private func forgetChanges(after seq: Int, in server: PostgresServer) async throws {
        _ = try await server.psql("""
            DELETE FROM todo WHERE number > \(seq); DELETE FROM journal WHERE seq > \(seq); DELETE FROM purge WHERE seq > \(seq);
            UPDATE counter SET value = \(seq) WHERE name IN ('number', 'change')
            """)
    }

    @Test("Q1: the store went back and another daemon wrote past it: the changes it lost come back, made again on the newcomer's and renumbered where it gave their numbers; every daemon alike, each todo once")
    func wentBackThenWrittenPast() async throws {
        let server = try await PostgresServer.start()
        let writer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let reader = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for title in ["one", "two", "three", "four", "five"] {
            let added = try await writer.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        try await awaitSequence(5, on: reader)
        try await forgetChanges(after: 3, in: server)
        let newcomer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for title in ["new four", "new five"] {
            let added = try await newcomer.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }

        // The writer's 4 and 5 are not the store's: they are made again after the newcomer's, renumbered.
        let added = try await writer.todoctl("add", "six")
        #expect(added.status == 0 && !added.stderr.contains("saved on this machine"), "\(added.stderr)")
        let all = ["one", "two", "three", "new four", "new five", "four", "five", "six"]
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored == all.joined(separator: ","), "\(stored)")
        #expect([writer, reader].contains { $0.log.contains("#4 is now #6") }, "\(writer.log.suffix(1500))")
        // The reader learns it from the next change (or its heartbeat), and sends back only what the store lacks.
        let more = try await newcomer.todoctl("add", "new six")
        #expect(more.status == 0, "\(more.stderr)")
        try await awaitAlike([writer, reader, newcomer], on: server)
        for daemon in [writer, reader, newcomer] {
            let listed = try await titles(daemon)
            #expect(listed == all + ["new six"], "\(listed) \(daemon.log.suffix(1000))")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        try await writer.stop()
        try await reader.stop()
        try await newcomer.stop()
        try await server.stop()
    }

    @Test("R1: a purge where the histories part: the store's, and the lost changes come back with the purged todo gone; the replica's, and it refuses with the rescue by hand (a purged todo cannot be made again)")
    func wentBackAcrossPurges() async throws {
        // The store's change 5 is a purge; the writer's, an entry.
        let server = try await PostgresServer.start()
        let writer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for title in ["one", "two", "three", "four", "five"] {
            let added = try await writer.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        try await forgetChanges(after: 3, in: server)
        let newcomer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for arguments in [["rm", "1"], ["purge", "--yes"]] {
            let done = try await newcomer.todoctl(arguments)
            #expect(done.status == 0, "\(done.stderr)")
        }
        let added = try await writer.todoctl("add", "six")
        #expect(added.status == 0, "\(added.stderr)")
        try await awaitAlike([writer, newcomer], on: server)
        for daemon in [writer, newcomer] {
            let listed = try await titles(daemon)
            #expect(listed == ["two", "three", "four", "five", "six"], "\(listed)")
        }
        try await newcomer.stop()

        // A purge here after the point the store went back to: the todos it removed cannot be made
        // again, so the writer refuses, as before, with the rescue by hand.
        let backup = try await server.dump()
        let removed = try await writer.todoctl("rm", "2")
        #expect(removed.status == 0, "\(removed.stderr)")
        let purged = try await writer.todoctl("purge", "--yes")
        #expect(purged.status == 0, "\(purged.stderr)")
        try await server.restore(backup)
        let another = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for title in ["new seven", "new eight"] {
            let more = try await another.todoctl("add", title)
            #expect(more.status == 0, "\(more.stderr)")
        }
        let refused = try await writer.todoctl("add", "nine")
        #expect(refused.status != 0)
        // One line at each write; the story and the rescue once, in the status (outside probe 9, F2: 900 characters at every write).
        #expect(refused.stderr.contains("writes are refused: todoctl status (or todod's log) says why") && refused.stderr.count < 300,
                "\(refused.stderr)")
        let status = try await writer.todoctl("status")
        #expect(status.stdout.contains("this database purged todos since") && status.stdout.contains("todod --leave-store --database COPY")
                && status.stdout.contains("todoctl replay CHANGES"), "\(status.stdout)")
        try await writer.stop()
        try await another.stop()
        try await server.stop()
    }

    @Test("a healing rewind of a todo this replica took from the store (its entry has no before) makes it again as it was: the same number, the same history (kinds, authors, times), told to watching clients as the store's changes after the point it went back to, both replicas alike")
    func healedTodoTakenFromTheStore() async throws {
        let server = try await PostgresServer.start()
        let writer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let other = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let one = try await writer.todoctl("add", "one")
        #expect(one.status == 0, "\(one.stderr)")
        let backup = try await server.dump()
        // Made on the other daemon, taken by the writer from the store, then edited there: both lost by the store.
        let made = try await other.todoctl("add", "from the other")
        #expect(made.status == 0 && made.stdout.contains("#2"), "\(made.stdout)\(made.stderr)")
        try await awaitAlike([writer, other], on: server)
        let edited = try await writer.todoctl("edit", "2", "--priority", "high")
        #expect(edited.status == 0, "\(edited.stderr)")
        try await awaitAlike([writer, other], on: server)
        func history(_ daemon: DaemonProcess) async throws -> [String] {
            try await daemon.todoctl("history", "2", "--json").lines.map(jsonObject).map {
                "\($0["change"] ?? "") \($0["program"] ?? "") \($0["client"] ?? "") \($0["at"] ?? "") \($0.path("todo", "number") ?? "") \($0.path("todo", "title") ?? "") \($0.path("todo", "priority") ?? "")"
            }
        }
        let before = try await history(writer)
        #expect(before.count == 2, "\(before)")
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: writer.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: writer)

        // A third daemon writes past the point the store went back to before the two find out (held still
        // meanwhile): the writer's lost changes are rewound and made again on it.
        kill(writer.pid, SIGSTOP)
        kill(other.pid, SIGSTOP)
        try await server.restore(backup)
        let newcomer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let past = try await newcomer.todoctl("edit", "1", "--title", "one edited")
        kill(writer.pid, SIGCONT)
        #expect(past.status == 0, "\(past.stderr)")
        let after = try await writer.todoctl("add", "after")
        kill(other.pid, SIGCONT)
        #expect(after.status == 0, "\(after.stderr)")
        try await awaitAlike([writer, other, newcomer], on: server)
        // Watching clients are told the store's changes after the point it went back to, the todo made again under its number.
        _ = try await events.awaitLine(containing: "added #3 after")
        let told = events.output.split(separator: "\n").filter { $0.contains("from the other") }
        #expect(!told.isEmpty && told.allSatisfy { $0.contains("#2 from the other") }, "\(events.output)")
        for daemon in [writer, other, newcomer] {
            let healed = try await history(daemon)
            #expect(healed == before, "\(healed)\n\(before)\n\(daemon.log.suffix(1500))")
            let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout).map { "\($0["number"] ?? "") \($0["title"] ?? "")" }
            #expect(listed.sorted() == ["1 one edited", "2 from the other", "3 after"], "\(listed)")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        try await writer.stop()
        try await other.stop()
        try await newcomer.stop()
        try await server.stop()
    }

    @Test("Q7, R2: the store's database dropped and made again under a running daemon: its tables are said gone and writes kept on this machine, none made again empty; restored, they are shared and all goes on")
    func databaseMadeAgain() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for title in ["one", "two"] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let backup = try await server.dump()
        try await server.makeDatabaseAgain()
        let kept = try await daemon.todoctl("add", "three")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("saved on this machine"), "\(kept.stderr)")
        #expect(kept.stderr.contains("todod's tables are not in the database any more"), "\(kept.stderr)")
        #expect(!kept.stderr.contains("GRANT"), "\(kept.stderr)")
        let stored = try await server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        #expect(stored == "0")
        let listed = try await daemon.todoctl("list", "--json")
        #expect(try jsonArray(listed.stdout).count == 3, "\(listed.stdout)")
        // The restore a person makes meanwhile goes through (tables made again empty would have broken it), and so do writes, the kept one first.
        try await server.load(backup)
        let added = try await daemon.todoctl("add", "four")
        #expect(added.status == 0, "\(added.stderr)")
        let stored2 = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored2 == "one,two,three,four")
        try await daemon.stop()
        try await server.stop()
    }

    @Test("the store's database made again empty with no backup to restore: the status says how to fill it from a replica (todod --migrate-to with that replica's file, its daemon stopped), and that brings every daemon back, the kept writes shared, no change twice (outside probe 11, F8: nothing said how)")
    func databaseMadeAgainWithoutABackup() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        #expect(try await first.todoctl("add", "one").status == 0)
        #expect(try await second.todoctl("add", "two").status == 0)
        try await awaitAlike([first, second], on: server)
        try await server.makeDatabaseAgain()
        let kept = try await first.todoctl("add", "three")
        #expect(kept.status == 0 && kept.stderr.contains("saved on this machine"), "\(kept.stderr)")
        let status = try await first.todoctl("status")
        #expect(status.stdout.contains("todod --migrate-to"), "\(status.stdout)")
        _ = try await second.stop()
        let filled = try await run("todod", ["--migrate-to", server.uri, "--database", second.databasePath])
        #expect(filled.status == 0, "\(filled.stdout)\(filled.stderr)")
        let again = try await DaemonProcess.start(in: second.directory, arguments: ["--store", server.uri])
        #expect(try await first.todoctl("add", "four").status == 0)
        try await awaitAlike([first, again], on: server)
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) || ' ' || (SELECT count(*) FROM journal) FROM todo")
        #expect(stored == "one,two,three,four 4", "\(stored)")
        for daemon in [first, again] {
            let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }
            #expect(listed.sorted() == ["four", "one", "three", "two"], "\(listed)")
        }
        try await first.stop()
        try await again.stop()
        for daemon in [first, again] {
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        }
        try await server.stop()
    }

    @Test("the store's database made again empty and filled again by two replicas that both found it empty: every journal holds each change once, the store's too, and neither replica has a conflict (outside probe 11, F7: the second sent the first's changes again, made again on them: an undone change came back twice, a title changed twice was a conflict of 'this machine's')")
    func databaseMadeAgainFilledByTwo() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        // The store's tables as todod made them, no change yet: put back below, as a database made again empty.
        let empty = try await server.dump()
        for command in [["add", "Water the plants"], ["edit", "1", "--title", "Water the ferns"], ["edit", "1", "--title", "Water the palms"],
                        ["edit", "1", "--priority", "high"], ["undo"]] {
            let done = try await first.todoctl(command)
            #expect(done.status == 0, "\(command): \(done.stderr)")
        }
        #expect(try await second.todoctl("add", "Call the plumber").status == 0)
        try await awaitAlike([first, second], on: server)
        func journal(_ daemon: DaemonProcess) async throws -> [String] {
            try await daemon.todoctl("log", "--json").lines.map(jsonObject).map {
                "\($0["change"] ?? "") \($0["at"] ?? "") \($0.path("todo", "title") ?? "") \($0.path("todo", "priority") ?? "")"
            }
        }
        let before = try await journal(first)
        #expect(before.count == 6, "\(before)")

        // Both must find the store empty before either fills it: the first push's commit waits for a lock the test
        // holds (a trigger made with the tables, in one transaction) until the other has found it empty too.
        try await server.makeDatabaseAgain()
        let holder = try server.psqlInBackground("SELECT pg_advisory_lock(28); SELECT pg_sleep(600)")
        defer { holder.stopNow() }
        try await server.awaitValue("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted", "1")
        let trigger = """

            CREATE FUNCTION public.hold_first_push() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_advisory_xact_lock(28); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER hold_first_push AFTER INSERT ON public.journal DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION public.hold_first_push();

            """
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: empty))
        try file.seekToEnd()
        try file.write(contentsOf: Data(trigger.utf8))
        try file.close()
        try await server.load(empty)
        for daemon in [first, second] { try await daemon.awaitLog(containing: "does not hold this replica's last changes") }
        _ = try await server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()")
        for daemon in [first, second] { try await daemon.awaitLog(containing: "are shared") }
        try await awaitAlike([first, second], on: server)

        let stored = try await server.psql("SELECT count(*) FROM journal")
        #expect(stored == "6", "the store's journal holds \(stored) changes, not 6")
        for daemon in [first, second] {
            let again = try await journal(daemon)
            #expect(again == before, "\(again)\n\(before)\n\(daemon.log.suffix(2000))")
            let conflicts = try await daemon.todoctl("conflicts", "--all")
            #expect(conflicts.status == 0 && !conflicts.stdout.contains("#1"), "\(conflicts.stdout)")
            let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
            #expect((status["sharedStore"] as? [String: Any])?["conflicts"] == nil, "\(status)")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
            try await daemon.stop()
        }
        try await server.stop()
    }

    @Test("8 writers over two daemons while PostgreSQL stops and starts: every acknowledged write is there once, those made while it was away too, both replicas alike")
    func writesThroughARestart() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let writers = WriterStorm()
        let storm = Task { try await writers.run(8, over: [first, second]) }
        try await writers.await("40 acknowledged writes") { $0.acknowledged.count >= 40 }
        try await server.stopServer()
        let before = writers.tally.acknowledged.count
        try await writers.await("40 more acknowledged writes while it is away") { $0.acknowledged.count >= before + 40 }
        try await server.startServer()
        try await writers.await("40 more acknowledged writes", timeout: 60) { $0.acknowledged.count >= before + 40 }
        writers.stop()
        try await storm.value
        let tally = writers.tally
        #expect(tally.unexpected.isEmpty, "\(tally.unexpected)")

        // PostgreSQL holds each acknowledged write once, no refused one; an in-doubt one, either.
        let stored = try await server.psql("SELECT todo->>'title' FROM todo").split(separator: "\n").map(String.init)
        #expect(stored.count == Set(stored).count, "a write applied twice")
        #expect(tally.acknowledged.isSubset(of: Set(stored)))
        #expect(tally.refused.isDisjoint(with: Set(stored)))
        #expect(Set(stored).subtracting(tally.acknowledged).isSubset(of: tally.inDoubt))
        let total = stored.count
        let stored2 = try await server.psql("SELECT count(*) FROM journal")
        #expect(stored2 == "\(total)")
        // Both replicas catch up to the same todos, each number once.
        let last = try #require(UInt64(try await server.psql("SELECT value FROM counter WHERE name = 'change'")))
        for daemon in [first, second] {
            try await awaitSequence(last, on: daemon)
            let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
            let titles = listed.compactMap { $0["title"] as? String }
            let numbers = listed.compactMap { $0["number"] as? Int }
            #expect(Set(titles) == Set(stored))
            #expect(Set(numbers).count == total)
        }
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("issue 25: 200 writes kept on this machine while PostgreSQL is down log the outage once, not a line each, and their count once it is back")
    func refusedWritesAreCounted() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri, "--log-level", "info"])
        let client = try await TodoClient.connect(to: daemon.socketPath)
        try await server.stopServer()
        var answers: [String] = []
        for index in 0..<200 {
            do {
                let answer = try await client.request(.requestNewTodo(NewTodo(title: "kept \(index)")))
                answers.append("\(answer)")
            } catch {
                answers.append("refused: \(error)")
            }
        }
        #expect(answers.allSatisfy { $0.contains("unshared: Optional(") }, "\(answers.filter { !$0.contains("unshared: Optional(") }.prefix(3))")

        try await server.startServer()
        try await daemon.awaitLog(containing: "the shared store is reachable again")
        let lines = daemon.log.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.contains("the shared store is unreachable") }, "\(daemon.log.suffix(2000))")
        let end = try #require(lines.firstIndex { $0.contains("the shared store is reachable again") })
        let outage = lines[start...end]
        // The outage said once, what to do with it; the listener's reconnection attempts beside it, not a line per write.
        #expect(outage.count(where: { $0.contains("the shared store is unreachable") }) == 1, "\(outage.joined(separator: "\n"))")
        #expect(outage.first?.contains("todod reconnects by itself") == true, "\(outage.first ?? "")")
        #expect(outage.count < 20, "\(outage.count) lines logged during the outage:\n\(outage.prefix(30).joined(separator: "\n"))")
        #expect(outage.last?.contains("200 kept on this machine while it was unreachable") == true, "\(outage.last ?? "")")
        try await daemon.awaitLog(containing: "are shared")
        let stored = try await server.psql("SELECT count(*) FROM todo WHERE todo->>'title' LIKE 'kept %'")
        #expect(stored == "200")
        await client.close()
        let added = try await daemon.todoctl("add", "after")
        #expect(added.status == 0, "\(added.stderr)")
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a session holding the write lock: a write waits at most 10 s, is refused with PostgreSQL's reason, and goes through once the lock is free")
    func lockHeldElsewhere() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added2 = try await daemon.todoctl("add", "before")
        #expect(added2.status == 0, "\(added2.stderr)")
        let holder = try server.psqlInBackground("BEGIN; SELECT value FROM counter FOR UPDATE; SELECT pg_sleep(600); COMMIT")
        defer { holder.stopNow() }
        try await server.awaitValue(
            "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND wait_event = 'PgSleep'", "1")
        let refused = try await daemon.todoctl("add", "while locked")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("lock timeout"), "\(refused.stderr)")
        #expect(refused.stderr.contains("another daemon held the write lock"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was written"), "\(refused.stderr)")
        _ = try await server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()")
        let added = try await daemon.todoctl("add", "after")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("#2"))
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a frozen PostgreSQL (SIGSTOP): the heartbeat finds it out, writes are kept on this machine without waiting for it, and shared once it thaws")
    func frozenServer() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        let added2 = try await daemon.todoctl("add", "before")
        #expect(added2.status == 0, "\(added2.stderr)")
        let processes = try await server.processes()
        for pid in processes { kill(pid, SIGSTOP) }
        defer { for pid in processes { kill(pid, SIGCONT) } }
        let told = try await events.awaitLine(containing: "did not answer")
        #expect(told.contains("is unreachable since"), "\(told)")
        // The status gives the cause of the moment, not a closed connection (probe P11).
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        #expect(((status["sharedStore"] as? [String: Any])?["problem"] as? String)?.contains("did not answer") == true, "\(status)")
        // Once found silent, a write does not wait for it again: no write tries the writer's
        // connection (15 s each; outside probe P7-16), each is kept on this machine with the heartbeat's word.
        for title in ["while frozen", "frozen 2", "frozen 3"] {
            let kept = try await daemon.todoctl("add", title)
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stderr.contains("saved on this machine") && kept.stderr.contains("did not answer within 5 s"), "\(kept.stderr)")
        }
        #expect(!daemon.log.contains("within 15 s"), "\(daemon.log.suffix(2000))")
        for pid in processes { kill(pid, SIGCONT) }
        _ = try await events.awaitLine(containing: "is reachable again")
        let added = try await daemon.todoctl("add", "after")
        #expect(added.status == 0, "\(added.stderr)")
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored == "before,while frozen,frozen 2,frozen 3,after")
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a write sent as PostgreSQL froze waits out its statement's 15 s and is kept on this machine, saying it waited 15 s: it said the heartbeat's 5 s (outside probe 11, F13)")
    func firstWriteIntoAFrozenServerSaysItsWait() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let before = try await daemon.todoctl("add", "before")
        #expect(before.status == 0, "\(before.stderr)")
        let processes = try await server.processes()
        for pid in processes { kill(pid, SIGSTOP) }
        defer { for pid in processes { kill(pid, SIGCONT) } }
        let kept = try await daemon.todoctl("add", "as it froze")
        #expect(kept.status == 0 && kept.stderr.contains("saved on this machine"), "\(kept.stderr)")
        #expect(kept.stderr.contains("did not answer within 15 s") && !kept.stderr.contains("within 5 s"), "\(kept.stderr)")
        for pid in processes { kill(pid, SIGCONT) }
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a new replica on a disk too small for the store's todos: todod does not start and says so, which file, that the disk is full and what to do (it died with SQLite's bare error)")
    func newReplicaOnASmallDisk() async throws {
        let server = try await PostgresServer.start()
        let writer = try await DaemonProcess.start(arguments: ["--store", server.uri, "--log-level", "warning"])
        // About 2.5 MB of todos in the store: 40 of 60 KiB of notes.
        let notes = String(repeating: "a long note that needs its own pages. ", count: 1_600)
        for index in 1...40 {
            let added = try await writer.todoctl("add", "big \(index)", "--notes", notes)
            try #require(added.status == 0, "\(added.stderr)")
        }
        let directory = try makeTemporaryDirectory()
        let mounted = try await run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", directory])
        try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.stderr)")
        defer { _ = umount2(directory, Int32(MNT_DETACH)) }
        let started = try await run(binaryDirectory + "/todod", [
            "--socket", directory + "/todod.sock", "--database", directory + "/todos.sqlite", "--store", server.uri, "--log-level", "warning",
        ])
        #expect(started.status != 0)
        #expect(started.stderr.contains("could not take the shared store's changes, so todod did not start"), "\(started.stderr)")
        #expect(started.stderr.contains("\(directory) is full") && started.stderr.contains("free some space"), "\(started.stderr)")
        try await writer.stop()
        try await server.stop()
    }

    @Test("a change PostgreSQL took but this machine's full disk kept from the replica: the client is told so, and the replica takes it once there is room")
    func replicaDiskFull() async throws {
        let server = try await PostgresServer.start()
        let directory = try makeTemporaryDirectory()
        // A small file system of its own, filled up, for the replica (PostgreSQL's disk has room).
        let mounted = try await run("/bin/mount", ["-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", directory])
        try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.stderr)")
        defer { _ = umount2(directory, Int32(MNT_DETACH)) }
        let daemon = try await DaemonProcess.start(in: directory, arguments: ["--store", server.uri, "--log-level", "warning"])
        let added2 = try await daemon.todoctl("add", "small")
        #expect(added2.status == 0, "\(added2.stderr)")
        _ = try await run("/bin/dd", ["if=/dev/zero", "of=\(directory)/filler", "bs=4096"])
        let notes = String(repeating: "a long note that needs new pages. ", count: 1_800)
        let added = try await daemon.todoctl("add", "large", "--notes", notes)
        #expect(added.status != 0)
        #expect(added.stderr.contains("the shared store committed this change, but this machine's database could not"), "\(added.stderr)")
        let stored = try await server.psql("SELECT count(*) FROM todo WHERE todo->>'title' = 'large'")
        #expect(stored == "1")
        // The next write, while the disk is still full, is told in the same words, not as SQLite's
        // raw error (outside probe 11, F3: "SQLite error 13: database or disk is full - while executing …").
        let next = try await daemon.todoctl("add", "next")
        #expect(next.status != 0 && next.stderr.contains("is full") && next.stderr.contains("free some space"), "\(next.stderr)")
        #expect(!next.stderr.contains("while executing"), "\(next.stderr)")
        try FileManager.default.removeItem(atPath: directory + "/filler")
        // The heartbeat (every 5 s) finds the store ahead, and the replica catches up.
        try await awaitSequence(2, on: daemon)
        let titles = try jsonArray(try await daemon.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["small", "large"])
        try await daemon.stop()
        try await server.stop()
    }
}
