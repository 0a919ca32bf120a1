import Foundation
import Testing
import TodoClient
import TodoEvents
import TodoModel

/// `todoctl watch` with the journal: U undoes the last change, any client's, and says what
/// it undid; h shows the selected todo's history, kept live.
@Suite("todoctl watch: undo and history")
struct WatchJournalTests {
    @Test("U undoes another client's last change and says what it undid, in words with one space each (not the log's columns); U again takes back the change before, R redoes")
    func undoKey() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("#1 [ ]   draft")
        _ = try await daemon.todoctl("edit", "1", "--title", "final")
        try await tmux.waitFor("#1 [ ]   final")
        try await tmux.keys("U")
        try await tmux.waitUntil("the undo on the row and the status line") {
            $0.contains("#1 [ ]   draft") && $0.contains("undone change 2 by todoctl (client") && $0.contains("(R redoes): #1 edited") && $0.contains("title \"final\" →")
        }
        let shown = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        #expect(shown["title"] as? String == "draft")
        // Again: the add before, not the undo taken back.
        try await tmux.keys("U")
        try await tmux.waitUntil("the add undone, named") { $0.contains("undone change 1 by todoctl (client") && $0.contains("(R redoes): #1 deleted") }
        try await tmux.keys("R")
        try await tmux.waitUntil("the add redone") { $0.contains("#1 [ ]   draft") && $0.contains("redone: #1 restored") }
        try await tmux.keys("R")
        // One space after the verb: the status line is a sentence, not the log's column (it kept the log's padding, `edited   title`; outside probe).
        try await tmux.waitUntil("the title redone") { $0.contains("#1 [ ]   final") && $0.contains("redone: #1 edited title \"draft\" → \"final\"") }
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("U that takes back another program's change names that program, as todoctl undo does")
    func undoKeyNamesOtherProgram() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("#1 [ ]   draft")
        let script = try await TodoClient.connect(to: daemon.socketPath, program: "myscript")
        _ = try await script.request(.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(title: "final"))))
        await script.close()
        try await tmux.waitFor("#1 [ ]   final")
        try await tmux.keys("U")
        let screen = try await tmux.waitUntil("the undo named with its program") {
            $0.contains("#1 [ ]   draft") && $0.contains("undone change 2 by myscript (client")
        }
        #expect(screen.contains("(R redoes): #1 edited"), "\(screen)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("U takes back todoctl's done 1 2 as one step, naming the step once, as todoctl log marks it; R puts both back")
    func undoKeyTakesBackACommand() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "one"], ["add", "two"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.resize(columns: 160, rows: 20)
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("#2 [ ]   two")
        let done = try await run("todoctl", ["done", "1", "2"], environment: daemon.environment)
        #expect(done.status == 0, "\(done.stderr)")
        try await tmux.waitUntil("both done") { !$0.contains("#1 [ ]") && !$0.contains("#2 [ ]") }
        try await tmux.keys("U")
        // The status line names the step after a log read that follows the undo's answer:
        // awaited with the rows, not read once when they change (it lost that race 2 in 4).
        let screen = try await tmux.waitUntil("both reopened by one U, the step named") {
            $0.contains("#1 [ ]   one") && $0.contains("#2 [ ]   two") && $0.contains("undone step 3 by todoctl (client")
        }
        #expect(!screen.contains("change 4"), "\(screen)")
        try await tmux.keys("R")
        try await tmux.waitUntil("both done again by one R") { !$0.contains("#1 [ ]") && !$0.contains("#2 [ ]") }
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("U refused says why in watch's keys, with no todoctl command in the status line")
    func refusedUndoSpeaksWatch() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "keep"], ["add", "gone"], ["rm", "2"], ["purge", "--yes"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.resize(columns: 200, rows: 20)
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("#1 [ ]   keep")
        try await tmux.keys("U")
        let screen = try await tmux.waitFor("nothing to undo: a purge removed deleted todos")
        #expect(!screen.contains("`todoctl") && !screen.contains("SEQ"), "\(screen)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("h shows the selected todo's history, and a change from another client adds its line")
    func historyPane() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "plan")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("#1 [ ]   plan")
        try await tmux.keys("h")
        try await tmux.waitUntil("the history pane") { $0.contains("history of #1, oldest first:") && $0.contains("added    \"plan\"   todoctl (client 1)") }
        _ = try await daemon.todoctl("edit", "1", "--priority", "high")
        try await tmux.waitFor("priority normal → high")
        await tmux.kill()
        try await daemon.stop()
    }
}
