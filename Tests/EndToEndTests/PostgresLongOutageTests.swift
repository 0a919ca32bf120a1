import Foundation
import TestHarness
import Testing

/// A long outage (issue 28): a replica that kept 10,000 changes while PostgreSQL was away. Its
/// name starts with Postgres so that `make test` runs it in the PostgreSQL phase, not beside the
/// many daemons of the first.
@Suite("PostgreSQL away for long", .serialized)
struct PostgresLongOutageTests {
    @Test("a replica offline for 10,000 changes shares them all once the store is back, after the 100 another daemon kept meanwhile, a page at a time while the other writes on: each change once, numbers unique, both replicas alike and checked")
    func tenThousandKeptChanges() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let before = try await first.todoctl("add", "before")
        #expect(before.status == 0, "\(before.stderr)")
        try await server.stopServer()

        let many = (1...10_000).map { "Kept \($0)\n" }.joined()
        let kept = try await run("todoctl", ["import", "--from", "todotxt", "-"], environment: first.environment, input: many, timeout: 300)
        #expect(kept.status == 0 && kept.stdout.contains("10000 created") && kept.stderr.contains("saved on this machine"),
                "\(kept.stdout) \(kept.stderr)")
        let others = (1...100).map { "Other \($0)\n" }.joined()
        let other = try await second.todoctl("import", "--from", "todotxt", "-", input: others)
        #expect(other.status == 0 && other.stderr.contains("saved on this machine"), "\(other.stderr)")
        let status = try jsonObject(try await first.todoctl("status", "--json").stdout)
        #expect((status["sharedStore"] as? [String: Any])?["pending"] as? Int == 10_000, "\(status)")

        // The second shares first, the first held still meanwhile (one sharing 10,000 holds the store's write lock
        // for seconds, in one transaction); the first's write then shares its 10,000, made again after them.
        kill(first.pid, SIGSTOP)
        try await server.startServer()
        let nudged = try await second.todoctl("add", "second after")
        kill(first.pid, SIGCONT)
        #expect(nudged.status == 0, "\(nudged.stderr)")
        // The first's write shares its 10,000 first, a page (1,000) in each of the store's transactions, so the
        // second's writes meanwhile wait for one page at most, not for all (lock_timeout is 10 s).
        async let sharing = run("todoctl", ["add", "first after"], environment: first.environment, timeout: 300)
        for index in 1...3 {
            let meanwhile = try await second.todoctl("add", "second meanwhile \(index)")
            #expect(meanwhile.status == 0, "\(meanwhile.stderr)")
        }
        let after = try await sharing
        #expect(after.status == 0, "\(after.stderr)")
        try await awaitAlike([first, second], on: server, timeout: 300)
        let transactions = try await server.psql("SELECT count(DISTINCT xmin::text) FROM journal")
        #expect((Int(transactions) ?? 0) >= 12, "the journal's rows were written by \(transactions) transactions: the 10,000 in pages")

        let stored = try await server.psql("SELECT count(*) || ',' || count(DISTINCT number) || ',' || count(DISTINCT todo->>'title') FROM todo")
        #expect(stored == "10106,10106,10106", "todos, numbers and titles in the store: \(stored)")
        for daemon in [first, second] {
            let counted = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
            #expect(counted["openTodos"] as? Int == 10_106, "\(counted)")
            #expect((counted["sharedStore"] as? [String: Any])?["pending"] == nil, "\(counted)")
            let checked = try await daemon.check()
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        }
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }
}
