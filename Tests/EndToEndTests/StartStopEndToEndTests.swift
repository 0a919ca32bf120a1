import Foundation
import TestHarness
import Testing

/// `start`, `stop`, `+ACTIVE`, and the time `show` sums, through the real todoctl and todod,
/// on a clock the test moves (`TODOD_TEST_NOW=@FILE`).
@Suite("start and stop end to end")
struct StartStopEndToEndTests {
    @Test("start marks a todo [>] and +ACTIVE finds it; show says since when and sums the time of every start (1h 30m, then 15 more); done stops it; undo starts it again")
    func startStopSpentDoneUndo() async throws {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2026-11-22T10:00:00Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: clock)
        _ = try await daemon.todoctl("add", "Write the report", environment: clock)
        _ = try await daemon.todoctl("add", "Buy bread", environment: clock)

        let started = try await daemon.todoctl("start", "1", environment: clock)
        #expect(started.status == 0 && started.stdout == "started #1 Write the report\n", "\(started.stdout)\(started.stderr)")
        let list = try await daemon.todoctl("list", environment: clock)
        #expect(list.lines.first { $0.contains("Write the report") }?.hasPrefix("#1 [>]") == true, "\(list.stdout)")
        #expect(list.lines.first { $0.contains("Buy bread") }?.hasPrefix("#2 [ ]") == true, "\(list.stdout)")
        let active = try await daemon.todoctl("list", "+ACTIVE", environment: clock)
        #expect(active.stdout.contains("Write the report") && !active.stdout.contains("Buy bread"), "\(active.stdout)")
        #expect(try await daemon.todoctl("show", "1", environment: clock).stdout.contains("\n  started   2026-11-22 10:00\n"))

        try now.set("2026-11-22T11:30:00Z")
        let stopped = try await daemon.todoctl("stop", "1", environment: clock)
        #expect(stopped.status == 0 && stopped.stdout == "stopped #1 Write the report\n", "\(stopped.stdout)\(stopped.stderr)")
        let shown = try await daemon.todoctl("show", "1", environment: clock).stdout
        #expect(shown.contains("\n  spent     1h 30m\n") && !shown.contains("started "), "\(shown)")
        let notStarted = try await daemon.todoctl("stop", "1", environment: clock)
        #expect(notStarted.stdout == "#1 Write the report: nothing to change\n", "\(notStarted.stdout)")

        try now.set("2026-11-22T12:00:00.000Z")
        _ = try await daemon.todoctl("start", "1", environment: clock)
        try now.set("2026-11-22T12:15:00Z")
        let running = try jsonObject(try await daemon.todoctl("show", "1", "--json", environment: clock).stdout)
        #expect(running["spent"] as? Double == 6300 && running["started"] as? String == "2026-11-22T12:00:00.000Z", "\(running)")

        let done = try await daemon.todoctl("done", "1", environment: clock)
        #expect(done.status == 0, "\(done.stderr)")
        let finished = try jsonObject(try await daemon.todoctl("show", "1", "--json", environment: clock).stdout)
        #expect(finished["started"] == nil && finished["spent"] as? Double == 6300, "\(finished)")
        let history = try await daemon.todoctl("history", "1", environment: clock)
        #expect(history.stdout.contains("started none → 2026-11-22 10:00"), "\(history.stdout)")

        let undone = try await daemon.todoctl("undo", environment: clock)
        #expect(undone.status == 0, "\(undone.stderr)")
        try now.set("2026-11-22T12:30:00Z")
        let back = try jsonObject(try await daemon.todoctl("show", "1", "--json", environment: clock).stdout)
        #expect(back["started"] as? String == "2026-11-22T12:00:00.000Z" && back["spent"] as? Double == 7200, "\(back)")
        try await daemon.stop()
    }

    @Test("a start made through one daemon sharing PostgreSQL is stored there (the todo's JSON) and shown by the other, which can stop it")
    func sharedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for command in [["add", "Write the report"], ["start", "1"]] {
            let result = try await run("todoctl", command, environment: first.environment)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
        let stored = try await server.psql("SELECT todo->>'started' IS NOT NULL FROM todo WHERE number = 1")
        #expect(stored == "t", "\(stored)")
        try await awaitSequence(2, on: second)
        #expect(try await second.todoctl("list", "+ACTIVE").stdout.contains("#1 [>]"))
        let stopped = try await second.todoctl("stop", "1")
        #expect(stopped.status == 0, "\(stopped.stdout)\(stopped.stderr)")
        try await awaitSequence(3, on: first)
        let back = try jsonObject(try await first.todoctl("show", "1", "--json").stdout)
        #expect(back["started"] == nil, "\(back)")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("start of a done todo is refused saying to reopen it first; start with no todo says what to name")
    func refusals() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Write the report")
        _ = try await daemon.todoctl("done", "1")
        let done = try await daemon.todoctl("start", "1")
        #expect(done.status == 1 && done.stderr.contains("#1 is done, and a done todo is not worked on: reopen it first, then start it"), "\(done.stderr)")
        let none = try await daemon.todoctl("start")
        #expect(none.status == 64, "\(none.stdout)\(none.stderr)")
        try await daemon.stop()
    }
}
