import Foundation
import InteropTestSupport
import TestHarness
import Testing

/// `until:` through the real todoctl and todod: kept, shown, filtered, obeyed (a todo past
/// its day expires, a series ends) and carried to and from the real `task`.
@Suite("until end to end")
struct UntilEndToEndTests {
    @Test("add … until:DATE keeps the day (it was refused as not kept): show and show --json say it, until.before: and +UNTIL find it, an empty until: clears it and --until sets it; when the day has passed, the daemon's midnight deletes the todo in a watching client")
    func keptShownFilteredExpired() async throws {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2031-01-02T23:59:58Z")
        let env = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: env)
        let added = try await daemon.todoctl("add", "Renew", "passport", "until:2031-01-02", environment: env)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        _ = try await daemon.todoctl("add", "Book the hall", "until:2031-01-10", environment: env)
        _ = try await daemon.todoctl("add", "Read", environment: env)

        let shown = try await daemon.todoctl("show", "1", environment: env)
        #expect(shown.stdout.contains("\n  until     2031-01-02 (deleted after it if still open)\n"), "\(shown.stdout)")
        #expect(try jsonObject(try await daemon.todoctl("show", "1", "--json", environment: env).stdout)["until"] as? String == "2031-01-02")
        let before = try await daemon.todoctl("list", "until.before:2031-01-05", environment: env)
        #expect(before.lines.count == 1 && before.stdout.contains("Renew passport"), "\(before.stdout)\(before.stderr)")
        let any = try await daemon.todoctl("list", "+UNTIL", environment: env)
        #expect(any.lines.count == 2 && !any.stdout.contains("Read"), "\(any.stdout)\(any.stderr)")

        #expect(try await daemon.todoctl("edit", "2", "until:", environment: env).status == 0)
        #expect(try await daemon.todoctl("show", "2", environment: env).stdout.contains("until") == false)
        let flagged = try await daemon.todoctl("edit", "2", "--until", "2031-01-03", environment: env)
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(try await daemon.todoctl("show", "2", environment: env).stdout.contains("\n  until     2031-01-03 ("))

        // A day already over would have the todo deleted at the next midnight: refused, nothing added.
        let passed = try await daemon.todoctl("add", "Too late", "until:2031-01-01", environment: env)
        #expect(passed.status == 64 && passed.stderr.contains("until:2031-01-01 has passed (today is 2031-01-02)"), "\(passed.stderr)")
        #expect(try await daemon.todoctl("edit", "3", "until:yesterday", environment: env).status == 64)

        let watcher = try daemon.connect()
        _ = try await watcher.awaitLine(containing: "responseHello")
        try now.set("2031-01-03T00:00:01Z")
        // The daemon's own midnight, not a request: #1's day is over, #2's is today.
        let expired = try await watcher.awaitLine(containing: #""change":"deleted""#, #""title":"Renew passport""#)
        #expect(expired.contains(#""until":"2031-01-02""#))
        let open = try await daemon.todoctl("list", environment: env)
        #expect(open.lines.count == 2 && !open.stdout.contains("Renew passport"), "\(open.stdout)")
        // A delete as a user's: undo brings it back.
        #expect(try await daemon.todoctl("undo", environment: env).status == 0)
        let restored = try await daemon.todoctl("show", "1", environment: env)
        #expect(restored.stdout.contains("\n  state     open\n") && restored.stdout.contains("2031-01-02"), "\(restored.stdout)")
        try await daemon.stop()
    }

    @Test("a repeating todo with until:DATE makes its occurrences up to that day and no more: done on the last, the series ends (show said it was the last)")
    func seriesEnds() async throws {
        let env = ["TODOD_TEST_NOW": "2031-01-02T09:00:00Z", "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(environment: env)
        let added = try await daemon.todoctl("add", "Standup notes", "due:2031-01-02", "recur:weekly", "until:2031-01-09", environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await daemon.todoctl("done", "1", environment: env).status == 0)
        let last = try await daemon.todoctl("show", "2", environment: env)
        #expect(last.stdout.contains("due 2031-01-09") || last.stdout.contains("2031-01-09"), "\(last.stdout)")
        #expect(last.stdout.contains("the last: the next would be due 2031-01-16, after its until day"), "\(last.stdout)")
        #expect(try await daemon.todoctl("done", "2", environment: env).status == 0)
        let open = try await daemon.todoctl("list", environment: env)
        #expect(open.stdout == "no open todos\n", "\(open.stdout)")
        try await daemon.stop()
    }

    @Test("an until day made through one daemon sharing PostgreSQL is in the store's todo JSON, and the other daemon shows it and filters by it")
    func sharedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await first.todoctl("add", "Renew passport", "until:2099-01-01")
        #expect(added.status == 0, "\(added.stderr)")
        let stored = try await server.psql("SELECT todo->>'until' FROM todo WHERE number = 1")
        #expect(stored == "2099-01-01", "\(stored)")
        try await awaitSequence(1, on: second)
        #expect(try await second.todoctl("show", "1").stdout.contains("\n  until     2099-01-01 ("))
        #expect(try await second.todoctl("list", "+UNTIL").stdout.contains("Renew passport"))
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    @Test("an until set in the real task survives import into todod, an edit there and the export back: task imports the edited day and the untouched one at its own time")
    func taskwarriorRoundTrip() async throws {
        let env = ["TZ": "UTC"]
        let source = try TaskwarriorHome()
        defer { source.remove() }
        try source.run(["add", "Renew passport", "until:2099-05-02"])
        try source.run(["add", "Mow the lawn", "until:2099-06-01"])
        let daemon = try await DaemonProcess.start(environment: env)
        let imported = try await daemon.todoctl(
            "import", "--from", "taskwarrior", input: String(decoding: try source.run(["export"]), as: UTF8.self), environment: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let numbers = try jsonArray(try await daemon.todoctl("list", "--json", environment: env).stdout)
            .reduce(into: [String: Int]()) { $0[$1["title"] as? String ?? ""] = $1["number"] as? Int }
        let lawn = try #require(numbers["Mow the lawn"]), passport = try #require(numbers["Renew passport"])
        #expect(try await daemon.todoctl("show", "\(passport)", environment: env).stdout.contains("\n  until     2099-05-02 ("))
        #expect(try await daemon.todoctl("edit", "\(lawn)", "until:2099-07-01", environment: env).status == 0)

        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior", environment: env).stdout.utf8))
        let tasks = try target.exportedTasks().values
        #expect(tasks.first { $0["description"] as? String == "Renew passport" }?["until"] as? String == "20990502T000000Z")
        #expect(tasks.first { $0["description"] as? String == "Mow the lawn" }?["until"] as? String == "20990701T235959Z")
        try await daemon.stop()
    }
}
