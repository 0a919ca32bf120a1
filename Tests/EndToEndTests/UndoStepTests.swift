import Foundation
import TestHarness
import Testing

/// One undo per command: the changes a todoctl command makes over several requests (a bulk
/// `done`, `edit`, `rm`, an import in batches) are one journal step, which `undo` and `redo`
/// take back whole, through the real todoctl and todod; and a step another client's change
/// lands in the middle of, through a raw socket naming the step as a script would.
@Suite("One undo per command")
struct UndoStepTests {
    /// The todo `ref` as `show --json` prints it.
    private func show(_ daemon: DaemonProcess, _ ref: String) async throws -> [String: Any] {
        try jsonObject(try await daemon.todoctl("show", ref, "--json").stdout)
    }

    private func succeed(_ daemon: DaemonProcess, _ commands: [[String]]) async throws {
        for command in commands {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
    }

    @Test("one undo takes back a whole bulk command (edit 1 2 -t x, done 1 2 3, rm 1 2, an import of 9), and one redo puts it back")
    func bulkCommandsAreOneStep() async throws {
        let daemon = try await DaemonProcess.start()
        try await succeed(daemon, [["add", "One"], ["add", "Two"], ["add", "Three"], ["edit", "1", "2", "-t", "x"]])
        let untagged = try await daemon.todoctl("undo")
        #expect(untagged.status == 0 && untagged.lines.count == 2, "\(untagged.stdout)\(untagged.stderr)")
        for ref in ["1", "2"] {
            let todo = try await show(daemon, ref)
            #expect(todo["tags"] as? [String] == [], "#\(ref) kept its tag: \(todo)")
        }
        let retagged = try await daemon.todoctl("redo")
        #expect(retagged.status == 0 && retagged.lines.count == 2, "\(retagged.stdout)\(retagged.stderr)")
        #expect(try await show(daemon, "1")["tags"] as? [String] == ["x"], "the redo left #1 out")

        try await succeed(daemon, [["done", "1", "2", "3"]])
        let reopened = try await daemon.todoctl("undo")
        #expect(reopened.status == 0 && reopened.lines.count == 3, "\(reopened.stdout)\(reopened.stderr)")
        #expect(try await daemon.todoctl("list").lines.count == 3, "an undo left a todo done")

        try await succeed(daemon, [["rm", "1", "2"]])
        let restored = try await daemon.todoctl("undo")
        #expect(restored.status == 0 && restored.lines.count == 2, "\(restored.stdout)\(restored.stderr)")

        let file = try makeTemporaryDirectory() + "/todo.txt"
        try (1...9).map { "Imported \($0)" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try await succeed(daemon, [["import", "--from", "todotxt", file]])
        #expect(try await daemon.todoctl("list").lines.count == 12)
        let unimported = try await daemon.todoctl("undo")
        #expect(unimported.status == 0 && unimported.lines.count == 9, "\(unimported.stdout)\(unimported.stderr)")
        let left = try await daemon.todoctl("list")
        #expect(left.lines.count == 3, "\(left.stdout)")
        try await daemon.stop()
    }

    /// Sends one request frame and returns its answer's line (the frame with its id).
    private func request(_ connection: RawConnection, _ frame: String, id: String) async throws -> String {
        try connection.send(frame + "\n")
        return try await connection.awaitLine(containing: #""id":"\#(id)""#)
    }

    /// The number after `"key":` in a JSON line (the first one).
    private func number(_ key: String, in line: String) -> UInt64? {
        guard let range = line.range(of: #""\#(key)":(\d+)"#, options: .regularExpression) else { return nil }
        return UInt64(line[range].drop { !$0.isNumber })
    }

    @Test("one undo takes back a whole command that completed a repeating todo and then the next occurrence it made: both reopened, both occurrences it made deleted, the rule kept; redo puts it back (outside probe)")
    func undoTakesBackOccurrencesTheStepCompleted() async throws {
        let daemon = try await DaemonProcess.start()
        try await succeed(daemon, [["add", "Rec", "due:mon", "recur:weekly"]])
        // As todoctl's done 1 2 sent it before it read its numbers first: #2 is the one done #1 makes.
        let script = try daemon.connect()
        _ = try await script.awaitLine(containing: "responseHello")
        let first = try await request(script, #"{"event":"requestCompleteTodo","id":"c1","program":"script","data":1}"#, id: "c1")
        // The add was change 1, so done #1 is change 2, which begins the step (its answer's first seq is its further change's).
        let step = 2
        #expect(first.contains(#""seq":\#(step)"#) && first.contains(#""change":"created""#), "\(first)")
        let second = try await request(script, #"{"event":"requestCompleteTodo","id":"c2","step":\#(step),"data":2}"#, id: "c2")
        #expect(number("step", in: second) == UInt64(step), "\(second)")
        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        let rec = try await show(daemon, "1")
        #expect(rec["completedAt"] is NSNull && rec["recurrence"] is [String: Any], "#1 not reopened with its rule: \(rec)\n\(undone.stdout)")
        for ref in ["2", "3"] {
            let occurrence = try await show(daemon, ref)
            #expect(occurrence["deletedAt"] as? String != nil, "#\(ref) was left: \(occurrence)\n\(undone.stdout)")
        }
        let redone = try await daemon.todoctl("redo")
        #expect(redone.status == 0, "\(redone.stdout)\(redone.stderr)")
        #expect(try await daemon.todoctl("list").lines.count == 1, "the redo left more than #3 open")
        #expect(try await show(daemon, "2")["completedAt"] as? String != nil, "the redo left #2 open")
        // todoctl's own done 1 2 now names no #2 (it is no todo when typed), and its undo takes back done #1 whole.
        let command = try await daemon.todoctl("done", "3", "4")
        #expect(command.status == 1 && command.stderr.contains("no todo #4"), "\(command)")
        let undoCommand = try await daemon.todoctl("undo")
        #expect(undoCommand.status == 0, "\(undoCommand.stdout)\(undoCommand.stderr)")
        let three = try await show(daemon, "3")
        #expect(three["completedAt"] is NSNull && three["recurrence"] is [String: Any], "\(three)")
        #expect(try await show(daemon, "4")["deletedAt"] as? String != nil, "\(undoCommand.stdout)")
        try await daemon.stop()
    }

    @Test("two clients: a script's two-request step goes on around todoctl's edit; undo takes back the whole script step first, then the edit; redo in reverse")
    func stepAroundAnotherClientsEdit() async throws {
        let daemon = try await DaemonProcess.start()
        try await succeed(daemon, [["add", "One"], ["add", "Two"], ["add", "Three"]])
        let script = try daemon.connect()
        _ = try await script.awaitLine(containing: "responseHello")
        let first = try await request(script, #"{"event":"requestCompleteTodo","id":"c1","program":"script","data":1}"#, id: "c1")
        let step = try #require(number("seq", in: first), "\(first)")
        try await succeed(daemon, [["edit", "3", "--title", "Third"]])
        let second = try await request(script, #"{"event":"requestCompleteTodo","id":"c2","step":\#(step),"data":2}"#, id: "c2")
        #expect(number("step", in: second) == step && number("seq", in: second) == step + 2, "\(second)")

        let log = try await daemon.todoctl("log")
        #expect(log.lines.last?.contains("(step \(step))") == true, "\(log.stdout)")
        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(undone.stdout.contains("taking back change \(step) by script (client") && undone.stdout.contains("taking back change \(step + 2) by script (client"), "\(undone.stdout)")
        #expect(try await daemon.todoctl("list").lines.count == 3, "the script's step was not taken back whole")
        #expect(try await show(daemon, "3")["title"] as? String == "Third", "the edit in between was taken back with the step")
        let edit = try await daemon.todoctl("undo")
        #expect(edit.status == 0 && edit.stdout.contains("(undo of \(step + 1))"), "\(edit.stdout)\(edit.stderr)")
        #expect(try await show(daemon, "3")["title"] as? String == "Three")
        let redoEdit = try await daemon.todoctl("redo")
        #expect(redoEdit.status == 0 && redoEdit.lines.count == 1, "\(redoEdit.stdout)\(redoEdit.stderr)")
        let redoStep = try await daemon.todoctl("redo")
        #expect(redoStep.status == 0 && redoStep.lines.count == 2, "\(redoStep.stdout)\(redoStep.stderr)")
        #expect(try await daemon.todoctl("list").lines.count == 1, "the redo did not complete both")
        // After an undo, naming the step again starts a new one: an undo ends a step, as it ends a redo chain.
        _ = try await daemon.todoctl("undo")
        let after = try await request(script, #"{"event":"requestDeleteTodo","id":"d1","step":\#(step),"data":3}"#, id: "d1")
        #expect(number("step", in: after) == nil && after.contains(#""change":"deleted""#), "\(after)")
        try await daemon.stop()
    }

    @Test("undo --since counts steps, as it takes them back: 3 steps of 4 changes do not ask; 4 steps are listed with their changes, counted, and said taken back")
    func sinceCountsSteps() async throws {
        let daemon = try await DaemonProcess.start()
        // Two adds, then one command completing both: 3 steps, 4 changes.
        try await succeed(daemon, [["add", "One"], ["add", "Two"], ["done", "1", "2"]])
        let three = try await daemon.todoctl("undo", "--since", "1h")
        #expect(three.status == 0, "asked about 3 steps: \(three.stdout)\(three.stderr)")
        #expect(three.lines.first == "took back 3 steps (4 changes):", "\(three.stdout)")
        #expect(try await daemon.todoctl("list").stdout == "no open todos\n")
        // 4 steps of 5 changes: refused without a terminal, in steps, the command's second change marked.
        try await succeed(daemon, [["add", "Three"], ["add", "Four"], ["add", "Five"], ["done", "3", "4"]])
        let refused = try await daemon.todoctl("undo", "--since", "1h", input: "y\n")
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("undo --since would take back 4 steps (5 changes); todoctl asks before it will take back more than 3"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Pass --yes to take back all 4"), "\(refused.stderr)")
        let taken = try await daemon.todoctl("undo", "--since", "1h", "--yes")
        #expect(taken.status == 0 && taken.lines.first == "took back 4 steps (5 changes):", "\(taken.stdout)\(taken.stderr)")
        try await daemon.stop()
    }

    @Test("another program's step of more changes than 3 is named once before undo takes it back, not a line a change")
    func longStepNamedOnce() async throws {
        let daemon = try await DaemonProcess.start()
        try await succeed(daemon, (1...5).map { ["add", "Todo \($0)"] })
        let script = try daemon.connect()
        _ = try await script.awaitLine(containing: "responseHello")
        let first = try await request(script, #"{"event":"requestCompleteTodo","id":"c1","program":"script","data":1}"#, id: "c1")
        let step = try #require(number("seq", in: first), "\(first)")
        for ref in 2...5 { _ = try await request(script, #"{"event":"requestCompleteTodo","id":"c\#(ref)","step":\#(step),"data":\#(ref)}"#, id: "c\(ref)") }
        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0 && undone.lines.filter { $0.hasPrefix("taking back") }.count == 1, "\(undone.stdout)\(undone.stderr)")
        #expect(undone.stdout.contains("taking back step \(step) by script (client") && undone.stdout.contains("its 5 changes"), "\(undone.stdout)")
        #expect(undone.lines.filter { $0.contains("reopened") }.count == 5, "\(undone.stdout)")
        try await daemon.stop()
    }

    @Test("a step that is not one the connection began is refused, saying what to send")
    func foreignStepRefused() async throws {
        let daemon = try await DaemonProcess.start()
        try await succeed(daemon, [["add", "One"], ["add", "Two"]])
        let script = try daemon.connect()
        _ = try await script.awaitLine(containing: "responseHello")
        for (id, step) in [("s1", 1), ("s2", 99)] {
            let answer = try await request(script, #"{"event":"requestCompleteTodo","id":"\#(id)","step":\#(step),"data":2}"#, id: id)
            #expect(answer.contains(#""code":"validation""#) && answer.contains(#""field":"step""#), "\(answer)")
            #expect(answer.contains("not a step this connection began"), "\(answer)")
        }
        #expect(try await daemon.todoctl("list").lines.count == 2, "a refused request wrote")
        try await daemon.stop()
    }
}
