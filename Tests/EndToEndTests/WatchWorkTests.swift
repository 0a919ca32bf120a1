import Foundation
import Testing

/// `todoctl watch` as a place to work in: adding under a filter, the detail pane, search,
/// tag picking and in-place edits, the notes in a real vi, in a real terminal (tmux).
@Suite("todoctl watch: working in it")
struct WatchWorkTests {
    /// watch in tmux, with vi (no vimrc) as the editor; `arguments` after `watch`.
    private func watch(_ daemon: DaemonProcess, _ arguments: String = "") async throws -> Tmux {
        let environment = daemon.environment.merging(["NO_COLOR": "1", "EDITOR": "vi -u NONE", "VISUAL": "", "HOME": daemon.directory]) { $1 }
        let tmux = try await Tmux(environment: environment)
        try await tmux.type("\(binaryDirectory)/todoctl watch \(arguments)")
        try await tmux.waitFor("connected")
        return tmux
    }

    private func shown(_ daemon: DaemonProcess, _ number: Int) async throws -> [String: Any] {
        try jsonObject(try await daemon.todoctl("show", "\(number)", "--json").stdout)
    }

    @Test("a under a tag filter adds a todo with that tag, and it stays in view")
    func addUnderTagFilter() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon, "--tag work")
        try await tmux.keys("a")
        try await tmux.keys("Call Bob", "Enter")
        try await tmux.waitUntil("the new todo in the #work list") { $0.contains("#1 [ ]   Call Bob  #work") && $0.contains("open #work · 1 shown") }
        let shownNow = try await shown(daemon, 1)
        #expect(shownNow["tags"] as? [String] == ["work"])
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("x in the deleted list says to press u to restore")
    func toggleDeleted() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "gone")
        _ = try await daemon.todoctl("rm", "1")
        let tmux = try await watch(daemon, "--deleted")
        try await tmux.waitFor("#1 [ ]   gone")
        try await tmux.keys("x")
        try await tmux.waitFor("#1 is deleted: press u to restore it")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("Enter shows the todo in full, kept live; due, tags, title, repeat, parent and wait are edited in place")
    func detailAndEdits() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "plan trip", "--notes", "book train")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("#1 [ ]   plan trip")
        try await tmux.keys("Enter")
        try await tmux.waitUntil("the detail pane") { $0.contains("state: open  priority: normal  due: none") && $0.contains("book train") }
        _ = try await daemon.todoctl("edit", "1", "--notes", "train booked")
        try await tmux.waitUntil("the pane to follow the edit") { $0.contains("train booked") && $0.contains("revision 2") }
        try await tmux.keys("D")
        try await tmux.keys("tomorrow", "Enter")
        try await tmux.waitFor("#1 [ ]   plan trip tomorrow")
        try await tmux.keys("T")
        try await tmux.keys("#home trip", "Enter")
        try await tmux.waitFor("tags: #home #trip")
        try await tmux.keys("e")
        try await tmux.keys("End", "!", "Enter")
        try await tmux.waitFor("#1 plan trip!")
        let todo = try await shown(daemon, 1)
        #expect(todo["title"] as? String == "plan trip!")
        #expect(todo["tags"] as? [String] == ["home", "trip"])
        #expect(todo["due"] as? String != nil)
        // A word that is not a date stays in the prompt, with the forms that are.
        try await tmux.keys("D")
        try await tmux.keys("C-h", "C-h", "C-h", "C-h", "C-h", "C-h", "C-h", "C-h", "C-h", "C-h", "whenever", "Enter")
        try await tmux.waitUntil("the refusal under the kept text") { $0.contains("due: whenever") && $0.contains("is not a date; write") }
        // Planning's fields: the repeat and the wait in words; a parent that is not a number stays typed.
        try await tmux.keys("Escape")
        // Awaited before the next key: ESC and a key in one read are an Alt-key, as in readline.
        try await tmux.waitUntil("the due prompt left") { !$0.contains("is not a date; write") }
        try await tmux.keys("r")
        try await tmux.keys("weekly", "Enter")
        try await tmux.waitFor("repeats: every week")
        try await tmux.keys("P")
        try await tmux.keys("nine", "Enter")
        try await tmux.waitUntil("the parent refused, kept") { $0.contains("parent: nine") && $0.contains("is not a todo number") }
        try await tmux.keys("Escape")
        try await tmux.waitUntil("the parent prompt left") { !$0.contains("is not a todo number") }
        try await tmux.keys("w")
        try await tmux.keys("today", "Enter")
        try await tmux.waitUntil("the wait in the pane") { $0.contains("waits until: 2") }
        let planned = try await shown(daemon, 1)
        #expect((planned["recurrence"] as? [String: Any])?["every"] as? String == "1w")
        #expect(planned["wait"] as? String != nil)
        #expect(!(planned["parent"] is Int))
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("e shows the old title selected: typing replaces it, and the title is the new text only")
    func typingReplacesSelectedTitle() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Buy bread")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("#1 [ ]   Buy bread")
        try await tmux.keys("e")
        try await tmux.waitFor("title: Buy bread")
        try await tmux.keys("Buy sourdough bread", "Enter")
        try await tmux.waitUntil("the edited row") { $0.contains("#1 [ ]   Buy") && $0.contains("sourdough bread") && !$0.contains("title:") }
        let todo = try await shown(daemon, 1)
        #expect(todo["title"] as? String == "Buy sourdough bread", "\(todo)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("a prompt edits as readline does: Ctrl-W takes the word back, Home and Ctrl-E move to the ends")
    func promptLineEditing() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.waitFor("no open todos")
        try await tmux.keys("a")
        try await tmux.keys("Pay gas bill", "C-w")
        try await tmux.keys("Home", "Now ", "C-e", "water", "Enter")
        try await tmux.waitUntil("the added row") { $0.contains("#1 [ ]   ") && !$0.contains("add:") }
        let todo = try await shown(daemon, 1)
        #expect(todo["title"] as? String == "Now Pay gas water", "\(todo)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("the rest of readline's keys in a real prompt: Alt-B and Alt-F move a word, Ctrl-K and Ctrl-U cut to an end, Ctrl-A to the start, Right a character (issue 27 names each)")
    func promptOtherEditingKeys() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.waitFor("no open todos")
        try await tmux.keys("a")
        // alpha beta gamma| → alpha beta |gamma → alpha beta | → |alpha beta → al|pha beta
        // → |pha beta → pha| beta → phase| beta → phase beta x|
        try await tmux.keys("alpha beta gamma", "M-b", "C-k", "C-a", "Right", "Right", "C-u", "M-f", "se", "C-e", "x", "Enter")
        try await tmux.waitUntil("the added row") { $0.contains("#1 [ ]   ") && !$0.contains("add:") }
        let todo = try await shown(daemon, 1)
        #expect(todo["title"] as? String == "phase beta x", "\(todo)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("Alt-keys in a real prompt are Alt-keys: Alt-D and Alt-X keep the prompt and the todo, Alt-Backspace takes the word back")
    func promptAltKeys() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Buy bread")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("#1 [ ]   Buy bread")
        try await tmux.keys("e")
        try await tmux.waitFor("title: Buy bread")
        try await tmux.keys("End", " and more")
        // Read as Escape then d, Alt-D left the prompt and deleted the todo.
        try await tmux.keys("M-d", "M-x", "!")
        try await tmux.waitFor("title: Buy bread and more!")
        try await tmux.keys("M-BSpace", "cake", "Enter")
        try await tmux.waitUntil("the edited row, still open") { $0.contains("#1 [ ]   Buy bread and cake") && !$0.contains("title:") }
        let todo = try await shown(daemon, 1)
        #expect(todo["title"] as? String == "Buy bread and cake", "\(todo)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("in a real prompt a CJK character and an emoji move and delete as one, the cursor on the column after them")
    func promptWideCharacters() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.waitFor("no open todos")
        try await tmux.keys("a")
        try await tmux.keys("東京🙂 tea", "Left", "Left", "Left", "Left")
        try await tmux.waitFor("add: 東京🙂▏ tea")
        try await tmux.keys("BSpace", "Home", "Delete")
        try await tmux.waitFor("add: ▏京 tea")
        try await tmux.keys("Enter")
        try await tmux.waitUntil("the added row") { $0.contains("#1 [ ]   ") && !$0.contains("add:") }
        let todo = try await shown(daemon, 1)
        #expect(todo["title"] as? String == "京 tea", "\(todo)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("/ filters as you type, #tag too, Escape clears it; t picks a tag with Tab")
    func searchAndTag() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "buy milk")
        _ = try await daemon.todoctl("add", "buy paint")
        _ = try await daemon.todoctl("add", "call mum", "--tag", "family")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("3 shown")
        try await tmux.keys("/")
        try await tmux.keys("mil")
        try await tmux.waitUntil("only the milk") { $0.contains("buy milk") && !$0.contains("buy paint") && !$0.contains("call mum") }
        try await tmux.keys("Escape")
        try await tmux.waitUntil("all three again") { $0.contains("buy milk") && $0.contains("buy paint") && $0.contains("call mum") }
        try await tmux.keys("/")
        try await tmux.keys("#family", "Enter")
        try await tmux.waitUntil("the #family list") { $0.contains("open #family · 1 shown") && !$0.contains("buy milk") }
        try await tmux.keys("Escape")
        try await tmux.waitFor("3 shown")
        try await tmux.keys("t")
        try await tmux.keys("fa", "Tab", "Enter")
        try await tmux.waitUntil("the tag picked") { $0.contains("open #family · 1 shown") && $0.contains("call mum") }
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("a title refused as the todo changed meanwhile comes back in the prompt at its new revision: Enter saves it (it resent the old revision, refused forever; outside probe)")
    func promptAfterConflict() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "bank")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("#1 [ ]   bank")
        try await tmux.keys("e")
        try await tmux.waitFor("title: ")
        _ = try await daemon.todoctl("edit", "1", "--notes", "from elsewhere")
        try await tmux.keys("call the bank", "Enter")
        try await tmux.waitFor("#1 was changed meanwhile (now revision 2): Enter saves yours over it")
        try await tmux.keys("Enter")
        try await tmux.waitFor("#1 [ ]   call the bank")
        let shownNow = try await shown(daemon, 1)
        #expect(shownNow["title"] as? String == "call the bank" && shownNow["notes"] as? String == "from elsewhere", "\(shownNow)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("a title typed for a todo deleted meanwhile closes the prompt saying so, what was not saved and how to restore it; the prompt names its todo while the selection moves on (it offered Enter saves yours over it, then Enter failed; outside probe 10)")
    func promptAfterDeletion() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "rent")
        _ = try await daemon.todoctl("add", "bank")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("> #2 [ ]   bank")
        try await tmux.keys("e")
        try await tmux.waitFor("#2 title: bank")
        _ = try await daemon.todoctl("rm", "2")
        // The row goes and the selection moves to #1; the prompt still says whose title it is.
        try await tmux.waitUntil("#2 gone, its prompt kept") { !$0.contains("#2 [ ]") && $0.contains("> #1") && $0.contains("#2 title: bank") }
        try await tmux.keys("call the bank", "Enter")
        let flat = { (screen: String) in screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        let said = try await tmux.waitUntil("the deletion said") {
            flat($0).contains("#2 was deleted elsewhere while you edited it, so its title \"call the bank\" was not saved: todoctl restore 2 brings it back")
        }
        #expect(!flat(said).contains("Enter saves yours") && !said.contains("title: "), "the prompt is closed, offering nothing: \(said)")
        let shownNow = try await shown(daemon, 2)
        #expect(shownNow["title"] as? String == "bank" && !(shownNow["deletedAt"] is NSNull), "\(shownNow)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("E opens the notes in vi (Ctrl-C there is vi's) and saves them; changed meanwhile, the conflict is shown and the notes kept")
    func notesInEditor() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "bank")
        let tmux = try await watch(daemon)
        // Connected comes before the list: E needs a selected todo.
        try await tmux.waitFor("#1 [ ]   bank")
        try await tmux.keys("E")
        try await tmux.waitFor("todoctl-edit-1-")
        // Ctrl-C in the editor is the editor's: watch is still there after it.
        try await tmux.keys("C-c")
        // vim drops what was typed ahead of a Ctrl-C: type once it has answered.
        try await tmux.waitFor(":qa")
        try await tmux.keys("i", "call the bank", "Escape", ":wq", "Enter")
        try await tmux.waitFor("notes of #1 saved")
        let shownNow = try await shown(daemon, 1)
        #expect(shownNow["notes"] as? String == "call the bank")
        // The watch's keys work again once vi is gone.
        try await tmux.keys("Enter")
        try await tmux.waitFor("call the bank")

        try await tmux.keys("E")
        try await tmux.waitFor("todoctl-edit-1-")
        _ = try await daemon.todoctl("edit", "1", "--title", "bank (renamed)")
        try await tmux.keys("o", "ask about fees", "Escape", ":wq", "Enter")
        let screen = try await tmux.waitFor("your notes are kept in")
        let words = screen.split(whereSeparator: \.isWhitespace)
        let path = try #require(words.first { $0.hasPrefix("/") && $0.contains("todoctl-edit-1-") })
        let kept = try String(contentsOfFile: String(path), encoding: .utf8)
        #expect(kept.contains("call the bank\nask about fees"))
        let shownNow2 = try await shown(daemon, 1)
        #expect(shownNow2["notes"] as? String == "call the bank")
        await tmux.kill()
        try await daemon.stop()
    }
}
