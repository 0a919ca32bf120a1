import Foundation
import TestHarness
import Testing

/// Setting a shared store up, and the mistakes a person makes doing it: a password file,
/// a password changed, another program's database, a URI that leads nowhere. Each was found
/// by an outside probe (its label in the test's name).
@Suite("Setting up a shared store", .serialized)
struct PostgresSetupTests {
    /// todod with `arguments`, run to its end: a start that is refused exits 1 at once.
    private func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        let directory = try makeTemporaryDirectory()
        return try await run("todod", ["--socket", directory + "/todod.sock", "--database", directory + "/todos.sqlite"] + arguments,
                             environment: environment)
    }

    @Test("P6, P7: ~/.pgpass is read at each connection: one others may read is passed over, saying so; a password changed in it is taken without a restart")
    func passwordFile() async throws {
        let postgres = try await PostgresTLSServer.start(tls: false)
        let home = postgres.home
        let pgpass = home + "/.pgpass"
        let store = postgres.uri(host: "127.0.0.1")
        try "127.0.0.1:\(postgres.port):todos:postgres:\(PostgresTLSServer.password)\n".write(toFile: pgpass, atomically: true, encoding: .utf8)
        chmod(pgpass, 0o644)
        let open = try await start(["--store", store], environment: ["HOME": home])
        #expect(open.status == 1)
        #expect(open.stderr.contains("\(pgpass) is not used: others may read it (mode 644)"), "\(open.stderr)")
        #expect(open.stderr.contains("put the password in ~/.pgpass"), "\(open.stderr)")

        chmod(pgpass, 0o600)
        let daemon = try await DaemonProcess.start(arguments: ["--store", store], environment: ["HOME": home])
        let added = try await daemon.todoctl("add", "before")
        #expect(added.status == 0, "\(added.stderr)")
        _ = try await postgres.server.psql("ALTER ROLE postgres PASSWORD 'a new one'")
        try "127.0.0.1:\(postgres.port):todos:postgres:a new one\n".write(toFile: pgpass, atomically: true, encoding: .utf8)
        chmod(pgpass, 0o600)
        _ = try await postgres.server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'todod'")
        let after = try await daemon.todoctl("add", "after")
        #expect(after.status == 0, "\(after.stderr)")
        try await daemon.stop()
        try await postgres.stop()
    }

    @Test("P4: a replica started without --store is refused, naming its store; --leave-store makes it a database of its own, on purpose; changed alone, it joins the store again")
    func replicaAlone() async throws {
        let server = try await PostgresServer.start()
        let shared = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await shared.todoctl("add", "shared")
        #expect(added.status == 0, "\(added.stderr)")
        let high = try await shared.todoctl("edit", "1", "--priority", "high")
        #expect(high.status == 0, "\(high.stderr)")
        try await shared.stop()
        let alone = try await run("todod", ["--socket", shared.socketPath, "--database", shared.databasePath])
        #expect(alone.status == 1)
        #expect(alone.stderr.contains("is the replica of the shared store postgresql://postgres@/todos?host=\(server.directory)"), "\(alone.stderr)")
        #expect(alone.stderr.contains("start todod with --store"))
        #expect(alone.stderr.contains("todod --leave-store --database \(shared.databasePath)"))

        // An option the run would pass over is refused, not ignored (probe Q9).
        let both = try await run("todod", ["--leave-store", "--database", shared.databasePath, "--store", server.uri])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--leave-store works on the database file alone and would pass over --store"), "\(both.stderr)")
        let left = try await run("todod", ["--leave-store", "--database", shared.databasePath])
        #expect(left.status == 0, "\(left.stderr)")
        #expect(left.stdout.contains("is no longer the replica of postgresql://postgres@/todos"))
        #expect(left.stdout.contains("started with --store again, it joins that store"), "\(left.stdout)")
        let own = try await DaemonProcess.start(in: shared.directory)
        let added2 = try await own.todoctl("add", "alone")
        #expect(added2.stdout.contains("#2"), "\(added2.stdout)")
        try await own.stop()
        // Meanwhile the store's #1 is changed again through another daemon.
        let member = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let low = try await member.todoctl("edit", "1", "--priority", "low")
        #expect(low.status == 0, "\(low.stderr)")
        try await member.stop()
        // Changed alone, it joins the store it left again: what the store holds already is not made twice.
        let back = try await DaemonProcess.start(in: shared.directory, arguments: ["--store", server.uri])
        #expect(back.log.contains("joins the shared store"), "\(back.log.suffix(1500))")
        let stored = try await server.psql("SELECT string_agg(number || ' ' || (todo->>'title') || ' ' || (todo->>'priority'), ',' ORDER BY number) FROM todo")
        #expect(stored == "1 shared low,2 alone normal", "\(stored)")
        // Its history up to the leave is the store's: the priority it gave #1 then is no conflict of the rejoin (outside probe 9, F3).
        let conflicts = try await back.todoctl("conflicts")
        #expect(conflicts.stdout == "no open conflicts\n", "\(conflicts.stdout)")
        try await back.stop()
        try await server.stop()
    }

    @Test("O9: --leave-store with changes made while the store was away refuses, saying how many and that they would never be shared; --keep-unshared leaves, keeping them here, and says they are shared if it joins the store again, as they are (outside probe 11, F13: it said they stayed in this database only)")
    func leavingWithUnsharedChanges() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await daemon.todoctl("add", "shared")
        #expect(added.status == 0, "\(added.stderr)")
        try await server.stopServer()
        for title in ["kept one", "kept two"] {
            let away = try await daemon.todoctl("add", title)
            #expect(away.stderr.contains("saved on this machine"), "\(away.stderr)")
        }
        try await daemon.stop()

        let refused = try await run("todod", ["--leave-store", "--database", daemon.databasePath])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("2 changes made here while postgresql://postgres@/todos"), "\(refused.stderr)")
        #expect(refused.stderr.contains("reach the other machines only if it joins the store again"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--keep-unshared"), "\(refused.stderr)")
        let lone = try await run("todod", ["--keep-unshared", "--database", daemon.databasePath])
        #expect(lone.status != 0)
        #expect(lone.stderr.contains("--keep-unshared goes with --leave-store"), "\(lone.stderr)")
        // Refused, it is still the store's replica.
        let still = try await run("todod", ["--socket", daemon.socketPath, "--database", daemon.databasePath])
        #expect(still.status == 1)
        #expect(still.stderr.contains("is the replica of the shared store"), "\(still.stderr)")

        let left = try await run("todod", ["--leave-store", "--keep-unshared", "--database", daemon.databasePath])
        #expect(left.status == 0, "\(left.stderr)")
        #expect(left.stdout.contains("""
            2 changes made here while the store was away, not shared, stay in this database: they reach the other machines only if \
            it joins the store again (todod --store)
            """), "\(left.stdout)")
        let own = try await DaemonProcess.start(in: daemon.directory)
        let listed = try await own.todoctl("list")
        #expect(listed.stdout.contains("kept one") && listed.stdout.contains("kept two"), "\(listed.stdout)")
        try await own.stop()
        // As said: joining the store again shares them.
        try await server.startServer()
        let joined = try await DaemonProcess.start(in: daemon.directory, arguments: ["--store", server.uri])
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored == "shared,kept one,kept two", "\(stored)")
        try await joined.stop()
        try await server.stop()
    }

    @Test("P9: a database of another program with a todo table is refused at start, and nothing is created in it")
    func anotherProgramsTables() async throws {
        let server = try await PostgresServer.start()
        _ = try await server.psql("CREATE TABLE todo (id serial PRIMARY KEY, text varchar NOT NULL, done boolean DEFAULT false)")
        let refused = try await start(["--store", server.uri])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("has a table todo that is not todod's (its columns: done, id, text)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("give todod a database of its own"))
        let stored = try await server.psql("SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'")
        #expect(stored == "todo")
        try await server.stop()
    }

    @Test("P8, P10: a URI todod cannot use, or a socket directory without PostgreSQL, is said every time, in words")
    func refusalsAreSaid() async throws {
        for _ in 0..<5 {
            let bad = try await start(["--store", "postgresql://alice@db/todos?foo=bar"])
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("todod does not know the parameter foo"), "the refusal was not printed: \(bad.stderr)")
        }
        let empty = try await start(["--store", ""])
        #expect(empty.stderr.contains("the store URI is empty"), "\(empty.stderr)")
        // No server there: todod starts on its replica, and the status and a write say why.
        let nowhere = try makeTemporaryDirectory()
        let daemon = try await DaemonProcess.start(arguments: ["--store", "postgresql://postgres@/todos?host=\(nowhere)"])
        let refused = try await daemon.todoctl("add", "x")
        #expect(refused.stderr.contains("there is no PostgreSQL socket there: is PostgreSQL running, and is host= its socket directory?"),
                "\(refused.stderr)")
        #expect(!refused.stderr.contains("descriptor"), "an API's name in the message: \(refused.stderr)")
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        #expect(((status["sharedStore"] as? [String: Any])?["problem"] as? String)?.hasPrefix("there is no PostgreSQL socket there") == true)
        try await daemon.stop()
        // A host name no resolver knows (Q9): said in words, without NIO's type names.
        let unknown = try await DaemonProcess.start(arguments: ["--store", "postgresql://postgres@no-such-host.invalid/todos"])
        let unresolved = try await unknown.todoctl("add", "x")
        #expect(unresolved.stderr.contains("the host name no-such-host.invalid cannot be resolved: check its spelling"), "\(unresolved.stderr)")
        #expect(!unresolved.stderr.contains("SocketAddressError"), "\(unresolved.stderr)")
        try await unknown.stop()
    }

    @Test(
        "Q8: a socket directory this user may not enter, or a host= that is a file, stops todod at start with what to fix: no outage to wait out",
        .enabled(if: getuid() == 0, "needs root to act as another user"))
    func unreachableSocketRefused() async throws {
        let server = try await PostgresServer.start()
        let home = try makeTemporaryDirectory()
        chown(home, 65534, 65534)
        // The server's directory is its user's alone (0700): nobody may not pass through it.
        let denied = try await run("/usr/bin/setpriv", [
            "--reuid=65534", "--regid=65534", "--clear-groups", binaryDirectory + "/todod",
            "--socket", home + "/todod.sock", "--database", home + "/todos.sqlite", "--store", server.uri,
        ])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("this user may not reach PostgreSQL's socket there (permission denied)"), "\(denied.stderr)")
        let file = home + "/not-a-directory"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let notDirectory = try await start(["--store", "postgresql://postgres@/todos?host=\(file)"])
        #expect(notDirectory.status == 1)
        #expect(notDirectory.stderr.contains("host= names a file, not a directory"), "\(notDirectory.stderr)")
        try await server.stop()
    }

    @Test("P12: a database migrated into the empty store a daemon already uses reaches that daemon at once")
    func migrationAnnounced() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let alone = try await DaemonProcess.start()
        for title in ["one", "two", "three"] { _ = try await alone.todoctl("add", title) }
        try await alone.stop()
        let migrated = try await run("todod", ["--migrate-to", server.uri, "--database", alone.databasePath])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        try await awaitSequence(3, on: daemon)
        let titles = try jsonArray(try await daemon.todoctl("list", "--json").stdout).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["one", "two", "three"])
        try await daemon.stop()
        try await server.stop()
    }

    @Test("P5: an import stopped by the store part way says how many todos went in, and running it again imports the rest")
    func importStoppedPartWay() async throws {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        // The store refuses the todo named "poison", as it would refuse any write it cannot take.
        _ = try await server.psql("""
            CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.entry->'after'->>'title' = 'poison' THEN RAISE EXCEPTION 'poison refused'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER refuse_poison BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION refuse_poison();
            """)
        let lines = (1...100).map { "todo \($0)" } + ["poison"] + (1...20).map { "later \($0)" }
        let file = daemon.directory + "/todo.txt"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let first = try await daemon.todoctl("import", "--from", "todotxt", file)
        #expect(first.status != 0)
        #expect(first.stderr.contains("64 of the 121 todos were imported; the next batch failed (below: \"nothing\" is that batch), and it and the rest were not: run the same import again"),
                "\(first.stderr)")
        let stored = try await server.psql("SELECT count(*) FROM todo")
        #expect(stored == "64")
        _ = try await server.psql("DROP TRIGGER refuse_poison ON journal")
        let again = try await daemon.todoctl("import", "--from", "todotxt", file)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("57 created, 0 updated, 64 unchanged"), "\(again.stdout)")
        try await daemon.stop()
        try await server.stop()
    }
}
