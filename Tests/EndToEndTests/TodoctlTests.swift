import Foundation
import Testing

@Suite("todoctl commands against a real daemon")
struct TodoctlTests {
    @Test("add, then list: a table for people, a JSON array for scripts")
    func addAndList() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", "Buy", "milk", "--tag", "home", "--priority", "high", "--due", "2031-01-02")
        #expect(added.status == 0)
        #expect(added.stdout == "added #1 Buy milk\n")
        let json = try jsonObject(try await daemon.todoctl("add", "Call", "Bob", "--json", "--notes", "about the car").stdout)
        #expect(json["number"] as? Int == 2)
        #expect(json["notes"] as? String == "about the car")
        #expect(json["revision"] as? Int == 1)
        for field in ["id", "number", "title", "notes", "priority", "due", "tags", "createdAt", "updatedAt", "completedAt", "deletedAt", "revision"] {
            #expect(json.keys.contains(field), "the --json schema has \(field)")
        }

        let table = try await daemon.todoctl("list")
        #expect(table.lines.count == 2)
        #expect(table.lines[0].hasPrefix("#1 [ ] ! Buy milk"))
        #expect(table.lines[0].hasSuffix("#home"))
        #expect(table.lines[1].contains("Call Bob"))
        let list = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
        #expect(list.map { $0["number"] as? Int } == [1, 2])
        try await daemon.stop()
    }

    @Test("list filters: --tag, --priority, --search, --completed, --deleted, --all")
    func listFilters() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "alpha", "--tag", "work")
        _ = try await daemon.todoctl("add", "beta", "--priority", "low", "--notes", "the secret word")
        _ = try await daemon.todoctl("add", "gamma")
        _ = try await daemon.todoctl("done", "2")
        _ = try await daemon.todoctl("rm", "3")
        func titles(_ arguments: String...) async throws -> [String] {
            try jsonArray(try await run("todoctl", ["list", "--json"] + arguments, environment: daemon.environment).stdout)
                .compactMap { $0["title"] as? String }
        }
        let titlesNow = try await titles()
        #expect(titlesNow == ["alpha"])
        let titlesNow2 = try await titles("--all")
        #expect(titlesNow2 == ["alpha", "beta"])
        let titlesNow3 = try await titles("--completed")
        #expect(titlesNow3 == ["beta"])
        let titlesNow4 = try await titles("--deleted")
        #expect(titlesNow4 == ["gamma"])
        let titlesNow5 = try await titles("--all", "--tag", "work")
        #expect(titlesNow5 == ["alpha"])
        let titlesNow6 = try await titles("--all", "--priority", "low")
        #expect(titlesNow6 == ["beta"])
        let titlesNow7 = try await titles("--all", "--search", "SECRET")
        #expect(titlesNow7 == ["beta"])
        let listed = try await daemon.todoctl("list", "--deleted")
        #expect(listed.stdout.contains("gamma"))
        try await daemon.stop()
    }

    @Test("show: every field for people, the Todo for scripts; by number, #number and id prefix")
    func show() async throws {
        let daemon = try await DaemonProcess.start()
        let id = try jsonObject(try await daemon.todoctl("add", "Plan", "trip", "--notes", "Lisbon?", "--json").stdout)["id"] as? String ?? ""
        let shown = try await daemon.todoctl("show", "#1")
        #expect(shown.stdout.hasPrefix("#1 Plan trip\n"))
        #expect(shown.stdout.contains("state     open"))
        #expect(shown.stdout.contains("revision  1"))
        #expect(shown.stdout.hasSuffix("\nLisbon?\n"))
        let json = try jsonObject(try await daemon.todoctl("show", String(id.prefix(8)), "--json").stdout)
        #expect(json["id"] as? String == id)
        let shown2 = try await daemon.todoctl("show", id)
        #expect(shown2.status == 0, "\(shown2.stderr)")
        // A far date is said once, not "2031-01-02 (2031-01-02)" (found from outside).
        _ = try await daemon.todoctl("add", "Far", "--due", "2031-01-02")
        let far = try await daemon.todoctl("show", "2")
        #expect(far.lines.contains("  due       2031-01-02"), "\(far.stdout)")
        try await daemon.stop()
    }

    @Test("done, reopen, toggle, rm and restore, with and without --json")
    func stateChanges() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "one")
        _ = try await daemon.todoctl("add", "two")
        let completed = try await daemon.todoctl("done", "1", "2")
        #expect(completed.stdout == "done #1 one\ndone #2 two\n")
        let completed2 = try await daemon.todoctl("done", "1")
        #expect(completed2.stdout == "#1 one: nothing to change\n")
        let reopened2 = try await daemon.todoctl("reopen", "1")
        #expect(reopened2.stdout == "reopened #1 one\n")
        let toggled = try jsonArray(try await daemon.todoctl("toggle", "1", "--json").stdout)
        #expect(toggled.first?["completedAt"] is String)
        let removed = try await daemon.todoctl("rm", "2")
        #expect(removed.stdout == "deleted #2 two\n")
        let listed = try await daemon.todoctl("list", "--all", "--json")
        #expect(listed.stdout.contains("\"two\"") == false)
        let restored = try jsonArray(try await daemon.todoctl("restore", "2", "--json").stdout)
        #expect(restored.first?["deletedAt"] is NSNull)
        #expect(restored.first?["revision"] as? Int == 4)
        try await daemon.stop()
    }

    @Test("edit with options changes only those fields")
    func editWithOptions() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft", "--tag", "a", "--tag", "b", "--due", "2031-01-01", "--notes", "keep")
        let edited = try await daemon.todoctl("edit", "1", "--title", "final", "--untag", "a", "--tag", "c", "--no-due", "--priority", "high")
        #expect(edited.stdout == "edited #1 final\n")
        let json = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        #expect(json["title"] as? String == "final")
        #expect(json["tags"] as? [String] == ["b", "c"])
        #expect(json["due"] is NSNull)
        #expect(json["notes"] as? String == "keep")
        #expect(json["priority"] as? String == "high")
        #expect(json["revision"] as? Int == 2)
        try await daemon.stop()
    }

    @Test("edit without options goes through $EDITOR and applies what changed")
    func editInEditor() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let editor = try script(in: daemon.directory, "sed -i -e 's/^title: .*/title: written in an editor/' -e 's/^tags:.*/tags: x y/' \"$1\"")
        let edited = try await daemon.todoctl("edit", "1", environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(edited.status == 0, "\(edited.stderr)")
        let json = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        #expect(json["title"] as? String == "written in an editor")
        #expect(json["tags"] as? [String] == ["x", "y"])
        try await daemon.stop()
    }

    @Test("a stale revision is a conflict: nothing applied, the form kept, what changed told")
    func editConflict() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        // The "editor" changes the todo behind the person's back, then saves their edit.
        let meddle = "TODOD_SOCKET=\(daemon.socketPath) \(binaryDirectory)/todoctl edit 1 --title 'changed meanwhile' >/dev/null"
        let editor = try script(in: daemon.directory, "\(meddle)\nsed -i 's/^title: .*/title: my version/' \"$1\"")
        let edited = try await daemon.todoctl("edit", "1", environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("was changed meanwhile"))
        #expect(edited.stderr.contains("title: \"draft\" → \"changed meanwhile\""))
        let kept = try #require(edited.stderr.split(separator: " ").first { $0.hasPrefix("/") && $0.contains("todoctl-edit") })
        let form = try String(contentsOfFile: kept.trimmingCharacters(in: CharacterSet(charactersIn: ":")), encoding: .utf8)
        #expect(form.contains("title: my version"))
        let shown = try await daemon.todoctl("show", "1", "--json")
        #expect(try jsonObject(shown.stdout)["title"] as? String == "changed meanwhile", "\(shown.stdout)")
        try await daemon.stop()
    }

    @Test("refusals exit 1 with the daemon's message: unknown todo, invalid tag; an add without a title is bad usage, 64, as bare done is (it was the daemon's 1; outside probe)")
    func refusals() async throws {
        let daemon = try await DaemonProcess.start()
        let unknown = try await daemon.todoctl("done", "42")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no todo #42"))
        for words in [["add", "   "], ["add"], ["add", "pri:H", "+x"]] {
            let empty = try await run("todoctl", words, environment: daemon.environment)
            #expect(empty.status == 64 && empty.stderr.contains("a todo needs a title: give its words (todoctl add Buy milk)"), "\(words): \(empty)")
        }
        // A tag added and removed in one edit is refused, as add refuses a -tag (edit said nothing to change).
        _ = try await daemon.todoctl("add", "y")
        let both = try await daemon.todoctl("edit", "1", "+qq", "-qq")
        #expect(both.status == 64 && both.stderr.contains("+qq and -qq both name the tag qq"), "\(both)")
        _ = try await daemon.todoctl("rm", "1")
        let tag = try await daemon.todoctl("add", "x", "--tag", "two words")
        #expect(tag.status == 1)
        #expect(tag.stderr.contains("not one word"))
        let listed = try await daemon.todoctl("list", "--all", "--json")
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "an empty list is [] as every --json command prints it")
        try await daemon.stop()
    }

    @Test("usage errors exit 64")
    func usageErrors() async throws {
        let daemon = try await DaemonProcess.start()
        let listed = try await daemon.todoctl("list", "--bogus")
        #expect(listed.status == 64, "\(listed.stderr)")
        let shown = try await daemon.todoctl("show", "not-a-ref")
        #expect(shown.status == 64, "\(shown.stderr)")
        let added = try await daemon.todoctl("add", "x", "--due", "someday")
        #expect(added.status == 64, "\(added.stderr)")
        try await daemon.stop()
    }

    @Test("no daemon: exit 69, naming the socket and how to start todod")
    func daemonNotRunning() async throws {
        let directory = try makeTemporaryDirectory()
        let result = try await run("todoctl", ["list"], environment: ["TODOD_SOCKET": directory + "/none.sock"])
        #expect(result.status == 69)
        #expect(result.stderr.contains(directory + "/none.sock"))
        #expect(result.stderr.contains("todod"))
    }

    @Test("20 parallel adds give 20 distinct numbers")
    func parallelAdds() async throws {
        let daemon = try await DaemonProcess.start()
        let numbers = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let added = try await daemon.todoctl("add", "parallel \(index)", "--json")
                    guard added.status == 0 else { throw TestFailure("add \(index) exited \(added.status): \(added.stderr)") }
                    return try jsonObject(added.stdout)["number"] as? Int
                }
            }
            return try await group.reduce(into: [Int]()) { if let number = $1 { $0.append(number) } }
        }
        #expect(Set(numbers) == Set(1...20))
        try await daemon.stop()
    }

    @Test("status: versions, clients, counts and paths")
    func status() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "one")
        _ = try await daemon.todoctl("add", "two")
        _ = try await daemon.todoctl("done", "2")
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        #expect(status["openTodos"] as? Int == 1)
        #expect(status["completedTodos"] as? Int == 1)
        #expect(status["connectedClients"] as? Int == 1)
        #expect(status["socketPath"] as? String == daemon.socketPath)
        #expect(status["databasePath"] as? String == daemon.databasePath)
        let text = try await daemon.todoctl("status")
        #expect(text.stdout.contains("1 open, 1 done, 0 deleted"))
        try await daemon.stop()
    }

    @Test("events prints every change any client makes, one line each")
    func events() async throws {
        let daemon = try await DaemonProcess.start()
        let watcher = try BackgroundProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        try await awaitClients(2, on: daemon)
        _ = try await daemon.todoctl("add", "seen")
        _ = try await daemon.todoctl("done", "1")
        let line = try await watcher.readLine()
        #expect(line == "1 added #1 seen")
        let line2 = try await watcher.readLine()
        #expect(line2 == "2 done #1 seen")
        watcher.stop()
        try await daemon.stop()
    }


    private func script(in directory: String, _ body: String) throws -> String {
        let path = directory + "/editor-\(UUID().uuidString.prefix(6)).sh"
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }
}
