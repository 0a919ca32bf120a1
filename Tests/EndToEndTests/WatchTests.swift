import Foundation
import Testing

/// `todoctl watch` in a real terminal (tmux), beside other clients changing todos.
@Suite("todoctl watch in a terminal")
struct WatchTests {
    private func watch(_ daemon: DaemonProcess) async throws -> Tmux {
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("connected")
        return tmux
    }

    @Test("changes from another client appear in place: add, done, delete")
    func showsChangesFromOthers() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "first")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("#1 [ ]   first")
        _ = try await daemon.todoctl("add", "second", "--priority", "high")
        // #2 sorts above #1 (high priority); the selection stays on #1.
        try await tmux.waitUntil("#2 above the selected #1") { $0.contains("  #2 [ ] ! second\n> #1 [ ]   first") }
        try await tmux.waitFor("2 open, 0 done")
        _ = try await daemon.todoctl("done", "1")
        // It leaves the open list, and the header counts it as done.
        try await tmux.waitUntil("#1 to leave the open list") { !$0.contains("first") && $0.contains("1 open, 1 done") }
        _ = try await daemon.todoctl("rm", "2")
        try await tmux.waitFor("no open todos")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("the header's counts stay true through undo --since taking back an add and its done (they went to -1 open: a deletion counted by the todo's state after it; outside probe)")
    func countsThroughUndoSince() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "first")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("1 open, 0 done")
        _ = try await daemon.todoctl("add", "A")
        _ = try await daemon.todoctl("add", "B")
        _ = try await daemon.todoctl("done", "2", "3")
        try await tmux.waitFor("1 open, 2 done")
        let undone = try await daemon.todoctl("undo", "--since", "1h", "--yes")
        #expect(undone.status == 0, "\(undone)")
        let status = try await daemon.todoctl("status")
        #expect(status.stdout.contains("0 open") || status.stdout.contains("0 done"), "\(status.stdout)")
        try await tmux.waitUntil("the counts of what is left") { $0.contains("0 open, 0 done") && !$0.contains("-1") }
        await tmux.kill()
        try await daemon.stop()
    }

    /// #1 tagged work and #2 untagged, and watch started with `tagOption` showing only #1.
    private func watchingWork(_ daemon: DaemonProcess, _ tagOption: String) async throws -> Tmux {
        _ = try await daemon.todoctl("add", "tagged", "--tag", "work")
        _ = try await daemon.todoctl("add", "untagged")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch \(tagOption)")
        try await tmux.waitUntil("the #work list") { $0.contains("open #work · 1 shown") && $0.contains("#1 [ ]   tagged") && !$0.contains("untagged") }
        return tmux
    }

    @Test("--tag takes a tag as it is written, #work or work")
    func tagFilterWithHash() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watchingWork(daemon, "--tag '#work'")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("watch -t work keeps #work through Escape, in the / prompt and in the list (both showed every todo)")
    func escapeKeepsTagFilter() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watchingWork(daemon, "-t work")
        try await tmux.keys("/")
        try await tmux.waitFor("/#work")
        try await tmux.keys("Escape")
        let left = try await tmux.waitUntil("the prompt to close") { !$0.contains("/#work") }
        #expect(left.contains("open #work · 1 shown") && !left.contains("untagged"), "\(left)")
        // In the list, Escape clears a search made in watch and keeps #work.
        try await tmux.keys("/")
        try await tmux.waitFor("/#work")
        try await tmux.keys("End", " zzz", "Enter")
        try await tmux.waitFor("open #work /zzz · 0 shown")
        try await tmux.keys("Escape")
        // The rows come with the daemon's answer: the header says 0 shown until then.
        let cleared = try await tmux.waitUntil("the search cleared and the list back") { !$0.contains("/zzz") && !$0.contains("· 0 shown") }
        #expect(cleared.contains("open #work · 1 shown") && !cleared.contains("untagged"), "\(cleared)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("a key in watch is a request every other client sees")
    func keyToggles() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "press x on me")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("> #1 [ ]   press x on me")
        try await tmux.keys("x")
        try await tmux.waitFor("no open todos")
        let listed = try jsonArray(try await daemon.todoctl("list", "--completed", "--json").stdout)
        #expect(listed.first?["title"] as? String == "press x on me")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("an empty title is refused on the status line and the prompt keeps the text")
    func validationOnStatusLine() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.keys("a")
        try await tmux.keys("  ", "Enter")
        try await tmux.waitFor("a todo needs a title")
        try await tmux.keys("ok", "Enter")
        try await tmux.waitFor("#1 [ ]   ok")
        await tmux.kill()
        try await daemon.stop()
    }

    /// The daemon's open list is one todo with these fields, as watch's a line added it.
    private func expectOnlyTodo(
        _ daemon: DaemonProcess, _ title: String, tags: [String], priority: String, due: String, project: String? = nil
    ) async throws {
        let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["title"] as? String == title, "\(listed)")
        #expect(listed.first?["tags"] as? [String] == tags, "\(listed)")
        #expect(listed.first?["priority"] as? String == priority, "\(listed)")
        #expect(listed.first?["due"] as? String == due, "\(listed)")
        #expect(listed.first?["project"] as? String == project, "\(listed)")
    }

    @Test("watch's a line takes add's modifiers: a typo stays in the prompt with what was meant, then the todo gets its fields")
    func addPromptModifiers() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.keys("a")
        try await tmux.keys("Buy bread +shop prio:H", "Enter")
        try await tmux.waitFor("prio: is not a modifier; did you mean priority: (pri:)?")
        try await tmux.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "pri:H due:2026-12-24 project:home", "Enter")
        try await tmux.waitFor("#1 [ ] ! Buy bread")
        try await expectOnlyTodo(daemon, "Buy bread", tags: ["shop"], priority: "high", due: "2026-12-24", project: "home")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("watch's a line takes add's options: Pay bill -d 2026-12-24 -p high -t home (it refused -d)")
    func addPromptOptions() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.keys("a")
        try await tmux.keys("Pay bill -d 2026-12-24 -p high -t home", "Enter")
        try await tmux.waitFor("#1 [ ] ! Pay bill")
        try await expectOnlyTodo(daemon, "Pay bill", tags: ["home"], priority: "high", due: "2026-12-24")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("watch's a line names an option that does not read as typed, -p hi, with H, M or L, and keeps the line (it said pri:hi; outside probe)")
    func addPromptNamesTheOptionTyped() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.keys("a")
        try await tmux.keys("Buy milk -p hi", "Enter")
        let screen = try await tmux.waitFor("-p hi: \"hi\" is not understood as a priority; -p takes H, M or L")
        #expect(!screen.contains("pri:hi") && screen.contains("add: Buy milk -p hi"), "\(screen)")
        await tmux.kill()
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout == "no open todos\n", "\(listed.stdout)")
        try await daemon.stop()
    }

    @Test("watch's a line reads quotes as a shell reads the same words after todoctl add: Pay \"bill x:y\" due:\"next fri\" +home (it refused x:y and \"next as no modifiers; outside probe)")
    func addPromptQuotes() async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await watch(daemon)
        try await tmux.keys("a")
        try await tmux.keys(#"Pay "bill x:y" due:"next fri" +home"#, "Enter")
        try await tmux.waitFor("#1 [ ]   Pay bill x:y")
        let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
        #expect(listed.first?["title"] as? String == "Pay bill x:y", "\(listed)")
        #expect(listed.first?["tags"] as? [String] == ["home"], "\(listed)")
        #expect(listed.first?["due"] is String, "\(listed)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("the daemon restarted under it: watch says so, reconnects and shows the new state")
    func survivesRestart() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "before")
        let tmux = try await watch(daemon)
        try await tmux.waitFor("before")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
        try await tmux.waitFor("daemon unreachable")
        let restarted = try await DaemonProcess.start(in: daemon.directory)
        _ = try await restarted.todoctl("add", "after")
        try await tmux.waitUntil("the new state after reconnecting") { $0.contains("connected") && $0.contains("after") && $0.contains("before") }
        await tmux.kill()
        try await restarted.stop()
    }

    @Test("colour on a terminal, none with NO_COLOR")
    func colourUnlessNoColor() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "late", "--due", "2020-01-01")
        for noColor in [false, true] {
            let environment = daemon.environment.merging(noColor ? ["NO_COLOR": "1"] : [:]) { $1 }
            let tmux = try await Tmux(environment: environment)
            try await tmux.type("\(noColor ? "" : "unset NO_COLOR; ")\(binaryDirectory)/todoctl watch")
            try await tmux.waitFor("overdue")
            let styled = try await tmux.screen(escapes: true)
            // The overdue date in red (SGR 31), as tmux reports it.
            #expect(styled.contains("\u{1B}[31m") != noColor, "NO_COLOR \(noColor ? "set" : "unset"):\n\(styled)")
            await tmux.kill()
        }
        try await daemon.stop()
    }

    @Test("a resize (SIGWINCH) redraws at the new size: the rows that fit, the status line last")
    func redrawsOnResize() async throws {
        let daemon = try await DaemonProcess.start()
        for number in 1...12 { _ = try await daemon.todoctl("add", "todo \(number)") }
        let tmux = try await watch(daemon)
        // 80×20: all 12 rows fit.
        try await tmux.waitUntil("12 rows") { $0.contains("todo 1\n") && $0.contains("todo 12") }
        try await tmux.resize(columns: 60, rows: 10)
        try await tmux.waitUntil("7 rows, the marker of the 5 below and the help line, in 10 lines") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            let rows = lines.filter { $0.contains(" [ ]   todo ") }
            return lines.count >= 10 && lines[0].hasPrefix("todoctl watch") && lines[8] == "  ↓ 5 more below"
                && lines[9].hasPrefix("↑↓ move") && rows.count == 7
        }
        await tmux.kill()
        try await daemon.stop()
    }

    @Test(
        "q, Ctrl-C and SIGTERM leave the terminal as it was: settings restored, the shell's screen back",
        arguments: ["q", "C-c", "SIGTERM"])
    func quitRestoresTerminal(how: String) async throws {
        let daemon = try await DaemonProcess.start()
        let tmux = try await Tmux(environment: daemon.environment)
        try await tmux.type("stty -g > \(daemon.directory)/before; echo marker-before-watch")
        try await tmux.waitFor("marker-before-watch")
        try await tmux.type("\(binaryDirectory)/todoctl watch; echo watch-ended-$?")
        try await tmux.waitUntil("watch to take the screen") { $0.contains("connected") && !$0.contains("marker-before-watch") }
        if how == "SIGTERM" {
            let shell = try await tmux.shellPID()
            let signalled = try await ChildProcess.run("/usr/bin/pkill", ["-TERM", "-P", "\(shell)", "todoctl"], environment: [:])
            #expect(signalled.status == 0, "pkill: \(signalled.output)")
        } else {
            try await tmux.keys(how)
        }
        // The shell says when watch has exited, and with which status; its screen is back.
        try await tmux.waitUntil("watch to exit 0 and the shell's screen to return") {
            $0.contains("marker-before-watch") && $0.contains("watch-ended-0")
        }
        try await tmux.type("stty -g > \(daemon.directory)/after; echo done-$?")
        try await tmux.waitFor("done-0")
        let before = try String(contentsOfFile: daemon.directory + "/before", encoding: .utf8)
        let after = try String(contentsOfFile: daemon.directory + "/after", encoding: .utf8)
        #expect(before == after)
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("without a terminal, watch prints one line per change and survives a restart")
    func plainMode() async throws {
        let daemon = try await DaemonProcess.start()
        let watcher = try BackgroundProcess(binaryDirectory + "/todoctl", ["watch", "--plain"], environment: daemon.environment)
        let line2 = try await watcher.readLine()
        #expect(line2.hasPrefix("connected: 0 open todos"))
        _ = try await daemon.todoctl("add", "logged")
        let line3 = try await watcher.readLine()
        #expect(line3 == "1 added #1 logged")
        try await daemon.stop()
        let line4 = try await watcher.readLine()
        #expect(line4.hasPrefix("disconnected"))
        let restarted = try await DaemonProcess.start(in: daemon.directory)
        var line = try await watcher.readLine()
        while line.hasPrefix("disconnected") { line = try await watcher.readLine() }
        #expect(line.hasPrefix("connected: 1 open todos"))
        watcher.stop()
        try await restarted.stop()
    }

    @Test("watch takes list's filter options: -t home --not-tag admin -p high keeps the list and the changes to those")
    func filterOptions() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Fix the boiler", "-t", "home", "-p", "high")
        _ = try await daemon.todoctl("add", "Pay the gas bill", "-t", "home", "-t", "admin", "-p", "high")
        _ = try await daemon.todoctl("add", "Water plants", "-t", "home")
        let watcher = try BackgroundProcess(
            binaryDirectory + "/todoctl", ["watch", "--plain", "-t", "home", "--not-tag", "admin", "-p", "high"], environment: daemon.environment)
        let line = try await watcher.readLine()
        #expect(line == "connected: 1 open todos, at change 3")
        _ = try await daemon.todoctl("done", "2")  // admin: left out
        _ = try await daemon.todoctl("done", "3")  // normal priority: left out
        _ = try await daemon.todoctl("done", "1")
        let line2 = try await watcher.readLine()
        #expect(line2 == "6 done #1 Fix the boiler")
        watcher.stop()
        try await daemon.stop()
    }

    @Test("watch marks a blocked todo [b] as todoctl list does, also one added blocked elsewhere, and unmarks it when its dependency is done (it showed [ ])")
    func blockedRowsAreMarked() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "flour")
        let cake = try await daemon.todoctl("add", "cake", "depends:1")
        #expect(cake.status == 0, "\(cake.stderr)")
        _ = try await daemon.todoctl("add", "plain")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        func line(_ screen: String, _ title: String) -> String { screen.split(separator: "\n").first { $0.contains(title) }.map(String.init) ?? "" }
        try await tmux.waitUntil("cake [b], flour and plain [ ]") {
            line($0, "cake").contains("[b]") && line($0, "flour").contains("[ ]") && line($0, "plain").contains("[ ]")
        }
        _ = try await daemon.todoctl("add", "bread", "depends:1")
        try await tmux.waitUntil("bread, added elsewhere waiting for #1, [b]") { line($0, "bread").contains("[b]") }
        let done = try await daemon.todoctl("done", "1")
        #expect(done.status == 0, "\(done.stderr)")
        try await tmux.waitUntil("cake and bread [ ] once #1 is done") {
            !$0.contains("flour") && line($0, "cake").contains("[ ]") && line($0, "bread").contains("[ ]")
        }
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("watch +BLOCKED follows other todos' changes: a plain add stays out, a todo given an open dependency comes in, completing the dependency takes its waiters out (a change was judged by its todo alone)")
    func blockedListFollowsOtherTodos() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "flour")
        let cake = try await daemon.todoctl("add", "cake", "depends:1")
        #expect(cake.status == 0, "\(cake.stderr)")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch +BLOCKED")
        try await tmux.waitUntil("the blocked #2 alone, marked [b]") { $0.contains("#2 [b]") && $0.contains("cake") && !$0.contains("flour") }
        _ = try await daemon.todoctl("add", "plain")
        _ = try await daemon.todoctl("add", "bread", "depends:1")
        try await tmux.waitUntil("#4, waiting for #1, in; #3 out") { $0.contains("bread") && !$0.contains("plain") }
        let done = try await daemon.todoctl("done", "1")
        #expect(done.status == 0, "\(done.stderr)")
        try await tmux.waitUntil("nothing blocked once #1 is done") { !$0.contains("cake") && !$0.contains("bread") }
        await tmux.kill()
        try await daemon.stop()
    }
}
