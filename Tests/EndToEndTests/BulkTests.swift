import Foundation
import Testing

@Suite("Bulk commands: done, rm, restore, reopen and edit over many todos")
struct BulkTests {
    private func todoctl(_ daemon: DaemonProcess, _ arguments: String..., input: String? = nil) async throws -> CommandResult {
        try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 }, input: input)
    }

    @Test("a filter acts on every todo it finds and reports each, with the counts")
    func filterActsOnEach() async throws {
        let daemon = try await FilterTests.week()
        let done = try await todoctl(daemon, "done", "-t", "home")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.lines == ["done #1 Tax return", "done #2 Buy milk", "2 changed, 0 unchanged, 0 failed"])
        let numbers = try await FilterTests.numbers(daemon)
        #expect(numbers == [3, 4])
        let reopened = try await todoctl(daemon, "reopen", "--filter", "-t home --search MILK")
        #expect(reopened.lines == ["reopened #2 Buy milk", "1 changed, 0 unchanged, 0 failed"])
        let overdue = try await todoctl(daemon, "rm", "--overdue")
        #expect(overdue.lines == ["no todos match: nothing changed"], "#1 is done, so not overdue")
        let result = try await todoctl(daemon, "rm", "--no-due")
        #expect(result.lines == ["deleted #3 Call mum", "1 changed, 0 unchanged, 0 failed"])
        let result2 = try await todoctl(daemon, "restore", "-p", "high")
        #expect(result2.lines.first == "restored #3 Call mum")
        let quoted = try await todoctl(daemon, "reopen", "--filter", "--search 'tax return' -t \"admin\"")
        #expect(quoted.lines == ["reopened #1 Tax return", "1 changed, 0 unchanged, 0 failed"], "quotes keep a phrase one word")
        try await daemon.stop()
    }

    @Test("done over a filter finding a parent and its subtasks completes them all, whatever the list's order")
    func parentAndSubtasks() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await todoctl(daemon, "add", "Q", "-t", "r", "--due", "today")
        _ = try await todoctl(daemon, "add", "Q2", "-t", "r", "--parent", "1")
        let done = try await todoctl(daemon, "done", "-t", "r", "--yes")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.lines == ["done #2 Q2", "done #1 Q", "2 changed, 0 unchanged, 0 failed"])
        try await daemon.stop()
    }

    @Test("--json lists each todo once, as it ends up, the further changes included")
    func jsonOnce() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await todoctl(daemon, "add", "Q")
        _ = try await todoctl(daemon, "add", "Q2", "--parent", "1")
        _ = try await todoctl(daemon, "add", "Q3", "--parent", "1")
        _ = try await todoctl(daemon, "rm", "1")
        let restored = try await todoctl(daemon, "restore", "1", "2", "3", "--json")
        let todos = try JSONSerialization.jsonObject(with: Data(restored.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(todos.compactMap { $0["number"] as? Int } == [1, 2, 3])
        #expect(todos.allSatisfy { $0["deletedAt"] is NSNull })
        try await daemon.stop()
    }

    @Test("named todos are each reported, a refused one with its reason, and the exit is 1")
    func namedWithFailure() async throws {
        let daemon = try await FilterTests.week()
        let edited = try await todoctl(daemon, "edit", "2", "99", "3", "-t", "x", "-d", "fri")
        #expect(edited.status == 1)
        #expect(edited.lines == ["edited #2 Buy milk", "edited #3 Call mum"])
        #expect(edited.stderr.contains("no todo #99"))
        let numbers = try await FilterTests.numbers(daemon, "-t", "x", "--due", "2026-11-27")
        #expect(numbers == [2, 3])
        try await daemon.stop()
    }

    @Test("more than 3 found by a filter: without a terminal it refuses unless --yes, and nothing changes")
    func refusesWithoutTerminal() async throws {
        let daemon = try await FilterTests.week()
        let refused = try await todoctl(daemon, "edit", "--filter", "--not-tag none", "-p", "low", input: "y\n")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("4 todos match"))
        #expect(refused.stderr.contains("Pass --yes to edit all 4"))
        let numbers = try await FilterTests.numbers(daemon, "-p", "low")
        #expect(numbers == [])
        let forced = try await todoctl(daemon, "edit", "--filter", "--not-tag none", "-p", "low", "--yes")
        #expect(forced.status == 0)
        #expect(forced.lines.last == "4 changed, 0 unchanged, 0 failed")
        let numbers2 = try await FilterTests.numbers(daemon, "-p", "low")
        #expect(numbers2 == [1, 2, 3, 4])
        try await daemon.stop()
    }

    @Test("more than 3 found by a filter in a terminal: it lists them and asks; no keeps them, y acts")
    func asksInTerminal() async throws {
        let daemon = try await FilterTests.week()
        _ = try await todoctl(daemon, "add", "Fifth")
        let tmux = try await Tmux(environment: daemon.environment.merging(fixedClock) { $1 }.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl rm --not-tag none; echo \"exit=$?\"")
        let asked = try await tmux.waitFor("Delete these 5 todos? [y/N]")
        #expect(asked.contains("#5 Fifth"))
        try await tmux.type("n")
        let kept = try await tmux.waitFor("exit=1")
        #expect(kept.contains("nothing changed"))
        let numbers = try await FilterTests.numbers(daemon, "--all")
        #expect(numbers.count == 5)
        try await tmux.type("clear; \(binaryDirectory)/todoctl rm --not-tag none; echo \"exit=$?\"")
        try await tmux.waitFor("[y/N]")
        try await tmux.type("y")
        let screen = try await tmux.waitFor("exit=0")
        #expect(screen.contains("5 changed, 0 unchanged, 0 failed"))
        let numbers2 = try await FilterTests.numbers(daemon, "--deleted")
        #expect(numbers2 == [1, 2, 3, 4, 5])
        await tmux.kill()
        try await daemon.stop()
    }
}
