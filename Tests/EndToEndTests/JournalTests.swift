import Foundation
import Testing
import TodoClient
import TodoEvents
import TodoModel

/// History and undo through the real todoctl and todod, each scenario ending with
/// `todod --check` agreeing that the journal rebuilds the table.
@Suite("The journal: history and undo")
struct JournalTests {
    /// The todo `ref` as `show --json` prints it.
    private func show(_ daemon: DaemonProcess, _ ref: String) async throws -> [String: Any] {
        try jsonObject(try await daemon.todoctl("show", ref, "--json").stdout)
    }

    /// Each line of a `--json` listing of changes.
    private func changes(_ result: CommandResult) throws -> [[String: Any]] {
        try result.lines.map(jsonObject)
    }

    private func expectCheckPasses(_ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let check = try await daemon.check()
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        #expect(check.stdout.contains("the journal rebuilds the table exactly"), sourceLocation: sourceLocation)
    }

    @Test("history shows every kind of change to a todo, oldest first, with who made it")
    func historyOfEveryKind() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Call plumber")
        _ = try await daemon.todoctl("edit", "1", "--title", "Call the plumber about the boiler")
        for command in ["done", "reopen", "rm", "restore"] { _ = try await daemon.todoctl(command, "1") }
        let json = try changes(try await daemon.todoctl("history", "1", "--json"))
        #expect(json.map { $0["change"] as? String } == ["created", "updated", "completed", "reopened", "deleted", "restored"])
        #expect(json.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(json.allSatisfy { $0["program"] as? String == "todoctl" })
        #expect(json[1].path("before", "title") as? String == "Call plumber")
        #expect(json[1].path("todo", "title") as? String == "Call the plumber about the boiler")
        let readable = try await daemon.todoctl("history", "1")
        #expect(readable.lines.count == 6)
        #expect(readable.lines[1].contains(#"edited   title "Call plumber" → "Call the plumber about the boiler""#))
        #expect(readable.lines[1].contains("todoctl (client 2)"))
        let missing = try await daemon.todoctl("history", "9")
        #expect(missing.status == 1 && missing.stderr.contains("no todo #9"))
        try await expectCheckPasses(daemon)
        try await daemon.stop()
    }

    /// A field of `show --json` in words: a time as "set", null as "none".
    private func field(_ name: String, of daemon: DaemonProcess) async throws -> String {
        let value = try await show(daemon, "1")[name]
        if value is NSNull { return "none" }
        return name.hasSuffix("At") ? "set" : "\(value ?? "?")"
    }

    @Test("each kind of change is undone, and redo puts it back", arguments: [
        (["edit", "1", "--priority", "high"], "priority", "normal", "high"),
        (["done", "1"], "completedAt", "none", "set"),
        (["rm", "1"], "deletedAt", "none", "set"),
    ])
    func undoAndRedo(command: [String], name: String, original: String, changed: String) async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Water the plants")
        let result = try await run("todoctl", command, environment: daemon.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let fieldNow = try await field(name, of: daemon)
        #expect(fieldNow == changed)
        let undo = try await daemon.todoctl("undo")
        #expect(undo.status == 0 && undo.stdout.contains("(undo of 2)"), "\(undo.stdout)\(undo.stderr)")
        let fieldNow2 = try await field(name, of: daemon)
        #expect(fieldNow2 == original)
        let redo = try await daemon.todoctl("redo")
        #expect(redo.status == 0 && redo.stdout.contains("(redo of 3)"), "\(redo.stdout)\(redo.stderr)")
        let fieldNow3 = try await field(name, of: daemon)
        #expect(fieldNow3 == changed)
        let todo2 = try await show(daemon, "1")
        #expect(todo2["revision"] as? Int == 4)
        try await expectCheckPasses(daemon)
        try await daemon.stop()
    }

    @Test("undoing an add deletes the todo softly, and redoing restores it")
    func undoCreate() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Oops")
        let undone = try await daemon.todoctl("undo")
        #expect(undone.stdout.contains("deleted"))
        let todo = try await show(daemon, "1")
        #expect(todo["deletedAt"] is String)
        let undone2 = try await daemon.todoctl("redo")
        #expect(undone2.stdout.contains("restored"), "\(undone2.stdout)\(undone2.stderr)")
        let todo2 = try await show(daemon, "1")
        #expect(todo2["deletedAt"] is NSNull)
        try await expectCheckPasses(daemon)
        try await daemon.stop()
    }

    @Test("log on an empty journal, or with nothing since then, says so, exit 0 (it printed nothing); --json stays an empty stream (outside probe)")
    func emptyLog() async throws {
        let daemon = try await DaemonProcess.start()
        let empty = try await daemon.todoctl("log")
        #expect(empty.status == 0 && empty.stdout == "no changes yet: the journal is empty (todoctl add makes the first)\n", "\(empty)")
        let limited = try await daemon.todoctl("log", "--limit", "5")
        #expect(limited.status == 0 && limited.stdout == empty.stdout, "\(limited)")
        let json = try await daemon.todoctl("log", "--json")
        #expect(json.status == 0 && json.stdout.isEmpty, "\(json)")
        _ = try await daemon.todoctl("add", "x")
        let since = try await daemon.todoctl("log", "--since", "0s")
        #expect(since.status == 0 && since.stdout == "no changes since then: todoctl log without --since shows them all\n", "\(since)")
        try await daemon.stop()
    }

    @Test("a --since before year 1 is a usage error, not a protocol error with an internal date")
    func sinceBeforeYearOne() async throws {
        let daemon = try await DaemonProcess.start()
        let log = try await daemon.todoctl("log", "--since", "99999999d")
        #expect(log.status == 64)
        #expect(log.stderr.contains("99999999d"), "\(log.stderr)")
        #expect(!log.stderr.contains("ISO 8601"))
        try await daemon.stop()
    }

    @Test("after a purge, undo says the purge cannot be undone instead of taking back an older change")
    func undoAfterPurge() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "A")
        _ = try await daemon.todoctl("add", "B")
        _ = try await daemon.todoctl("rm", "1")
        let purged2 = try await daemon.todoctl("purge", "--yes")
        #expect(purged2.status == 0, "\(purged2.stderr)")
        let undo = try await daemon.todoctl("undo")
        #expect(undo.status == 1)
        #expect(undo.stderr.contains("undo does not step back past a purge"), "\(undo.stderr)")
        let named = try await daemon.todoctl("undo", "3")
        #expect(named.stderr.contains("change 3 is not in the journal: it was a purge, or a change to todos purged since"), "\(named.stderr)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout == "#2 [ ]   B\n")
        try await daemon.stop()
    }

    @Test("an undo that would put back a parent the subtask rules refuse (a cycle, a purged parent) is refused, even --force")
    func undoKeepsSubtaskRules() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "P")
        _ = try await daemon.todoctl("add", "K", "--parent", "1")
        _ = try await daemon.todoctl("edit", "2", "--no-parent")
        _ = try await daemon.todoctl("edit", "1", "--parent", "2")
        for force in [false, true] {
            let cycle = try await run("todoctl", ["undo", "3"] + (force ? ["--force"] : []), environment: daemon.environment)
            #expect(cycle.status == 1)
            #expect(cycle.stderr.contains("cannot undo: it would make #2 a subtask of #1, but #1 is itself a subtask of #2"), "\(cycle.stderr)")
        }
        let listed = try await daemon.todoctl("list", "-a")
        #expect(listed.lines == ["#2 [ ]   K [0/1]", "#1 [ ]     P"])

        _ = try await daemon.todoctl("edit", "1", "--no-parent")
        _ = try await daemon.todoctl("rm", "1")
        _ = try await daemon.todoctl("purge", "--yes")
        let purged = try await daemon.todoctl("undo", "3")
        #expect(purged.status == 1)
        #expect(purged.stderr.contains("there is no todo #1"), "\(purged.stderr)")
        let todo2 = try await show(daemon, "2")
        #expect(todo2["parent"] is NSNull)
        try await daemon.stop()
    }

    @Test("an undo over more than 1000 changes is refused at once, and writes go on; an import of 1001 is undone in steps of about 800")
    func undoTooLarge() async throws {
        let daemon = try await DaemonProcess.start()
        let lines = (1...1001).map { "Task \($0)" }.joined(separator: "\n") + "\n"
        let imported = try await daemon.todoctl("import", "--from", "todotxt", input: lines)
        #expect(imported.status == 0, "\(imported.stderr)")
        let undo = try await daemon.todoctl("undo", "--since", "1h")
        #expect(undo.status == 1)
        #expect(undo.stderr.contains("that undo would take back 1001 changes at once; the most is 1000"), "\(undo.stderr)")
        let added2 = try await daemon.todoctl("add", "after")
        #expect(added2.stdout == "added #1002 after\n")
        // The import, one command, went into steps of at most about 800 changes, which plain undo takes.
        var taken: [Int] = []
        for _ in 0..<3 {
            let undone = try await daemon.todoctl("undo")
            #expect(undone.status == 0, "\(undone.stderr)")
            taken.append(undone.lines.count)
        }
        #expect(taken.first == 1 && taken.dropFirst().reduce(0, +) == 1001 && taken.allSatisfy { $0 <= 800 + 64 }, "\(taken)")
        #expect(try await daemon.todoctl("list").stdout == "no open todos\n")
        try await daemon.stop()
    }

    @Test("an undo that would change nothing is journaled as a change of no field, so the same undo again finds nothing left")
    func noOpUndo() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "A", "--due", "2099-01-01")
        // Two changes that cancel out: taken back together, they change nothing.
        _ = try await daemon.todoctl("edit", "1", "--title", "B")
        _ = try await daemon.todoctl("edit", "1", "--title", "A")
        let before = try await show(daemon, "1")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stamp = try #require(try changes(try await daemon.todoctl("log", "--json"))[1]["at"] as? String)
        let since = try #require(formatter.date(from: stamp))
        let path = daemon.socketPath
        let first = try await blocking { try TodoConnection(path: path).request(.requestUndo(TodoUndo(since: since))) }
        guard case .responseUndo(let list) = first, list.changes.count == 1, list.changes[0].fieldChanges.isEmpty else {
            throw TestFailure("expected one change of no field, got \(first)")
        }
        var refusal = "answered"
        do { _ = try await blocking { try TodoConnection(path: path).request(.requestUndo(TodoUndo(since: since))) } } catch { refusal = "\(error)" }
        #expect(refusal.contains("no change made since then is still in effect"), "\(refusal)")
        let after = try await show(daemon, "1")
        #expect(after["revision"] as? Int == (before["revision"] as? Int).map { $0 + 1 }, "\(after)")
        #expect(after["title"] as? String == "A" && after["deletedAt"] as? String == before["deletedAt"] as? String, "\(after)")
        let logged = try await daemon.todoctl("log")
        #expect(logged.lines.count == 4 && logged.lines.last?.contains("no field left to change (undo of 2)") == true, "\(logged.stdout)")
        try await daemon.stop()
    }

    @Test("an undo of a field changed again since is a conflict naming the later change; --force applies it")
    func conflictingUndo() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "first")
        _ = try await daemon.todoctl("edit", "1", "--title", "second")
        _ = try await daemon.todoctl("edit", "1", "--title", "third")
        let refused = try await daemon.todoctl("undo", "2")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("title was changed again by change 3"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--force"))
        let todo = try await show(daemon, "1")
        #expect(todo["title"] as? String == "third")
        let undone = try await daemon.todoctl("undo", "2", "--force")
        #expect(undone.status == 0, "\(undone.stderr)")
        let todo2 = try await show(daemon, "1")
        #expect(todo2["title"] as? String == "first")
        try await expectCheckPasses(daemon)
        try await daemon.stop()
    }

    @Test("undo --since takes back every change since then as one step, which one redo puts back")
    func undoSince() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "kept")
        _ = try await daemon.todoctl("add", "new")
        _ = try await daemon.todoctl("edit", "1", "--title", "renamed", "--notes", "more")
        _ = try await daemon.todoctl("done", "1")
        let log = try changes(try await daemon.todoctl("log", "--json"))
        #expect(log.map { $0["seq"] as? Int } == [1, 2, 3, 4])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stamp = try #require(log[1]["at"] as? String)
        let since = try #require(formatter.date(from: stamp))
        let path = daemon.socketPath
        let answer = try await blocking { try TodoConnection(path: path).request(.requestUndo(TodoUndo(since: since))) }
        guard case .responseUndo(let list) = answer else { throw TestFailure("expected responseUndo, got \(answer)") }
        #expect(Set(list.changes.map(\.todo.number)) == [1, 2])
        #expect(Set(list.changes.map(\.step)).count == 1)
        let first = try await show(daemon, "1")
        #expect(first["title"] as? String == "kept")
        #expect(first["notes"] as? String == "")
        #expect(first["completedAt"] is NSNull)
        let second = try await show(daemon, "2")
        #expect(second["deletedAt"] is String)
        // One redo puts all of it back.
        let undone = try await daemon.todoctl("redo")
        #expect(undone.status == 0, "\(undone.stderr)")
        let firstRedone = try await show(daemon, "1")
        #expect(firstRedone["title"] as? String == "renamed")
        #expect(firstRedone["completedAt"] is String)
        let secondRedone = try await show(daemon, "2")
        #expect(secondRedone["deletedAt"] is NSNull)
        // The command line's --since: durations and dates.
        let logged = try await daemon.todoctl("log", "--since", "1h")
        #expect(logged.lines.count == 8)
        let logged2 = try await daemon.todoctl("log", "--since", "2099-01-01")
        #expect(logged2.lines.isEmpty)
        let logged3 = try await daemon.todoctl("log", "--limit", "2")
        #expect(logged3.lines.count == 2)
        try await expectCheckPasses(daemon)
        try await daemon.stop()
    }

    @Test("two clients: one undoes its title edit while the other has edited the notes; both hear the undo")
    func twoClients() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Call plumber")
        let other = try await TodoClient.connect(to: daemon.socketPath, program: "watch")
        _ = try await daemon.todoctl("edit", "1", "--title", "Call Bob")
        _ = try await other.request(.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(notes: "about the boiler"))))
        let undone = try await daemon.todoctl("undo", "2")
        #expect(undone.status == 0, "\(undone.stderr)")
        let todo = try await show(daemon, "1")
        #expect(todo["title"] as? String == "Call plumber" && todo["notes"] as? String == "about the boiler")
        var broadcasts = other.broadcasts.makeAsyncIterator()
        var kinds: [UInt64] = []
        while kinds.last != 4, let next = await broadcasts.next() {
            if case .frame(let frame) = next, case .responseTodoViewModel(let change) = frame.event { kinds.append(change.sequence) }
        }
        #expect(kinds == [2, 3, 4])
        let history = try changes(try await daemon.todoctl("history", "1", "--json"))
        #expect(history.map { $0["program"] as? String } == ["todoctl", "todoctl", "watch", "todoctl"])
        #expect(history.last?["undoes"] as? Int == 2)
        await other.close()
        try await expectCheckPasses(daemon)
        try await daemon.stop()
    }
}
