import Foundation
import TestHarness
import Testing

/// Recurrence, subtasks and waiting, through the real `todod` and `todoctl`.
@Suite("Planning end to end")
struct PlanningEndToEndTests {
    /// The todos `list --all --json` prints.
    private func all(_ daemon: DaemonProcess, _ status: String = "--all") async throws -> [[String: Any]] {
        try jsonArray(try await run("todoctl", ["list", status, "--json"], environment: daemon.environment).stdout)
    }

    @Test("a recurring todo completed by two clients at once gets one next occurrence, which reopening removes")
    func recurringFromTwoClients() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", "Water", "the", "plants", "--due", "2031-01-03", "--every", "1w")
        #expect(added.status == 0, "\(added.stderr)")
        let (first, second) = (try daemon.connect(), try daemon.connect())
        for peer in [first, second] { _ = try await peer.awaitLine(containing: "responseHello") }
        // Both requests are on the wire before either answer is read.
        try first.send(#"{"event":"requestCompleteTodo","id":"a","data":1}"# + "\n")
        try second.send(#"{"event":"requestCompleteTodo","id":"b","data":1}"# + "\n")
        // Each peer hears its answer and the completion, in either order (its own answer, or the other's).
        var answers: [String] = []
        for (peer, id) in [(first, "a"), (second, "b")] {
            var answer: String?
            var completion: String?
            while answer == nil || completion == nil, let line = try await peer.readLine() {
                if line.contains(#""id":"\#(id)""#) { answer = line }
                if line.contains(#""change":"completed""#) { completion = line }
            }
            answers.append(answer ?? "")
            // The next occurrence's creation is in the completion's line, which both receive.
            let created = (try jsonObject(completion ?? "{}").path("data", "further") as? [[String: Any]])?.first
            #expect(created?["change"] as? String == "created", "\(completion ?? "no completion")")
            #expect(created?.path("todo", "due") as? String == "2031-01-10", "\(completion ?? "no completion")")
            #expect(created?.path("todo", "previous") as? Int == 1, "\(completion ?? "no completion")")
        }
        #expect(answers.filter { $0.contains(#""change":"completed""#) }.count == 1)
        #expect(answers.filter { $0.contains(#""change":"unchanged""#) }.count == 1)
        let todos = try await all(daemon)
        #expect(todos.count == 2)
        #expect(todos.compactMap { $0["due"] as? String }.sorted() == ["2031-01-03", "2031-01-10"])
        let shown = try await daemon.todoctl("show", "2")
        #expect(shown.stdout.contains("repeats   every week; the next is due 2031-01-17"))

        let reopened = try await daemon.todoctl("reopen", "1")
        #expect(reopened.status == 0)
        // The occurrence it takes away is said too.
        #expect(reopened.lines == ["reopened #1 Water the plants", "deleted #2 Water the plants"])
        let allNow = try await all(daemon)
        #expect(allNow.compactMap { $0["number"] as? Int } == [1])
        let listed = try await daemon.todoctl("list", "--deleted")
        #expect(listed.stdout.contains("#2"))
        try await daemon.stop()
    }

    @Test("show says when the next occurrence of a todo repeating after completion would be due, counted from todoctl's day (TODOD_TEST_NOW), not the machine's")
    func nextOccurrenceOnTheTestClock() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let added = try await daemon.todoctl("add", "Water", "the", "plants", "--due", "2026-11-25", "--every-after", "3d", environment: fixedClock)
        #expect(added.status == 0, "\(added.stderr)")
        let shown = try await daemon.todoctl("show", "1", environment: fixedClock)
        #expect(shown.stdout.contains("due       2026-11-25 (in 2 days)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("repeats   3 days after completion; done today, the next would be due 2026-11-26"), "\(shown.stdout)")
        try await daemon.stop()
    }

    @Test("reopening keeps a next occurrence that was given a subtask, and so no subtask is left under a deleted parent")
    func reopenKeepsOccurrenceWithSubtasks() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "R", "--due", "2031-01-03", "--every", "1d")
        _ = try await daemon.todoctl("done", "1")
        _ = try await daemon.todoctl("add", "Important sub", "--parent", "2")
        let reopened2 = try await daemon.todoctl("reopen", "1")
        #expect(reopened2.lines == ["reopened #1 R"])
        let listed = try await daemon.todoctl("list", "--deleted")
        #expect(listed.stdout == "no deleted todos\n")
        let allNow = try await all(daemon)
        #expect(allNow.compactMap { $0["number"] as? Int }.sorted() == [1, 2, 3])
        try await daemon.stop()
    }

    @Test("undoing the completion of a recurring todo reopens it and deletes the occurrence it made")
    func undoRecurring() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Water", "--due", "2031-01-03", "--every", "weekly")
        let completed2 = try await daemon.todoctl("done", "1")
        #expect(completed2.lines == ["done #1 Water", "added #2 Water"])
        let allNow = try await all(daemon)
        #expect(allNow.count == 2)
        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        let left = try await all(daemon)
        #expect(left.compactMap { $0["number"] as? Int } == [1])
        #expect(left.first?["completedAt"] is NSNull)
        try await daemon.stop()
    }

    @Test("a parent with open subtasks is completed only --with-children, which completes them in one step")
    func parentWithChildren() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Paint", "the", "house")
        _ = try await daemon.todoctl("add", "Buy", "paint", "--parent", "1")
        _ = try await daemon.todoctl("add", "Sand", "the", "walls", "--parent", "#1")
        let list = try await daemon.todoctl("list")
        #expect(list.lines == ["#1 [ ]   Paint the house [0/2]", "#3 [ ]     Sand the walls", "#2 [ ]     Buy paint"])

        let refused = try await daemon.todoctl("done", "1")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("#1 has 2 open subtasks (#2, #3)"))
        #expect(refused.stderr.contains("--with-children"))
        let listed = try await daemon.todoctl("list", "--completed")
        #expect(listed.stdout == "no completed todos\n")

        let watcher = try daemon.connect()
        _ = try await watcher.awaitLine(containing: "responseHello")
        let done = try await daemon.todoctl("done", "1", "--with-children")
        #expect(done.status == 0)
        // Every todo it completed is reported, not only the one named.
        #expect(done.lines.sorted() == ["done #1 Paint the house", "done #2 Buy paint", "done #3 Sand the walls"])
        // Another client hears the step as one line, the parent's change carrying its subtasks'.
        let step = try jsonObject(try await watcher.awaitLine(containing: #""change":"completed""#))
        let further = step.path("data", "further") as? [[String: Any]] ?? []
        #expect(step.path("data", "todo", "number") as? Int == 1, "\(step)")
        #expect(further.compactMap { $0.path("todo", "number") as? Int }.sorted() == [2, 3], "\(step)")
        #expect(further.allSatisfy { $0["change"] as? String == "completed" }, "\(step)")
        #expect(try await all(daemon, "--completed").compactMap { $0["number"] as? Int }.sorted() == [1, 2, 3])
        try await daemon.stop()
    }

    @Test("a write whose step makes several changes is answered with all of them in one line, the line every client receives")
    func stepInOneAnswer() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Water", "--due", "2031-01-03", "--every", "1w")
        _ = try await daemon.todoctl("add", "Trip")
        _ = try await daemon.todoctl("add", "Tickets", "--parent", "2")
        _ = try await daemon.todoctl("add", "Passport", "--parent", "2")
        let (asker, watcher) = (try daemon.connect(), try daemon.connect())
        for peer in [asker, watcher] { _ = try await peer.awaitLine(containing: "responseHello") }

        try asker.send(#"{"event":"requestCompleteTodo","id":"c","data":1}"# + "\n")
        let answer = try await asker.awaitLine(containing: #""id":"c""#)
        let frame = try jsonObject(answer)
        let seq = frame.path("data", "seq") as? Int ?? 0
        #expect(frame.path("data", "change") as? String == "completed", "\(answer)")
        let next = (frame.path("data", "further") as? [[String: Any]])?.first
        #expect(next?["change"] as? String == "created" && next?["seq"] as? Int == seq + 1, "\(answer)")
        #expect(next?.path("todo", "previous") as? Int == 1 && next?.path("todo", "due") as? String == "2031-01-10", "\(answer)")
        // The same bytes reach the other client: one frame serves the asker and everyone.
        #expect(try await watcher.awaitLine(containing: "responseTodoViewModel") == answer)

        // todoctl prints the whole step from its one answer.
        let removed = try await daemon.todoctl("rm", "2")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.lines.sorted() == ["deleted #2 Trip", "deleted #3 Tickets", "deleted #4 Passport"], "\(removed.lines)")
        let step = try jsonObject(try await watcher.awaitLine(containing: #""change":"deleted""#))
        #expect(step.path("data", "todo", "number") as? Int == 2, "\(step)")
        let subtasks = step.path("data", "further") as? [[String: Any]] ?? []
        #expect(subtasks.compactMap { $0.path("todo", "number") as? Int }.sorted() == [3, 4], "\(step)")
        #expect(subtasks.compactMap { $0["seq"] as? Int }.sorted() == [seq + 3, seq + 4], "\(step)")
        try await daemon.stop()
    }

    @Test("deleting a parent deletes its subtasks; restoring it brings them back")
    func deleteParent() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Trip")
        _ = try await daemon.todoctl("add", "Tickets", "--parent", "1")
        let removed = try await daemon.todoctl("rm", "1")
        #expect(removed.status == 0, "\(removed.stderr)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout == "no open todos\n")
        let orphan = try await daemon.todoctl("restore", "2")
        #expect(orphan.status != 0 && orphan.stderr.contains("restore #1"))
        let restored = try await daemon.todoctl("restore", "1")
        #expect(restored.status == 0, "\(restored.stderr)")
        let allNow = try await all(daemon)
        #expect(allNow.compactMap { $0["number"] as? Int }.sorted() == [1, 2])
        try await daemon.stop()
    }

    @Test("a waiting todo appears at midnight in a watching client, without anyone asking")
    func waitingAtMidnight() async throws {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2031-01-02T23:59:58Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: clock)
        let added = try await daemon.todoctl("add", "Call", "the", "bank", "--wait", "2031-01-03", environment: clock)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await daemon.todoctl("list", environment: clock)
        #expect(listed.stdout == "no open todos\n")
        let listed2 = try await daemon.todoctl("list", "--waiting", environment: clock)
        // Under its heading, with when it comes back.
        #expect(listed2.lines.count == 2 && listed2.lines[1].contains("Call the bank") && listed2.lines[1].hasSuffix("tomorrow"), "\(listed2.stdout)")

        let watcher = try daemon.connect()
        _ = try await watcher.awaitLine(containing: "responseHello")
        try now.set("2031-01-03T00:00:01Z")
        // The daemon's own midnight timer, not a request, makes the change.
        let woken = try await watcher.awaitLine(containing: #""change":"updated""#, #""title":"Call the bank""#)
        #expect(woken.contains(#""wait":null"#))
        let listed3 = try await daemon.todoctl("list", environment: clock)
        #expect(listed3.lines.first?.contains("Call the bank") == true)
        try await daemon.stop()
    }
}
