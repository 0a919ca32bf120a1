import Foundation
import TestHarness
import Testing

/// A COMMIT whose answer never reaches the daemon: PostgreSQL may or may not have committed,
/// and the daemon must neither lose the change nor make it twice. A deferred trigger holds
/// the first COMMIT of a todo titled "slow…" in PostgreSQL for 20 s, so that the connection can
/// be cut at that moment, as a network or a restart would.
@Suite("PostgreSQL cut off in the middle of a COMMIT", .serialized)
struct PostgresCutOffCommitTests {
    /// A store and a daemon on it, with the trigger that slows the first commit of a "slow…" todo.
    private func slowCommits() async throws -> (PostgresServer, DaemonProcess) {
        let server = try await PostgresServer.start()
        let daemon = try await DaemonProcess.start(arguments: ["--store", server.uri])
        try await server.slowTheFirstCommitOfASlowTodo()
        return (server, daemon)
    }

    @Test("the daemon gives up waiting for a COMMIT that PostgreSQL then makes: it asks, learns it was written, and says so")
    func committedThoughTheAnswerWasLost() async throws {
        let (server, daemon) = try await slowCommits()
        // The daemon's deadline (15 s) ends before the trigger's sleep (20 s): it closes the
        // connection, and PostgreSQL commits anyway, once the sleep is over.
        let added = try await run("todoctl", ["add", "slow but sure"], environment: daemon.environment, timeout: 90)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("#1"))
        let stored = try await server.psql("SELECT count(*) FROM todo WHERE todo->>'title' = 'slow but sure'")
        #expect(stored == "1")
        #expect(daemon.log.contains("a commit whose answer was lost took effect"))
        let added2 = try await daemon.todoctl("add", "next")
        #expect(added2.stdout.contains("#2"))
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a COMMIT cut off before PostgreSQL made it: the daemon asks, learns it was not, keeps the change on this machine and shares it at the next write")
    func cutOffBeforeTheCommit() async throws {
        let (server, daemon) = try await slowCommits()
        async let adding = daemon.todoctl("add", "slow and lost")
        try await server.awaitSlowCommit()
        _ = try await server.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'todod' AND query = 'COMMIT'")
        let added = try await adding
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.contains("saved on this machine"), "\(added.stderr)")
        let stored = try await server.psql("SELECT count(*) FROM todo")
        #expect(stored == "0")
        let next = try await daemon.todoctl("add", "next")
        #expect(next.stdout.contains("#2"), "\(next.stdout)")
        let stored2 = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored2 == "slow and lost,next")
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a COMMIT cut off by a fast shutdown: PostgreSQL says it ended the session, so the change is kept on this machine and shared once it is back")
    func cutOffByAFastShutdown() async throws {
        let (server, daemon) = try await slowCommits()
        async let adding = daemon.todoctl("add", "slow and stopped")
        try await server.awaitSlowCommit()
        try await server.stopServer()
        let added = try await adding
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.contains("saved on this machine"), "\(added.stderr)")
        try await server.startServer()
        let added2 = try await daemon.todoctl("add", "next")
        #expect(added2.stdout.contains("#2"), "\(added2.stdout)")
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
        #expect(stored == "slow and stopped,next")
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a COMMIT cut off without a word while PostgreSQL cannot be asked: the daemon says it cannot tell yet, and learns once it is back")
    func cutOffInDoubt() async throws {
        let (server, daemon) = try await slowCommits()
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        async let adding = run("todoctl", ["add", "slow and in doubt"], environment: daemon.environment, timeout: 90)
        try await server.awaitSlowCommit()
        // The session's process killed, as a crash would (no word to the daemon), while the
        // postmaster is frozen: the daemon cannot reconnect to ask, and gives up after its deadline.
        let processes = try await server.processes()
        let backend = try await server.psql(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'todod' AND query = 'COMMIT'")
        kill(processes[0], SIGSTOP)
        defer { kill(processes[0], SIGCONT) }
        kill(pid_t(backend) ?? 0, SIGKILL)
        let added = try await adding
        #expect(added.status != 0)
        #expect(added.stderr.contains("cannot tell yet whether it was written"), "\(added.stderr)")
        #expect(added.stderr.contains("todoctl log"), "\(added.stderr)")
        #expect(daemon.log.contains("a commit's outcome is unknown until the shared store is back"))
        // Thawed, the postmaster recovers from the crash; the COMMIT never happened.
        kill(processes[0], SIGCONT)
        try await server.awaitValue("SELECT 1", "1", timeout: 60)
        _ = try await events.awaitLine(containing: "is reachable again", timeout: 60)
        let added2 = try await daemon.todoctl("add", "next")
        #expect(added2.stdout.contains("#1"))
        let stored = try await server.psql("SELECT string_agg(todo->>'title', ',') FROM todo")
        #expect(stored == "next")
        try await daemon.stop()
        try await server.stop()
    }
}
