import Foundation
import Testing

/// A log replayed onto a fresh daemon undoes and redoes as the original would: the copy's
/// journal keeps the original's steps, undos, redos and authors, through the real todoctl
/// and two real todods.
@Suite("undo after replay")
struct ReplayUndoTests {
    /// What undo and redo go by in each line of `todoctl log --json`: seq, step, undoes, redo, author.
    private func structure(_ log: String, undoneSteps: Bool = true) throws -> [String] {
        try log.split(separator: "\n").map { line in
            let change = try jsonObject(String(line))
            return ["seq", "step", "undoes", undoneSteps ? "undoneSteps" : "", "redo", "client", "program", "at"].filter { !$0.isEmpty }
                .map { "\($0)=\(change[$0].map { "\($0)" } ?? "-")" }.joined(separator: " ")
        }
    }

    private func runAll(_ commands: [[String]], on daemon: DaemonProcess) async throws {
        for command in commands {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
    }

    /// A fresh daemon that replayed `original`'s `log --json`, the log, and the file it was read from.
    private func replayedCopy(of original: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> (copy: DaemonProcess, log: CommandResult, file: String) {
        let log = try await original.todoctl("log", "--json")
        let file = original.directory + "/log.jsonl"
        try log.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = try await DaemonProcess.start()
        let replayed = try await copy.todoctl("replay", file)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)", sourceLocation: sourceLocation)
        return (copy, log, file)
    }

    @Test("after replay onto a fresh daemon, undo takes back the one step the original's undo would, and the log keeps steps, undos, redos and authors")
    func replayKeepsSteps() async throws {
        let original = try await DaemonProcess.start()
        try await runAll([["add", "a"], ["add", "b"], ["rm", "2"], ["restore", "2"], ["done", "1"], ["reopen", "1"], ["done", "1"],
                          ["add", "c"], ["undo"], ["redo"]], on: original)
        let (copy, log, file) = try await replayedCopy(of: original)
        let copied = try await copy.todoctl("log", "--json")
        #expect(try structure(copied.stdout) == structure(log.stdout), "\(copied.stdout)")
        // Still idempotent: the same log again changes nothing.
        let again = try await copy.todoctl("replay", file)
        #expect(again.stdout == "replayed 0 changes; \(log.lines.count) already here, the same, skipped\n", "\(again.stdout)\(again.stderr)")

        let theirs = try await original.todoctl("undo")
        let ours = try await copy.todoctl("undo")
        #expect(ours.status == 0 && ours.stdout == theirs.stdout, "copy:\n\(ours.stdout)\(ours.stderr)original:\n\(theirs.stdout)")
        let theirsNext = try await original.todoctl("undo")
        let oursNext = try await copy.todoctl("undo")
        #expect(oursNext.stdout == theirsNext.stdout, "copy:\n\(oursNext.stdout)\(oursNext.stderr)original:\n\(theirsNext.stdout)")
        try await copy.stop()
        try await original.stop()
    }

    @Test("a command's step that went on around another client's change stays one step on the copy, which undoes it first as the original does")
    func replayKeepsInterleavedSteps() async throws {
        let original = try await DaemonProcess.start()
        try await runAll([["add", "a"], ["add", "b"], ["add", "c"]], on: original)
        // A script completes #1, todoctl edits #3, the script completes #2 on its step (change 4).
        let script = try original.connect()
        _ = try await script.awaitLine(containing: "responseHello")
        try script.send(#"{"event":"requestCompleteTodo","id":"c1","program":"script","data":1}"# + "\n")
        _ = try await script.awaitLine(containing: #""id":"c1""#)
        try await runAll([["edit", "3", "--title", "C"]], on: original)
        try script.send(#"{"event":"requestCompleteTodo","id":"c2","step":4,"data":2}"# + "\n")
        let joined = try await script.awaitLine(containing: #""id":"c2""#)
        #expect(joined.contains(#""step":4"#), "\(joined)")
        let (copy, log, _) = try await replayedCopy(of: original)
        let copied = try await copy.todoctl("log", "--json")
        #expect(try structure(copied.stdout) == structure(log.stdout), "\(copied.stdout)")
        let theirs = try await original.todoctl("undo")
        let ours = try await copy.todoctl("undo")
        #expect(ours.status == 0 && ours.lines.filter { $0.contains("reopened") }.count == 2 && ours.stdout == theirs.stdout, "copy:\n\(ours.stdout)\(ours.stderr)original:\n\(theirs.stdout)")
        try await copy.stop()
        try await original.stop()
    }

    @Test("a step of more changes than one replay request holds stays one step on the copy, and the copy's redo puts it all back")
    func replayKeepsLongSteps() async throws {
        let original = try await DaemonProcess.start()
        // 70 adds, then one undo of them all: a step of 70 changes, more than a request's 64.
        try await runAll((1...70).map { ["add", "todo \($0)"] } + [["undo", "--since", "1h", "--yes"]], on: original)
        let (copy, log, _) = try await replayedCopy(of: original)
        let copied = try await copy.todoctl("log", "--json")
        // An undo of 70 steps names more than a request's array holds: it goes by `undoes`.
        #expect(try structure(copied.stdout, undoneSteps: false) == structure(log.stdout, undoneSteps: false), "\(copied.stdout)")
        // The redo puts the 70 back, the undo takes back the last add again: the same on both.
        for (command, count) in [("redo", 70), ("undo", 1)] {
            let theirs = try await original.todoctl(command)
            let ours = try await copy.todoctl(command)
            #expect(ours.status == theirs.status && ours.stdout == theirs.stdout && theirs.lines.count == count,
                    "\(command) copy:\n\(ours.stdout)\(ours.stderr)original:\n\(theirs.stdout)\(theirs.stderr)")
        }
        try await copy.stop()
        try await original.stop()
    }

    @Test("after replay, the copy keeps the original's seqs and its purge's gap: undo takes back the change after the purge, then is refused on both")
    func replayKeepsPurgeBarrier() async throws {
        let original = try await DaemonProcess.start()
        try await runAll([["add", "A"], ["add", "B"], ["rm", "2"], ["purge", "--yes"], ["add", "C"]], on: original)
        let (copy, log, _) = try await replayedCopy(of: original)
        let copied = try await copy.todoctl("log", "--json")
        // C's change is seq 5 on both (the purge took seq 4, and B's changes went with it).
        #expect(try structure(copied.stdout) == structure(log.stdout), "copy:\n\(copied.stdout)original:\n\(log.stdout)")
        for _ in 1...2 {
            let theirs = try await original.todoctl("undo")
            let ours = try await copy.todoctl("undo")
            #expect(ours.status == theirs.status && ours.stdout == theirs.stdout && ours.stderr == theirs.stderr,
                    "copy: \(ours.status)\n\(ours.stdout)\(ours.stderr)original: \(theirs.status)\n\(theirs.stdout)\(theirs.stderr)")
        }
        let listed = try await copy.todoctl("list")
        #expect(listed.lines.count == 1 && listed.stdout.contains("A"), "\(listed.stdout)")
        try await copy.stop()
        try await original.stop()
    }
}
