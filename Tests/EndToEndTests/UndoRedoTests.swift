import Foundation
import Testing
import TodoClient
import TodoEvents
import TodoModel

/// Undo that steps back and redo, through the real todoctl and todod, with a second client
/// (a `TodoClient` naming itself `watch`) where another program matters.
@Suite("Undo that steps back, and redo")
struct UndoRedoTests {
    /// The todo `ref` as `show --json` prints it.
    private func show(_ daemon: DaemonProcess, _ ref: String) async throws -> [String: Any] {
        try jsonObject(try await daemon.todoctl("show", ref, "--json").stdout)
    }

    /// `#1 "Water the plants"` made (1), retitled (2), then made high priority (3).
    private func threeChanges(_ daemon: DaemonProcess) async throws {
        for command in [["add", "Water the plants"], ["edit", "1", "--title", "Water the ferns"], ["edit", "1", "--priority", "high"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
    }

    @Test("undo twice takes back the two changes before, newest first, never the first undo; after a restart it steps on")
    func undoStepsBack() async throws {
        let daemon = try await DaemonProcess.start()
        try await threeChanges(daemon)
        let first = try await daemon.todoctl("undo")
        #expect(first.status == 0 && first.stdout.contains("(undo of 3)"), "\(first.stdout)\(first.stderr)")
        let second = try await daemon.todoctl("undo")
        #expect(second.status == 0 && second.stdout.contains("(undo of 2)"), "\(second.stdout)\(second.stderr)")
        let todo = try await show(daemon, "1")
        #expect(todo["title"] as? String == "Water the plants" && todo["priority"] as? String == "normal", "\(todo)")
        // Named, a change undone already is refused as such, not as a clash with its own undo.
        let named = try await daemon.todoctl("undo", "3")
        #expect(named.status == 1, "\(named.stdout)")
        #expect(named.stderr.contains("nothing to undo: change 3 was taken back already, by change 4; `todoctl undo 4` puts it back"), "\(named.stderr)")
        // The journal says what is undone, not the daemon's memory.
        try await daemon.stop()
        let restarted = try await DaemonProcess.start(in: daemon.directory)
        let third = try await restarted.todoctl("undo")
        #expect(third.status == 0 && third.stdout.contains("deleted") && third.stdout.contains("(undo of 1)"), "\(third.stdout)\(third.stderr)")
        let none = try await restarted.todoctl("undo")
        #expect(none.status == 1, "\(none.stdout)")
        #expect(none.stderr.contains("nothing to undo: every change in the journal is undone already"), "\(none.stderr)")
        try await restarted.stop()
    }

    @Test("an undo journaled before redo (no undone steps recorded) is still stepped past, by the change it names")
    func undoFromBeforeRedo() async throws {
        let daemon = try await DaemonProcess.start()
        try await threeChanges(daemon)
        _ = try await daemon.todoctl("undo")
        try await daemon.stop()
        // As todod wrote it before redo: only `undoes`.
        let cleared = try await run("/usr/bin/sqlite3", [daemon.databasePath, "UPDATE journal SET undoneSteps = NULL, isRedo = 0"])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        let restarted = try await DaemonProcess.start(in: daemon.directory)
        let undone = try await restarted.todoctl("undo")
        #expect(undone.status == 0 && undone.stdout.contains("(undo of 2)"), "\(undone.stdout)\(undone.stderr)")
        let redone = try await restarted.todoctl("redo")
        #expect(redone.status == 0 && redone.stdout.contains("(redo of 5)"), "\(redone.stdout)\(redone.stderr)")
        try await restarted.stop()
    }

    @Test("redo after two undos puts back both changes in reverse order, then says every undo is redone")
    func redoAfterTwoUndos() async throws {
        let daemon = try await DaemonProcess.start()
        try await threeChanges(daemon)
        for _ in 0..<2 { _ = try await daemon.todoctl("undo") }
        let first = try await daemon.todoctl("redo")
        #expect(first.status == 0 && first.stdout.contains("title \"Water the plants\" → \"Water the ferns\" (redo of 5)"), "\(first.stdout)\(first.stderr)")
        let todo = try await show(daemon, "1")
        #expect(todo["title"] as? String == "Water the ferns" && todo["priority"] as? String == "normal", "\(todo)")
        let second = try await daemon.todoctl("redo")
        #expect(second.status == 0 && second.stdout.contains("priority normal → high (redo of 4)"), "\(second.stdout)\(second.stderr)")
        let third = try await daemon.todoctl("redo")
        #expect(third.status == 1, "\(third.stdout)")
        #expect(third.stderr.contains("nothing to redo: every undo since the last change is redone already"), "\(third.stderr)")
        // Undo after a redo takes the redone change back again, as in editors.
        let again = try await daemon.todoctl("undo")
        #expect(again.stdout.contains("priority high → normal (undo of 3)"), "\(again.stdout)\(again.stderr)")
        let history = try await daemon.todoctl("history", "1")
        #expect(history.lines.contains { $0.contains("(redo of 5)") }, "\(history.stdout)")
        try await daemon.stop()
    }

    @Test("a new change after an undo ends the redo chain, and redo names the change that ended it")
    func newChangeEndsRedo() async throws {
        let daemon = try await DaemonProcess.start()
        try await threeChanges(daemon)
        _ = try await daemon.todoctl("undo")
        _ = try await daemon.todoctl("add", "Buy bread")
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 1, "\(redo.stdout)")
        #expect(redo.stderr.contains("nothing to redo: change 5 (#2 created by todoctl (client"), "\(redo.stderr)")
        #expect(redo.stderr.contains("was made after the last undo, and a new change ends the redo chain, as in editors"), "\(redo.stderr)")
        let todo = try await show(daemon, "1")
        #expect(todo["priority"] as? String == "normal", "\(todo)")
        try await daemon.stop()
    }

    @Test("one client undoes while the other edits the same todo: field by field, and a redo never overwrites the other's edit")
    func undoWhileAnotherEdits() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Call plumber")
        let watch = try await TodoClient.connect(to: daemon.socketPath, program: "watch")
        _ = try await daemon.todoctl("edit", "1", "--title", "Call Bob")
        _ = try await watch.request(.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(notes: "about the boiler"))))
        // The last change is watch's: undo takes it back, and says whose it was.
        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stdout.contains("taking back change 3 by watch (client"), "\(undone.stdout)")
        // Scripts read a JSON array on stdout: the naming goes to stderr there.
        _ = try await daemon.todoctl("redo")
        let json = try await daemon.todoctl("undo", "--json")
        #expect(json.status == 0 && json.stderr.contains("taking back change 3 by watch (client"), "\(json.stderr)")
        #expect((try? jsonArray(json.stdout))?.count == 1, "\(json.stdout)")
        let notes = try await show(daemon, "1")
        #expect(notes["title"] as? String == "Call Bob" && notes["notes"] as? String == "", "\(notes)")
        // Undone again: the title edit before, not watch's notes back.
        let title = try await daemon.todoctl("undo")
        #expect(title.status == 0 && title.stdout.contains("(undo of 2)"), "\(title.stdout)\(title.stderr)")
        // Meanwhile watch sets the title: redo must not put "Call Bob" over it.
        let edited = try await watch.request(.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(title: "Call the plumber"))))
        guard case .responseTodoViewModel = edited else { throw TestFailure("expected the edit to be written, got \(edited)") }
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 1, "\(redo.stdout)")
        #expect(redo.stderr.contains("nothing to redo: change 8 (#1 updated by watch (client"), "\(redo.stderr)")
        let todo = try await show(daemon, "1")
        #expect(todo["title"] as? String == "Call the plumber" && todo["notes"] as? String == "", "\(todo)")
        await watch.close()
        try await daemon.stop()
    }

    @Test("undo names a change todoctl made at another terminal, with that terminal, before taking it back, and not one made at its own")
    func anotherTerminalNamed() async throws {
        let daemon = try await DaemonProcess.start()
        let environment = daemon.environment.merging(["NO_COLOR": "1"]) { $1 }
        let mine = try await Tmux(environment: environment)
        let theirs = try await Tmux(environment: environment)
        let todoctl = "\(binaryDirectory)/todoctl"
        try await theirs.type("\(todoctl) add 'Buy milk'; tty")
        let added = try await theirs.waitUntil("the add and the terminal's name") { $0.contains("added #1") && $0.contains("/dev/") }
        let path = added.split(separator: "\n").first { $0.hasPrefix("/dev/") }.map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
        let terminal = try #require(path, "\(added)")
        try await mine.type("\(todoctl) undo; echo \"exit=$?\"")
        let undone = try await mine.waitUntil("the undo's end") { $0.contains("exit=0") || $0.contains("exit=1") }
        #expect(undone.contains("taking back change 1 by todoctl on \(terminal) (client") && undone.contains("exit=0"), "\(undone)")
        // The user's own last command, at this terminal, is not named: they know it.
        try await mine.type("clear; \(todoctl) add Eggs && \(todoctl) undo; echo \"own=$?\"")
        let own = try await mine.waitUntil("the second undo's end") { $0.contains("own=0") || $0.contains("own=1") }
        #expect(own.contains("(undo of 3)") && !own.contains("taking back") && own.contains("own=0"), "\(own)")
        await mine.kill()
        await theirs.kill()
        try await daemon.stop()
    }

    /// Four changes: watch adds #1, todoctl adds #2 and #3 and retitles #1.
    private func fourChanges(
        _ daemon: DaemonProcess, watchAdds title: String = "Added in watch", then commands: [[String]] = [["add", "Two"], ["add", "Three"], ["edit", "2", "--title", "Second"]]
    ) async throws {
        let watch = try await TodoClient.connect(to: daemon.socketPath, program: "watch")
        _ = try await watch.request(.requestNewTodo(NewTodo(title: title)))
        await watch.close()
        for command in commands {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
    }

    @Test("undo --since above 3 changes lists them, naming watch's, and asks; no keeps them, y takes them back")
    func sinceAsksInTerminal() async throws {
        let daemon = try await DaemonProcess.start()
        try await fourChanges(daemon)
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl undo --since 1h; echo \"exit=$?\"")
        let asked = try await tmux.waitFor("Take back these 4 steps? [y/N]")
        #expect(asked.contains("#1  added    \"Added in watch\"   watch (client"), "\(asked)")
        #expect(asked.contains("#2  edited   title \"Two\" → \"Second\"   todoctl (client"), "\(asked)")
        try await tmux.type("n")
        let kept = try await tmux.waitFor("exit=1")
        #expect(kept.contains("nothing changed"), "\(kept)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.lines.count == 3, "\(listed.stdout)")
        try await tmux.type("clear; \(binaryDirectory)/todoctl undo --since 1h; echo \"exit=$?\"")
        try await tmux.waitFor("[y/N]")
        try await tmux.type("y")
        let screen = try await tmux.waitFor("exit=0")
        #expect(screen.contains("(undo of 1)"), "\(screen)")
        let left = try await daemon.todoctl("list")
        #expect(left.stdout == "no open todos\n", "\(left.stdout)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("undo --since takes back what it listed, not what another client adds while it asks: watch's todo made during the question stays, and redo puts back the four")
    func sinceWhileAnotherClientWrites() async throws {
        let daemon = try await DaemonProcess.start()
        try await fourChanges(daemon)
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl undo --since 1h; echo \"exit=$?\"")
        try await tmux.waitFor("Take back these 4 steps? [y/N]")
        let watch = try await TodoClient.connect(to: daemon.socketPath, program: "watch")
        _ = try await watch.request(.requestNewTodo(NewTodo(title: "Added while undo asked")))
        await watch.close()
        try await tmux.type("y")
        let screen = try await tmux.waitFor("exit=0")
        #expect(screen.contains("took back 4 steps"), "\(screen)")
        let left = try await daemon.todoctl("list")
        #expect(left.lines.count == 1 && left.stdout.contains("Added while undo asked"), "\(left.stdout)")
        let redone = try await daemon.todoctl("redo")
        #expect(redone.status == 0, "\(redone.stderr)")
        #expect(try await daemon.todoctl("list").lines.count == 4)
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("undo --since above 3 changes without a terminal refuses unless --yes, which names watch's change before undoing it")
    func sinceRefusesWithoutTerminal() async throws {
        let daemon = try await DaemonProcess.start()
        try await fourChanges(daemon)
        let refused = try await daemon.todoctl("undo", "--since", "1h", input: "y\n")
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("undo --since would take back 4 steps; todoctl asks before it will take back more than 3"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Pass --yes to take back all 4"), "\(refused.stderr)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.lines.count == 3, "\(listed.stdout)")
        let forced = try await daemon.todoctl("undo", "--since", "1h", "--yes")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.lines.first?.hasPrefix("taking back change 1 by watch (client") == true, "\(forced.stdout)")
        #expect(!forced.stdout.contains("by todoctl"), "\(forced.stdout)")
        let left = try await daemon.todoctl("list")
        #expect(left.stdout == "no open todos\n", "\(left.stdout)")
        try await daemon.stop()
    }

    @Test("undoing a parent's creation deletes its live subtasks with it, as rm does, in one step that redo puts back whole")
    func undoParentCreation() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "Paint the house"], ["add", "Buy paint", "--parent", "1"], ["edit", "2", "--title", "Buy white paint"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let undone = try await daemon.todoctl("undo", "1")
        #expect(undone.status == 0 && undone.lines.count == 2, "\(undone.stdout)\(undone.stderr)")
        let subtask = try await show(daemon, "2")
        #expect(subtask["deletedAt"] as? String != nil, "a live subtask of a deleted parent: \(subtask)")
        let redone = try await daemon.todoctl("redo")
        #expect(redone.status == 0 && redone.lines.count == 2, "\(redone.stdout)\(redone.stderr)")
        let parent = try await show(daemon, "1"), back = try await show(daemon, "2")
        #expect(parent["deletedAt"] is NSNull && back["deletedAt"] is NSNull && back["title"] as? String == "Buy white paint", "\(parent)\n\(back)")
        try await daemon.stop()
    }

    @Test("undo --json and redo --json print one JSON array of the changes, as the other commands that change several todos do")
    func undoJSONIsOneArray() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "Paint the house"], ["add", "Buy paint", "--parent", "1"], ["rm", "1"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        for command in ["undo", "redo"] {
            let result = try await daemon.todoctl(command, "--json")
            let changes = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
            #expect(result.status == 0 && changes?.count == 2 && changes?.allSatisfy { $0["undoes"] is Int } == true, "\(command): \(result.stdout)\(result.stderr)")
        }
        try await daemon.stop()
    }

    @Test("undo --json and redo --json with nothing to do print [] on stdout (they printed nothing, then [ and ] on two lines), the reason on stderr, exit 1")
    func nothingToDoJSONIsEmptyArray() async throws {
        let daemon = try await DaemonProcess.start()
        for command in ["undo", "redo"] {
            let result = try await daemon.todoctl(command, "--json")
            #expect(result.status == 1 && result.stderr.contains("nothing to \(command)"), "\(command): \(result.status) \(result.stderr)")
            #expect((try? jsonArray(result.stdout))?.isEmpty == true, "\(command): \(result.stdout)")
            // `[]` itself, for a script comparing to it (it was `[`, a blank line and `]`; outside probe 10).
            #expect(result.stdout == "[]\n", "\(command): \(result.stdout)")
        }
        // undo --since refused for want of a yes (more than 3 steps, no terminal) prints [] too (it printed nothing; outside probe).
        for title in ["A", "B", "C", "D"] { _ = try await daemon.todoctl("add", title) }
        let since = try await daemon.todoctl("undo", "--since", "1h", "--json")
        #expect(since.status == 1 && since.stderr.contains("cannot ask without a terminal"), "\(since.status) \(since.stderr)")
        #expect(since.stdout == "[]\n", "undo --since: \(since.stdout)")
        try await daemon.stop()
    }

    @Test("an undo that changes nothing is recorded, so the next undo steps on to the change before")
    func undoOfNothingSteps() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Call plumber")
        let added = try jsonObject(try await daemon.todoctl("log", "--json").stdout)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let at = try #require(formatter.date(from: added["at"] as? String ?? ""), "\(added)")
        // The priority raised, then lowered again by hand: undoing both changes nothing.
        _ = try await daemon.todoctl("edit", "1", "--priority", "high")
        _ = try await daemon.todoctl("edit", "1", "--priority", "normal")
        let client = try await TodoClient.connect(to: daemon.socketPath, program: "script")
        let answer = try await client.request(.requestUndo(TodoUndo(since: at.addingTimeInterval(0.001))))
        #expect(answer.kind == .responseUndo, "\(answer)")
        let next = try await daemon.todoctl("undo")
        #expect(next.status == 0 && next.stdout.contains("(undo of 1)"), "\(next.stdout)\(next.stderr)")
        try await daemon.stop()
    }

    @Test("after undo SEQ --force, undo steps on to the change before, leaving what the forced undo put back; no advice names a command that fails")
    func undoAfterForcedUndo() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "a"], ["edit", "1", "--title", "b"], ["edit", "1", "--title", "c"], ["undo", "2", "--force"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let next = try await daemon.todoctl("undo")
        #expect(next.status == 0 && next.stdout.contains("(undo of 3)"), "\(next.stdout)\(next.stderr)")
        let todo = try await show(daemon, "1")
        #expect(todo["title"] as? String == "a", "\(todo)")
        let last = try await daemon.todoctl("undo")
        #expect(last.status == 0 && last.stdout.contains("(undo of 1)"), "\(last.stdout)\(last.stderr)")
        try await daemon.stop()
    }

    /// A daemon whose #1 was added before a purge (changes 1 to 4: #2 added, deleted, purged).
    private func keptAndPurged() async throws -> DaemonProcess {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "Keep me"], ["add", "Gone"], ["rm", "2"], ["purge", "--yes"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        return daemon
    }

    @Test("after a purge, undo stops there however many changes come after, and says so without naming a change log does not show")
    func undoStopsAtPurge() async throws {
        let daemon = try await keptAndPurged()
        let right = try await daemon.todoctl("undo")
        #expect(right.status == 1 && right.stderr.contains("purge") && !right.stderr.contains(" 4"), "\(right.stdout)\(right.stderr)")
        _ = try await daemon.todoctl("add", "After the purge")
        let after = try await daemon.todoctl("undo")
        #expect(after.status == 0 && after.stdout.contains("(undo of 5)"), "\(after.stdout)\(after.stderr)")
        let stopped = try await daemon.todoctl("undo")
        #expect(stopped.status == 1 && stopped.stderr == right.stderr, "\(stopped.stdout)\(stopped.stderr)")
        let kept = try await show(daemon, "1")
        #expect(kept["deletedAt"] is NSNull, "undo reached past the purge: \(kept)")
        try await daemon.stop()
    }

    @Test("undo --since stops at a purge as undo does: it takes back the changes after it, and with none refuses as undo does, leaving a todo made before it (it deleted it; outside probe 10)")
    func sinceStopsAtPurge() async throws {
        let daemon = try await keptAndPurged()
        let refused = try await daemon.todoctl("undo", "--since", "1h")
        #expect(refused.status == 1 && refused.stderr.contains("does not step back past a purge"), "\(refused.stdout)\(refused.stderr)")
        _ = try await daemon.todoctl("add", "After the purge")
        let after = try await daemon.todoctl("undo", "--since", "1h")
        #expect(after.status == 0 && after.stdout.contains("(undo of 5)") && !after.stdout.contains("(undo of 1)"), "\(after.stdout)\(after.stderr)")
        let kept = try await show(daemon, "1")
        #expect(kept["deletedAt"] is NSNull, "undo --since reached past the purge: \(kept)")
        try await daemon.stop()
    }

    @Test("two plain undos at once take back two steps, as two undos in a row would, each saying what it took back")
    func concurrentUndos() async throws {
        let daemon = try await DaemonProcess.start()
        for number in 1...12 {
            let added = try await daemon.todoctl("add", "Todo \(number)")
            #expect(added.status == 0, "\(added.stderr)")
        }
        var undone: [String] = []
        for _ in 0..<5 {
            // Started by the shell, as a user's `todoctl undo & todoctl undo & wait` would be.
            let both = try await run("/bin/sh", ["-c", "T=\(binaryDirectory)/todoctl; " + #"$T undo & a=$!; $T undo & b=$!; wait $a; ra=$?; wait $b; echo "exits $ra $? ""#],
                                     environment: daemon.environment)
            #expect(both.stdout.contains("exits 0 0 "), "\(both.stdout)\(both.stderr)")
            #expect(!both.stderr.contains("--force") && !both.stderr.contains("todoctl undo "), "\(both.stderr)")
            undone += both.lines.compactMap { line in line.range(of: #"\(undo of \d+\)"#, options: .regularExpression).map { String(line[$0]) } }
        }
        // Each took back its own step: the ten newest adds, none twice.
        #expect(Set(undone) == Set((3...12).map { "(undo of \($0))" }) && undone.count == 10, "\(undone)")
        let left = try await daemon.todoctl("list")
        #expect(left.lines.count == 2, "\(left.stdout)")
        try await daemon.stop()
    }

    @Test("undo --since on an empty journal says the journal is empty, as undo does (it said no change made since then is still in effect; outside probe 10)")
    func sinceOnEmptyJournal() async throws {
        let daemon = try await DaemonProcess.start()
        for arguments in [["undo", "--since", "10m"], ["undo"]] {
            let result = try await daemon.todoctl(arguments)
            #expect(result.status == 1 && result.stderr.hasPrefix("todoctl: nothing to undo: the journal is empty"), "\(arguments): \(result.status) \(result.stderr)")
        }
        try await daemon.stop()
    }

    @Test("redo where nothing was ever undone says so, naming no undo that never happened")
    func redoWithoutUndo() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "A")
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 1, "\(redo.stdout)")
        #expect(redo.stderr.contains("nothing to redo: nothing has been undone") && !redo.stderr.contains("after the last undo"), "\(redo.stderr)")
        try await daemon.stop()
    }

    @Test("redo after a purge took the undone change away says the purge did, not that nothing was undone")
    func redoAfterPurgeOfTheUndone() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "A"], ["add", "B"], ["undo"], ["purge", "--yes"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 1, "\(redo.stdout)")
        #expect(redo.stderr.contains("nothing to redo: a purge") && !redo.stderr.contains("nothing has been undone"), "\(redo.stderr)")
        try await daemon.stop()
    }

    @Test("redo does not reach back past a purge: the change that ended the chain, purged, does not let an old undo be redone")
    func redoStopsAtAPurge() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "A"], ["add", "B"], ["rm", "1", "2"], ["undo"], ["rm", "1"], ["purge", "--yes"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 1 && redo.stderr.contains("nothing to redo: a purge"), "\(redo.stdout)\(redo.stderr)")
        let left = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
        #expect(left.compactMap { $0["title"] as? String } == ["B"], "the redo deleted B: \(left)")
        try await daemon.stop()
    }

    @Test("after a purge, redo's refusal does not point at an undo that would be refused")
    func redoAfterPurgeNamesNoRefusedUndo() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "A"], ["edit", "1", "--title", "B"], ["undo"], ["edit", "1", "--notes", "n"], ["add", "Gone"], ["rm", "2"], ["purge", "--yes"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let undo = try await daemon.todoctl("undo")
        #expect(undo.status == 1 && undo.stderr.contains("purge"), "\(undo.stdout)\(undo.stderr)")
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 1, "\(redo.stdout)")
        #expect(redo.stderr.contains("nothing to redo: change 4 (#1 updated by todoctl (client") && !redo.stderr.contains("todoctl undo"), "\(redo.stderr)")
        try await daemon.stop()
    }

    @Test("a change todod makes itself (a todo's waiting ended at midnight) is named todod in log, history and undo, not client 0")
    func daemonsOwnChangeNamed() async throws {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2031-01-02T23:59:58Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: clock)
        let added = try await daemon.todoctl("add", "Call the bank", "--wait", "2031-01-03", environment: clock)
        #expect(added.status == 0, "\(added.stderr)")
        let watcher = try daemon.connect()
        _ = try await watcher.awaitLine(containing: "responseHello")
        try now.set("2031-01-03T00:00:01Z")
        _ = try await watcher.awaitLine(containing: #""change":"updated""#, #""title":"Call the bank""#)
        for command in [["log"], ["history", "1"]] {
            let result = try await run("todoctl", command, environment: daemon.environment.merging(clock) { $1 })
            #expect(result.status == 0 && result.lines.last?.hasSuffix("todod") == true && !result.stdout.contains("client 0"), "\(command): \(result.stdout)\(result.stderr)")
        }
        let undone = try await daemon.todoctl("undo", environment: clock)
        #expect(undone.status == 0 && undone.stdout.contains("taking back change 2 by todod: #1"), "\(undone.stdout)\(undone.stderr)")
        try await daemon.stop()
    }

    @Test("reopen or undo of a completion whose next occurrence was edited or done since leaves one open occurrence: the reopened one stops repeating")
    func oneOpenOccurrence() async throws {
        for touch in [["done", "2"], ["edit", "2", "--title", "Feed the cat"]] {
            for back in [["reopen", "1"], ["undo", "2"]] {
                let daemon = try await DaemonProcess.start(environment: fixedClock)
                let environment = daemon.environment.merging(fixedClock) { $1 }
                for command in [["add", "Feed cat", "--due", "today", "--every", "daily"], ["done", "1"], touch, back] {
                    let result = try await run("todoctl", command, environment: environment)
                    #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
                }
                let open = try jsonArray(try await run("todoctl", ["list", "--json"], environment: environment).stdout)
                let repeating = open.filter { !($0["recurrence"] is NSNull) && $0["recurrence"] != nil }.compactMap { $0["number"] as? Int }
                #expect(repeating.count == 1, "\(touch) then \(back): open repeating occurrences \(repeating) of \(open)")
                let first = try await show(daemon, "1")
                #expect(first["completedAt"] is NSNull && first["recurrence"] is NSNull, "\(touch) then \(back): \(first)")
                // Done again, it makes no second next occurrence: the series goes on from the kept one.
                let done = try await run("todoctl", ["done", "1"], environment: environment)
                #expect(done.status == 0 && done.lines.count == 1, "\(done.stdout)\(done.stderr)")
                let after = try jsonArray(try await run("todoctl", ["list", "--json"], environment: environment).stdout)
                #expect(after.filter { !($0["recurrence"] is NSNull) && $0["recurrence"] != nil }.count == 1, "\(after)")
                try await daemon.stop()
            }
        }
    }

    @Test("restoring a deleted next occurrence (or undoing its delete) while the one it repeats is open again stops that one repeating: one open occurrence")
    func restoredOccurrence() async throws {
        for back in [["restore", "2"], ["undo", "4"]] {
            let daemon = try await DaemonProcess.start(environment: fixedClock)
            let environment = daemon.environment.merging(fixedClock) { $1 }
            // Change 4 deletes #2, the occurrence #1's completion made; then #1 is reopened.
            for command in [["add", "Feed cat", "--due", "today", "--every", "daily"], ["done", "1"], ["rm", "2"], ["reopen", "1"], back] {
                let result = try await run("todoctl", command, environment: environment)
                #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
            }
            let open = try jsonArray(try await run("todoctl", ["list", "--json"], environment: environment).stdout)
            let repeating = open.filter { !($0["recurrence"] is NSNull) && $0["recurrence"] != nil }.compactMap { $0["number"] as? Int }
            #expect(open.count == 2 && repeating == [2], "\(back): open repeating occurrences \(repeating) of \(open)")
            try await daemon.stop()
        }
    }

    @Test("undoing a repeating todo's completion keeps a next occurrence completed or edited since, as reopen does")
    func undoCompletionKeepsTouchedOccurrence() async throws {
        for touch in [["done", "2"], ["edit", "2", "--title", "Feed the cat"]] {
            let daemon = try await DaemonProcess.start(environment: fixedClock)
            for command in [["add", "Feed cat", "--due", "today", "--every", "daily"], ["done", "1"], touch] {
                let result = try await run("todoctl", command, environment: daemon.environment.merging(fixedClock) { $1 })
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
            // Change 2 is #1's completion, which made #2.
            let undone = try await daemon.todoctl("undo", "2", environment: fixedClock)
            #expect(undone.status == 0, "\(touch): \(undone.stdout)\(undone.stderr)")
            let first = try await show(daemon, "1")
            #expect(first["completedAt"] is NSNull, "\(touch): \(first)")
            let occurrence = try await show(daemon, "2")
            #expect(occurrence["deletedAt"] is NSNull, "\(touch): the touched occurrence was deleted: \(occurrence)")
            if touch[0] == "done" { #expect(!(occurrence["completedAt"] is NSNull), "\(occurrence)") }
            else { #expect(occurrence["title"] as? String == "Feed the cat", "\(occurrence)") }
            try await daemon.stop()
        }
    }
}

extension UndoRedoTests {
    @Test("in 40 columns log, undo --since (its list and its naming of watch's change) and undo's lines stay within them, cut with … (they ran past the edge and wrapped; outside probe)")
    func narrowUndoAndLog() async throws {
        let daemon = try await DaemonProcess.start()
        try await fourChanges(
            daemon, watchAdds: "東京で会議の準備をするとても長いタイトル",
            then: [["add", "Water the plants on the balcony every morning"], ["add", "Three"], ["edit", "2", "--title", "Water the ferns 🌿 on the balcony"]])
        let narrow = ["COLUMNS": "40"]
        let log = try await daemon.todoctl("log", environment: narrow)
        #expect(log.lines.count == 4 && log.lines.allSatisfy { terminalColumns(of: $0) <= 40 }, "\(log.stdout)")
        #expect(log.lines.allSatisfy { $0.first?.isNumber == true && $0.last != " " } && log.lines.contains { $0.hasSuffix("…") }, "\(log.stdout)")
        // A pipe without COLUMNS is not cut: a script reads the whole line.
        let whole = try await daemon.todoctl("log")
        #expect(whole.lines.contains { $0.contains("\"Water the ferns 🌿 on the balcony\"   todoctl (client") }, "\(whole.stdout)")

        // In a 40-column terminal, the list undo --since asks about keeps a line a change.
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1", "PATH": binaryDirectory + ":/usr/bin:/bin"]) { $1 })
        try await tmux.resize(columns: 40, rows: 20)
        try await tmux.type("clear; todoctl undo --since 1h")
        let asked = try await tmux.waitFor("[y/N]")
        // A line a change, watch's named, then the question: no line wrapped into another.
        let shown = asked.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("$") }
        #expect(shown.count == 5 && shown.prefix(4).allSatisfy { $0.hasPrefix("  ") && $0.contains("#") }, "\(asked)")
        #expect(shown.first?.hasSuffix("   watch (client 1)") == true && shown.contains { $0.hasSuffix("…") }, "\(asked)")
        try await tmux.type("n")
        try await tmux.waitFor("nothing changed")
        await tmux.kill()

        let undone = try await daemon.todoctl("undo", "--since", "1h", "--yes", environment: narrow)
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.lines.allSatisfy { terminalColumns(of: $0) <= 40 }, "\(undone.stdout)")
        // The naming of watch's change is wrapped between words, not cut: all of it is there.
        #expect(undone.stdout.replacingOccurrences(of: "\n", with: " ").contains("taking back change 1 by watch (client"), "\(undone.stdout)")
        // What it took back, a line a change after "took back 4 steps:".
        let changed = undone.lines.drop { !$0.hasPrefix("took back 4 steps") }.dropFirst()
        #expect(!changed.isEmpty && changed.allSatisfy { $0.range(of: #"^ *[0-9]+  #[0-9]"#, options: .regularExpression) != nil }, "\(undone.stdout)")
        // A done says nothing after its padded verb: without the author, the line ended in its spaces.
        let added = try await daemon.todoctl("add", "Four", "--json")
        let done = try await daemon.todoctl("done", String(try jsonObject(added.stdout)["number"] as? Int ?? 0))
        #expect(done.status == 0, "\(done.stderr)")
        let last = try await daemon.todoctl("log", "--limit", "1", environment: narrow)
        #expect(last.lines.count == 1 && last.lines[0].hasSuffix("  done"), "\(last.stdout.debugDescription)")
        try await daemon.stop()
    }
}
