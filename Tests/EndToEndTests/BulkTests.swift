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

    @Test("Taskwarrior's ranges and lists name todos: done 1,2, rm 3-6, restore 3-5, edit 3-4 pri: (they were refused as no modifiers); more than 3 named so ask as a filter's do (outside probe)")
    func rangesAndLists() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["A", "B", "C", "D", "E", "F"] { _ = try await todoctl(daemon, "add", title, "pri:H") }
        let done = try await todoctl(daemon, "done", "1,2")
        #expect(done.status == 0 && done.lines == ["done #1 A", "done #2 B"], "\(done)")
        // Four named by a range: asked, and without a terminal refused, as a filter finding four is.
        let asked = try await todoctl(daemon, "rm", "3-6")
        #expect(asked.status == 1 && asked.stderr.contains("4 todos are named; todoctl asks before it will delete more than 3"), "\(asked)")
        let removed = try await todoctl(daemon, "rm", "3-6", "--yes")
        #expect(removed.status == 0 && removed.lines == ["deleted #3 C", "deleted #4 D", "deleted #5 E", "deleted #6 F"], "\(removed)")
        let restored = try await todoctl(daemon, "restore", "3-5")
        #expect(restored.status == 0 && restored.lines == ["restored #3 C", "restored #4 D", "restored #5 E"], "\(restored)")
        // pri: with nothing after it is Taskwarrior's "no priority": todod's normal, a new todo's.
        let edited = try await todoctl(daemon, "edit", "3-4", "pri:")
        #expect(edited.status == 0, "\(edited)")
        let priorities = try jsonArray(try await todoctl(daemon, "list", "-j").stdout).map { "\($0["number"] ?? "") \($0["priority"] ?? "")" }
        #expect(priorities.sorted() == ["3 normal", "4 normal", "5 high"], "\(priorities)")
        // A range down, or past 1000 todos, names none.
        let down = try await todoctl(daemon, "done", "4-2")
        #expect(down.status == 64, "\(down)")
        try await daemon.stop()
    }

    @Test("numbers name the todos there were when the command was typed: done 1-3 and done 3 4 never complete the next occurrence the same command made (no todo #3), and reopen 3-4 deletes #4, the next occurrence, without refusing it (outside probe)")
    func numbersNameTodosAsTyped() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await todoctl(daemon, "add", "Rec", "due:mon", "recur:weekly")
        _ = try await todoctl(daemon, "add", "Plain")
        let range = try await todoctl(daemon, "done", "1-3")
        #expect(range.status == 1 && range.lines == ["done #1 Rec", "added #3 Rec", "done #2 Plain"], "\(range)")
        #expect(range.stderr.contains("no todo #3"), "\(range)")
        #expect(try await FilterTests.numbers(daemon) == [3], "#3, made by done #1, was completed by the same command")
        let list = try await todoctl(daemon, "done", "3", "4")
        #expect(list.status == 1 && list.lines == ["done #3 Rec", "added #4 Rec"] && list.stderr.contains("no todo #4"), "\(list)")
        #expect(try await FilterTests.numbers(daemon) == [4], "#4, made by done #3, was completed by the same command")
        // #4 is open, and reopening #3 takes it away: said once, as the deletion it is.
        let reopened = try await todoctl(daemon, "reopen", "3-4")
        #expect(reopened.status == 0 && reopened.lines == ["reopened #3 Rec", "deleted #4 Rec"], "\(reopened)")
        #expect(try await FilterTests.numbers(daemon) == [3])
        try await daemon.stop()
    }

    @Test("a new title is for one todo: edit 3-4 2026 budget, edit 3 4 --title and edit --filter --title are refused and change nothing (outside probe: all three took the title)")
    func newTitleForOneTodo() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["A", "B", "C", "D"] { _ = try await todoctl(daemon, "add", title) }
        for arguments in [["edit", "3-4", "2026", "budget"], ["edit", "3", "4", "--title", "X"], ["edit", "--filter", "--search A", "--title", "X"],
                          ["edit", "1,2", "Y", "pri:H"]] {
            let refused = try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 })
            #expect(refused.status == 64 && refused.stderr.contains("a new title is for one todo"), "\(arguments): \(refused)")
        }
        let refused = try await todoctl(daemon, "edit", "3-4", "2026", "budget")
        #expect(refused.stderr.contains("todoctl edit 3 2026 budget"), "\(refused)")
        let titles = try jsonArray(try await todoctl(daemon, "list", "-j").stdout).map { "\($0["number"] ?? "") \($0["title"] ?? "")" }
        #expect(titles.sorted() == ["1 A", "2 B", "3 C", "4 D"], "\(titles)")
        // One todo still takes a title from its words.
        let one = try await todoctl(daemon, "edit", "3", "2026", "budget")
        #expect(one.status == 0 && one.stdout.contains("2026 budget"), "\(one)")
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
