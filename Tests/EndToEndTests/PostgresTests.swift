import Foundation
import TestHarness
import Testing
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// Two daemons, each on its own socket with its own SQLite replica, sharing one real
/// PostgreSQL (`todod --store`). Each stop also runs `todod --check` on the replica.
@Suite("PostgreSQL as a shared store", .serialized)
struct PostgresTests {
    /// Two daemons on `server`, started one after the other.
    private func pair(on server: PostgresServer) async throws -> (DaemonProcess, DaemonProcess) {
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(environment: ["TODOD_STORE": server.uri])
        return (first, second)
    }

    @Test("an add through one daemon appears in todoctl events of the other, and in its list")
    func addPropagates() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: second.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: second)
        let added = try await first.todoctl("add", "Buy milk")
        #expect(added.status == 0, "\(added.stderr)")
        let line = try await events.awaitLine(containing: "Buy milk")
        #expect(line.hasPrefix("1 "), "the change keeps its sequence number: \(line)")
        #expect(line.contains("#1"))
        // The second daemon's own next todo follows the first's number.
        let added2 = try await second.todoctl("add", "Bake bread")
        #expect(added2.status == 0, "\(added2.stderr)")
        let listed = try jsonArray(try await first.todoctl("list", "--json").stdout)
        #expect(Set(listed.compactMap { $0["number"] as? Int }) == [1, 2])
        let stored = try await server.psql("SELECT value FROM counter WHERE name = 'change'")
        #expect(stored == "2")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("a replica that only takes the other daemon's changes folds them into its database file once idle, as a writing one does: its -wal is emptied (outside probe 11, F13: it grew until a write of its own)")
    func receivingReplicaIsCheckpointed() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        let notes = String(repeating: "taken from the other daemon ", count: 200)
        for index in 1...20 {
            #expect(try await first.todoctl("add", "Written elsewhere \(index)", "--notes", notes).status == 0)
        }
        try await awaitAlike([first, second], on: server)
        // The idle checkpoint comes 5 s after the last change: asked until then, for 30 s at most.
        let wal = second.databasePath + "-wal"
        let deadline = Date().addingTimeInterval(30)
        var size = -1
        while Date() < deadline {
            size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            if size == 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(size == 0, "the receiving replica's -wal holds \(size) bytes")
        let file = try FileManager.default.attributesOfItem(atPath: second.databasePath)[.size] as? Int ?? 0
        #expect(file > 20 * notes.utf8.count, "its database file holds \(file) bytes")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("concurrent edits of the same field through both daemons at one revision: one succeeds, one is a conflict")
    func conflictAcrossDaemons() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        let added = try await first.todoctl("add", "Call plumber")
        #expect(added.status == 0, "\(added.stderr)")
        let a = try await TodoClient.connect(to: first.socketPath)
        let b = try await TodoClient.connect(to: second.socketPath)
        // Both read revision 1 (the second daemon once it has caught up).
        for client in [a, b] {
            var revision: Int?
            for _ in 0..<200 where revision == nil {
                if case .success(.responseTodoDetail(let detail)) = await answer(client, .requestTodoDetail(.number(1))) { revision = detail.revision }
            }
            #expect(revision == 1)
        }
        async let fromA = outcome(a, title: "Call Alice")
        async let fromB = outcome(b, title: "Call Bob")
        let outcomes = await [fromA, fromB]
        #expect(outcomes.filter { $0 == "written" }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0 == "conflict" }.count == 1, "\(outcomes)")
        await a.close()
        await b.close()
        let shown = try jsonObject(try await second.todoctl("show", "1", "--json").stdout)
        #expect(shown["revision"] as? Int == 2)
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    /// "written", "conflict", or what else the edit at revision 1 was answered.
    private func outcome(_ client: TodoClient, title: String) async -> String {
        switch await answer(client, .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), revision: 1, edit: TodoEdit(title: title)))) {
        case .success: return "written"
        case .failure(.refused(let error)) where error.code == .conflict: return "conflict"
        case .failure(let error): return "\(error)"
        }
    }

    /// The daemon's answer to `request`, or why there is none, as a value.
    private func answer(_ client: TodoClient, _ request: Event) async -> Result<Event, TodoClientError> {
        do {
            return .success(try await client.request(request))
        } catch {
            return .failure(error)
        }
    }

    @Test("8 writers spread over both daemons for 10 s: numbers and sequence numbers unique and consecutive, both replicas alike")
    func manyWriters() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        let writers = WriterStorm()
        let storm = Task { try await writers.run(8, over: [first, second]) }
        // The issue's load: 8 writers for 10 s (a duration, not a wait for something).
        try await Task.sleep(for: .seconds(10))
        writers.stop()
        try await storm.value
        let tally = writers.tally
        #expect(tally.unexpected.isEmpty && tally.refused.isEmpty && tally.inDoubt.isEmpty, "\(tally)")
        let total = tally.acknowledged.count
        #expect(total > 100, "only \(total) writes in 10 s")
        let stored = try await server.psql("SELECT count(*), min(seq), max(seq) FROM journal")
        #expect(stored == "\(total)|1|\(total)")
        let stored2 = try await server.psql("SELECT count(*), min(number), max(number) FROM todo")
        #expect(stored2 == "\(total)|1|\(total)")
        var replicas: [String] = []
        for daemon in [first, second] {
            // The other daemon's last changes may still be on their way.
            try await awaitSequence(UInt64(total), on: daemon)
            try await daemon.stop()
            let sqliteOutput = try await sqlite(daemon, "SELECT count(*), min(seq), max(seq) FROM journal")
            #expect(sqliteOutput == "\(total)|1|\(total)")
            replicas.append(try await sqlite(daemon, "SELECT id, number, title, revision FROM todo ORDER BY number"))
        }
        #expect(replicas[0] == replicas[1])
        #expect(replicas[0].split(separator: "\n").count == total)
        try await server.stop()
    }

    @Test("a new replica of a long history, and one that waited for PostgreSQL to come back, catch up page by page (over 1,000 changes, over 1 MiB) to the same todos; the new one's are in its database file, not only its -wal, once it serves")
    func catchUpInPages() async throws {
        let server = try await PostgresServer.start()
        let writer = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let file = writer.directory + "/todo.txt"
        try (1...1_200).map { "todo \($0)" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await writer.todoctl("import", "--from", "todotxt", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        let notes = String(repeating: "sixty thousand bytes of notes. ", count: 1_950)
        for index in 1...30 {
            let added = try await writer.todoctl("add", "long \(index)", "--notes", notes)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let stored = try await server.psql("SELECT count(*), sum(octet_length(entry::text)) > 1048576 FROM journal")
        #expect(stored == "1230|t")
        try await writer.stop()

        // PostgreSQL's log shows each read of the journal: the new replica's are pages.
        _ = try await server.psql("ALTER SYSTEM SET log_statement = 'all'")
        _ = try await server.psql("SELECT pg_reload_conf()")
        let fresh = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let reads = try String(contentsOfFile: server.directory + "/server.log", encoding: .utf8).components(separatedBy: "WITH first AS").count - 1
        #expect(reads >= 3, "the new replica read the journal in \(reads) statements")
        // Its fill is in the database file itself once it serves, not only in the -wal (outside probe 11, F4: 4 KiB).
        let size = try FileManager.default.attributesOfItem(atPath: fresh.databasePath)[.size] as? Int ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: fresh.databasePath + "-wal")[.size] as? Int) ?? 0
        #expect(size > 1 << 20 && wal == 0, "the new replica's database file holds \(size) bytes, its -wal \(wal)")
        try await server.stopServer()
        let waiting = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let listed = try await waiting.todoctl("list", "--json")
        #expect(try jsonArray(listed.stdout).isEmpty, "\(listed.stdout)")
        try await server.startServer()
        try await awaitSequence(1_230, on: waiting, timeout: 60)
        for daemon in [fresh, waiting] {
            let todos = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
            #expect(todos.count == 1_230)
            #expect(todos.filter { ($0["notes"] as? String) == notes }.count == 30)
            try await daemon.stop()
        }
        try await server.stop()
    }

    @Test("a purge through one daemon removes the todos from PostgreSQL, from the other replica and from a new one; numbers are not reused")
    func purgePropagates() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        for title in ["keep", "drop one", "drop two"] {
            let added = try await first.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let removed = try await first.todoctl("rm", "2", "3")
        #expect(removed.status == 0, "\(removed.stderr)")
        try await awaitSequence(5, on: second)
        let purged = try await first.todoctl("purge", "--yes")
        #expect(purged.stdout.contains("purged for good: #2 #3"), "\(purged.stdout) \(purged.stderr)")
        let stored = try await server.psql("SELECT count(*) FROM journal WHERE number IN (2, 3)")
        #expect(stored == "0")
        let stored2 = try await server.psql("SELECT number FROM todo")
        #expect(stored2 == "1")
        let stored3 = try await server.psql("SELECT seq, numbers FROM purge")
        #expect(stored3 == "6|{2,3}")
        try await awaitSequence(6, on: second)
        let numbers = try jsonArray(try await second.todoctl("list", "--all", "--json").stdout).compactMap { $0["number"] as? Int }
        #expect(numbers == [1])
        let history2 = try await second.todoctl("history", "2")
        #expect(history2.status != 0, "\(history2.stderr)")
        let added = try await second.todoctl("add", "after")
        #expect(added.stdout.contains("#4"))
        let fresh = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let freshNumbers = try jsonArray(try await fresh.todoctl("list", "--all", "--json").stdout).compactMap { $0["number"] as? Int }
        #expect(freshNumbers.sorted() == [1, 4])
        try await fresh.stop()
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    /// One query's rows in a stopped daemon's replica, as the sqlite3 shell prints them.
    private func sqlite(_ daemon: DaemonProcess, _ sql: String) async throws -> String {
        try await run("/usr/bin/sqlite3", [daemon.databasePath, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("--migrate-to refuses another store's replica, naming --leave-store (it took it, unshared changes and all, without a word); after leaving, it copies")
    func migrateRefusesAnotherStoresReplica() async throws {
        let server = try await PostgresServer.start()
        let replica = try await DaemonProcess.start(arguments: ["--store", server.uri])
        _ = try await replica.todoctl("add", "kept")
        try await replica.stop()
        _ = try await server.psql("CREATE DATABASE other")
        let other = server.uri.replacingOccurrences(of: "/\(server.database)?", with: "/other?")
        let refused = try await run("todod", ["--migrate-to", other, "--database", replica.databasePath])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is the replica of the shared store") && refused.stderr.contains("todod --leave-store --database \(replica.databasePath)"),
                "\(refused.stderr)")
        #expect(try await server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: "other") == "0")
        let left = try await run("todod", ["--leave-store", "--database", replica.databasePath])
        #expect(left.status == 0, "\(left.stderr)")
        let migrated = try await run("todod", ["--migrate-to", other, "--database", replica.databasePath])
        #expect(migrated.status == 0 && migrated.stdout.contains("1 todo and 1 change copied"), "\(migrated.stdout)\(migrated.stderr)")
        try await server.stop()
    }

    @Test("--migrate-to copies a database into an empty PostgreSQL, refuses a non-empty one; a new replica rebuilds it and checks")
    func migrateRoundTrip() async throws {
        let server = try await PostgresServer.start()
        let alone = try await DaemonProcess.start()
        for title in ["one", "two", "three"] { _ = try await alone.todoctl("add", title) }
        _ = try await alone.todoctl("done", "2")
        _ = try await alone.todoctl("edit", "3", "--title", "three, renamed", "--tag", "home")
        let before = try await alone.todoctl("list", "--all", "--json").stdout
        // Not while a daemon writes to the file: what it wrote after the copy would stay behind.
        let beside = try await run("todod", ["--migrate-to", server.uri, "--database", alone.databasePath])
        #expect(beside.status == 1)
        #expect(beside.stderr.contains("a todod (pid \(alone.pid)"), "\(beside.stderr)")
        #expect(beside.stderr.contains("nothing was done: stop it first"))
        let stored = try await server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        #expect(stored == "0")
        try await alone.stop()

        let migrated = try await run("todod", ["--migrate-to", server.uri, "--database", alone.databasePath])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("3 todos and 5 changes copied"))
        let again = try await run("todod", ["--migrate-to", server.uri, "--database", alone.databasePath])
        #expect(again.status == 1)
        #expect(again.stderr.contains("is not empty"))
        #expect(again.stderr.contains("nothing was copied"))
        // The file copied is a replica of the store now: not to be used alone by mistake.
        let aloneAgain = try await run("todod", ["--socket", alone.socketPath, "--database", alone.databasePath])
        #expect(aloneAgain.status == 1)
        #expect(aloneAgain.stderr.contains("is the replica of the shared store"), "\(aloneAgain.stderr)")

        // A new replica, filled from PostgreSQL alone.
        let replica = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let listed = try await replica.todoctl("list", "--all", "--json")
        #expect(listed.stdout == before)
        let added = try await replica.todoctl("add", "four")
        #expect(added.stdout.contains("#4"))
        try await replica.stop()
        let check = try await replica.check()
        #expect(check.status == 0)
        #expect(check.stdout.contains("4 todos, 6 changes: the journal rebuilds the table exactly"), "\(check.stdout)")
        try await server.stop()
    }

    @Test("PostgreSQL stopped: writes kept on this machine and said so, reads answered; started again: they are shared, writes go on, the other daemon catches up")
    func postgresAway() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: second.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: second)
        let added2 = try await first.todoctl("add", "before")
        #expect(added2.status == 0, "\(added2.stderr)")
        _ = try await events.awaitLine(containing: "before")

        try await server.stopServer()
        let kept = try await first.todoctl("add", "while away")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("saved on this machine; shared when the store is back"), "\(kept.stderr)")
        let listed = try await first.todoctl("list")
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("before") && listed.stdout.contains("while away"))

        try await server.startServer()
        let added = try await first.todoctl("add", "after")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("#3"), "\(added.stdout)")
        // The second daemon's listener reconnects by itself and catches up, the change made while away first.
        let line = try await events.awaitLine(containing: "after")
        #expect(line.hasPrefix("3 "), "\(line)")
        let stored = try await server.psql("SELECT string_agg(seq || ' ' || (entry->'after'->>'title'), ',' ORDER BY seq) FROM journal")
        #expect(stored == "1 before,2 while away,3 after")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("kill -9 of one daemon while the other goes on: started again, its replica catches up from PostgreSQL")
    func killedDaemonCatchesUp() async throws {
        let server = try await PostgresServer.start()
        let (first, second) = try await pair(on: server)
        let added = try await first.todoctl("add", "one")
        #expect(added.status == 0, "\(added.stderr)")
        kill(first.pid, SIGKILL)
        _ = try await first.waitForExit()
        for title in ["two", "three"] {
            let added = try await second.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let again = try await DaemonProcess.start(in: first.directory, arguments: ["--store", server.uri])
        let numbers = try jsonArray(try await again.todoctl("list", "--json").stdout).compactMap { $0["number"] as? Int }
        #expect(numbers.sorted() == [1, 2, 3])
        let added2 = try await again.todoctl("add", "four")
        #expect(added2.stdout.contains("#4"))
        try await again.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("a role that may not make or use the tables, or a read-only database, is refused at start with PostgreSQL's reason and what to grant; nothing crashes")
    func tablesRefused() async throws {
        let server = try await PostgresServer.start()
        _ = try await server.psql("CREATE ROLE bob LOGIN")
        let directory = try makeTemporaryDirectory()
        let bob = server.uri.replacingOccurrences(of: "postgres@", with: "bob@")
        let refused = try await run("todod", ["--socket", directory + "/a.sock", "--database", directory + "/a.sqlite", "--store", bob])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("permission denied for schema public"), "\(refused.stderr)")
        #expect(refused.stderr.contains("every todod must connect as a role that may create and write todod's tables"))
        #expect(!refused.stderr.contains("Assertion failed"))

        _ = try await server.psql("ALTER DATABASE todos SET default_transaction_read_only = on")
        let readOnly = try await run("todod", ["--socket", directory + "/b.sock", "--database", directory + "/b.sqlite", "--store", server.uri])
        #expect(readOnly.status == 1, "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("read-only transaction"), "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("not a standby"))
        try await server.stop()
    }

    @Test("a database with a history of its own joins the store it is started with: beside the store's todos, renumbered; into an empty store, as it is; left unchanged when the store is another's replica")
    func foreignDatabaseJoins() async throws {
        let (server, alone) = try await storeBesideAForeignDatabase()
        let copy = try makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: alone.databasePath, toPath: copy + "/todos.sqlite")
        let beside = try await DaemonProcess.start(in: alone.directory, arguments: ["--store", server.uri])
        #expect(beside.log.contains("used alone until now, joins the shared store"), "\(beside.log.suffix(1500))")
        let stored = try await server.psql("SELECT string_agg(number || ' ' || (todo->>'title'), ',' ORDER BY number) FROM todo")
        #expect(stored == "1 a,2 b,3 c,4 x,5 y", "\(stored)")
        try await beside.stop()

        let empty = try await PostgresServer.start()
        let into = try await DaemonProcess.start(in: copy, arguments: ["--store", empty.uri])
        let moved = try await empty.psql("SELECT string_agg(number || ' ' || (todo->>'title'), ',' ORDER BY number) FROM todo")
        #expect(moved == "1 x,2 y", "\(moved)")
        try await into.stop()
        // Now the empty store's replica, it is refused by the first store, and left as it was.
        let other = try await run("todod", ["--socket", copy + "/other.sock", "--database", copy + "/todos.sqlite", "--store", server.uri])
        #expect(other.status == 1)
        #expect(other.stderr.contains("is the replica of the shared store postgresql://postgres@/todos?host=\(empty.directory), not of") && !other.stderr.contains("older backup"), "\(other.stderr)")
        try await empty.stop()
        try await server.stop()
    }
}
