import Foundation
import Testing

/// What todoctl says about its command line, found from outside (#27's probe): `--since`
/// read one way by log, undo and burndown; errors that name the real problem.
@Suite("todoctl's command line: --since and the argument errors")
struct CommandLineTests {
    @Test("log, undo and burndown read --since alike: 10m and -10m are ten minutes back, 3 days ago and 1y are taken, a time after now is refused with the forms")
    func sinceIsOneGrammar() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let added = try await daemon.todoctl("add", "Pay rent", environment: fixedClock)
        #expect(added.status == 0, "\(added.stderr)")
        for form in ["10m", "-10m", "3 days ago", "1y", "2026-11-23", "2026-11-23 08:59", "today"] {
            let log = try await daemon.todoctl("log", "--since", form, environment: fixedClock)
            #expect(log.status == 0 && log.lines.count == 1, "log --since \(form): \(log.status) \(log.stdout)\(log.stderr)")
            let burndown = try await daemon.todoctl("burndown", "--json", "--since", form, environment: fixedClock)
            #expect(burndown.status == 0, "burndown --since \(form): \(burndown.stderr)")
        }
        // After now, however written (fixedClock is 09:00 on 2026-11-23): a later hour or day found
        // nothing ("nothing to undo since then") where +1d was refused (#27's second probe).
        for command in [["log"], ["undo", "--yes"], ["burndown"]] {
            for (form, reason) in [("+1d", "+1d is in the future"), ("in 3 days", "in 3 days is in the future"),
                                   ("14:02", "14:02 is later than now"), ("2026-11-24", "2026-11-24 is later than now")] {
                let refused = try await run("todoctl", command + ["--since", form], environment: daemon.environment.merging(fixedClock) { $1 })
                #expect(refused.status == 64, "\(command) --since \(form): \(refused.status) \(refused.stdout)")
                #expect(refused.stderr.contains(reason), "\(command) --since \(form): \(refused.stderr)")
                // The forms, with the units as this command reads them: m is a month to burndown alone.
                let units = command == ["burndown"] ? "3d, 2w, 1m, 1y (or -2w …) with units d, w, m or mo (months), y" : "10m, 2h, 3d, 1w, 1mo, 1y (or -10m …) with units s, m or min (minutes)"
                #expect(refused.stderr.contains(units) && refused.stderr.contains("3 days ago"), "\(command): \(refused.stderr)")
            }
        }
        // Nothing was taken back by the refused undo.
        let listed = try await daemon.todoctl("list", environment: fixedClock)
        #expect(listed.lines.count == 1, "\(listed.stdout)")
        try await daemon.stop()
    }

    @Test("purge --older-than refuses 6m, asking whether 6mo or 6min is meant, and purges nothing: m is minutes to log and undo, and a purge cannot be undone (outside probe 10)")
    func purgeRefusesAmbiguousMinutes() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        for command in [["add", "Old"], ["rm", "1"]] {
            let result = try await daemon.todoctl(command, environment: fixedClock)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        for form in ["6m", "-6m"] {
            let refused = try await daemon.todoctl("purge", "--yes", "--older-than", form, environment: fixedClock)
            #expect(refused.status == 64, "\(form): \(refused.status) \(refused.stdout)")
            #expect(refused.stderr.contains("did you mean 6mo (months) or 6min (minutes)?"), "\(form): \(refused.stderr)")
        }
        // 6min and 6mo are taken; the todo deleted at the clock's minute is younger than either.
        for form in ["6min", "6mo", "6 minutes ago"] {
            let taken = try await daemon.todoctl("purge", "--yes", "--older-than", form, environment: fixedClock)
            #expect(taken.status == 0 && !taken.stdout.contains("purged for good"), "\(form): \(taken.status) \(taken.stdout)\(taken.stderr)")
        }
        let deleted = try await daemon.todoctl("list", "--deleted", environment: fixedClock)
        #expect(deleted.stdout.contains("Old"), "\(deleted.stdout)\(deleted.stderr)")
        let help = try await run("todoctl", ["purge", "--help"], environment: ["COLUMNS": "200"])
        #expect(help.stdout.contains("min (minutes)") && help.stdout.contains("6mo or 6min"), "\(help.stdout)")
        try await daemon.stop()
    }

    @Test("every message leads with todoctl:, usage errors as the rest (ArgumentParser's Error: was the odd one out beside todoctl: unknown command; outside probe)", arguments: [
        ["add", "x", "prio:H"], ["add", "x", "--due", "someday"], ["list", "--limit", "0"], ["ad", "x"], ["show", "x y"],
    ])
    func oneMessageFormat(arguments: [String]) async throws {
        let result = try await run("todoctl", arguments, environment: ["TODOD_SOCKET": "/nonexistent/todod.sock"])
        #expect(result.status == 64, "\(arguments): \(result)")
        #expect(result.stderr.hasPrefix("todoctl: ") && !result.stderr.contains("Error: "), "\(arguments): \(result.stderr)")
    }

    @Test("log and undo --since follow TODOD_TEST_NOW, as burndown and --due do")
    func sinceFollowsTheTestClock() async throws {
        // Three days before the real date of this machine's clock or more: a real clock reads
        // `--since 1h` as after every change.
        let clock = ["TODOD_TEST_NOW": "2020-03-01T09:00:00Z", "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(environment: clock)
        _ = try await daemon.todoctl("add", "Pay rent", environment: clock)
        let log = try await daemon.todoctl("log", "--since", "1h", environment: clock)
        #expect(log.lines.count == 1, "\(log.stdout)\(log.stderr)")
        let undo = try await daemon.todoctl("undo", "--since", "1h", environment: clock)
        #expect(undo.status == 0 && undo.stdout.contains("deleted"), "\(undo.status) \(undo.stdout)\(undo.stderr)")
        try await daemon.stop()
    }
}

extension CommandLineTests {
    @Test("--socket and --json before a command with subcommands, or between it and its subcommand, reach the subcommand (conflicts take, context define): they were refused as unknown options (exit 64)")
    func socketBeforeANestedCommand() async throws {
        let daemon = try await DaemonProcess.start()
        // No TODOD_SOCKET: only the option names the daemon; XDG_CONFIG_HOME keeps contexts in the test's directory.
        let environment = ["XDG_CONFIG_HOME": daemon.environment["XDG_CONFIG_HOME"] ?? ""]
        let socket = daemon.socketPath
        for form in [["--socket", socket, "conflicts", "list", "--json"], ["--json", "--socket=\(socket)", "conflicts", "list"],
                     ["conflicts", "--socket", socket, "list", "--json"]] {
            let listed = try await run("todoctl", form, environment: environment)
            #expect(listed.status == 0 && listed.stdout == "[]\n", "\(form): \(listed.status) \(listed.stdout)\(listed.stderr)")
        }
        for form in [["--socket", socket, "conflicts", "take", "1"], ["conflicts", "--socket", socket, "leave", "1"]] {
            let refused = try await run("todoctl", form, environment: environment)
            // The daemon's answer (no such conflict), not a usage error.
            #expect(refused.status == 1 && !refused.stderr.contains("Unknown option"), "\(form): \(refused.status) \(refused.stderr)")
        }
        let defined = try await run("todoctl", ["--socket", socket, "context", "define", "work", "project:work"], environment: environment)
        #expect(defined.status == 0, "\(defined.status) \(defined.stdout)\(defined.stderr)")
        let contexts = try await run("todoctl", ["context", "--socket", socket, "apply"], environment: environment)
        #expect(contexts.status == 0 && contexts.stdout.contains("work"), "\(contexts.status) \(contexts.stdout)\(contexts.stderr)")
        try await daemon.stop()
    }

    @Test("todoctl --socket P help and --socket P --help print what todoctl help and --help print")
    func helpAfterSocket() async throws {
        let plain = try await run("todoctl", ["--help"])
        #expect(plain.status == 0 && plain.stdout.contains("SUBCOMMANDS"), "\(plain.stdout)")
        for form in [["--socket", "/tmp/x.sock", "help"], ["--socket", "/tmp/x.sock", "--help"], ["--socket=/tmp/x.sock", "--help"], ["help"]] {
            let result = try await run("todoctl", form)
            #expect(result.status == 0 && result.stdout == plain.stdout, "\(form): \(result.status) \(result.stdout.prefix(200)) \(result.stderr)")
        }
    }

    @Test("next --limit, show -1 and show 0 say what is wrong and what to do")
    func parseErrorsNameTheProblem() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Pay rent", "-p", "high")
        let next = try await daemon.todoctl("next", "--limit", "1")
        #expect(next.status == 0 && next.lines.count == 1, "\(next.status) \(next.stdout)\(next.stderr)")
        let negative = try await daemon.todoctl("show", "-1")
        #expect(negative.status == 64, "\(negative.status)")
        #expect(negative.stderr.contains("-1 is not a todo") && negative.stderr.contains("numbered from 1"), "\(negative.stderr)")
        let zero = try await daemon.todoctl("show", "0")
        #expect(zero.status == 64, "\(zero.status)")
        #expect(zero.stderr.contains("0 is not a todo") && zero.stderr.contains("numbered from 1"), "\(zero.stderr)")
        try await daemon.stop()
    }

    @Test("show '' (or only spaces) says the todo named is empty and what to give, not a message with an empty name")
    func emptyReferenceSaysSo() async throws {
        for word in ["", "  "] {
            let result = try await run("todoctl", ["show", word])
            #expect(result.status == 64, "\(result.status)")
            #expect(result.stderr.contains("the todo named is empty: give its number (3 or #3), its id"), "\(result.stderr)")
            #expect(!result.stderr.contains(": is not a todo") && !result.stderr.contains(":  is not"), "\(result.stderr)")
        }
    }

    @Test("--json before the command works as after it")
    func jsonBeforeTheCommand() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Pay rent")
        let before = try await daemon.todoctl("--json", "list")
        let after = try await daemon.todoctl("list", "--json")
        #expect(before.status == 0 && before.stdout == after.stdout, "\(before.status) \(before.stdout)\(before.stderr)")
        let short = try await daemon.todoctl("-j", "show", "1")
        #expect(short.status == 0 && short.stdout.contains("\"title\" : \"Pay rent\""), "\(short.status) \(short.stdout)\(short.stderr)")
        try await daemon.stop()
    }

    @Test("an empty --socket is a usage error (64) that says so")
    func emptySocket() async throws {
        for form in [["list", "--socket", ""], ["--socket", "", "list"], ["--socket=", "add", "x"]] {
            let result = try await run("todoctl", form)
            #expect(result.status == 64, "\(form): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("--socket is empty"), "\(form): \(result.stderr)")
        }
    }

    @Test("no daemon at a --socket of one's own: the advice starts todod on that socket")
    func adviceNamesTheSocket() async throws {
        let directory = try makeTemporaryDirectory()
        let result = try await run("todoctl", ["list", "--socket", directory + "/mine.sock"])
        #expect(result.status == 69, "\(result.status)")
        #expect(result.stderr.contains("todod --socket \(directory)/mine.sock &"), "\(result.stderr)")
    }

    @Test("--socket naming a file that is no socket (a database): todoctl says it is a file and what --socket names, not to start todod there, which would then say to remove the file (outside probe 11, F13)")
    func socketThatIsAFile() async throws {
        let directory = try makeTemporaryDirectory()
        let database = directory + "/todos.sqlite"
        try Data("SQLite format 3".utf8).write(to: URL(fileURLWithPath: database))
        let result = try await run("todoctl", ["list", "--socket", database])
        #expect(result.status == 69, "\(result.status)")
        #expect(result.stderr.contains("\(database) is a file, not a socket: --socket and $TODOD_SOCKET name the socket todod listens on"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("todod --socket"), "\(result.stderr)")
    }

    @Test("--socket naming another program's socket: one that never answers, and one that answers a line of its own, are each said not to answer as todod does, within the wait for todod's hello, by a command and by events (todoctl hung on the first; outside probe 11, F13)", arguments: [
        ("silent", "EXEC:cat", "nothing came within 10 s, where todod says hello at once"),
        ("talking", "SYSTEM:echo SSH-2.0-OpenSSH_9.2", #"it said "SSH-2.0-OpenSSH_9.2", not todod's hello"#),
    ])
    func socketOfAnotherProgram(name: String, answer: String, reason: String) async throws {
        let path = try makeTemporaryDirectory() + "/\(name).sock"
        let server = try ChildProcess("/usr/bin/socat", ["-d", "-d", "UNIX-LISTEN:\(path),fork", answer], environment: ["PATH": "/usr/bin:/bin"])
        defer { server.stopNow() }
        _ = try await server.awaitLine(containing: "listening on")
        // A command, and events (watch's connection) alike.
        for command in [["list"], ["events", "--once"]] {
            let result = try await run("todoctl", command + ["--socket", path])
            #expect(result.status == 69, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(path) does not answer as todod does (\(reason)): it is another program's socket"),
                    "\(command): \(result.stderr)")
        }
    }

    @Test("todoctl 3 done suggests todoctl done 3")
    func numberBeforeCommand() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Pay rent")
        let result = try await daemon.todoctl("1", "done")
        #expect(result.status == 64, "\(result.status)")
        #expect(result.stderr.contains("todoctl reads the command first: try `todoctl done 1`"), "\(result.stderr)")
        try await daemon.stop()
    }

    @Test("list fits titles to $COLUMNS: longer than 60 in a wide terminal, cut in a narrow one")
    func listFollowsTheWidth() async throws {
        let daemon = try await DaemonProcess.start()
        let title = String(repeating: "word ", count: 20) + "end"  // 103 columns
        _ = try await daemon.todoctl("add", title)
        let wide = try await daemon.todoctl("list", environment: ["COLUMNS": "200"])
        #expect(wide.stdout.contains(title), "\(wide.stdout)")
        let narrow = try await daemon.todoctl("list", environment: ["COLUMNS": "40"])
        #expect(narrow.lines.allSatisfy { $0.count <= 40 } && narrow.stdout.contains("…"), "\(narrow.stdout)")
        try await daemon.stop()
    }

    @Test("edit 3 Low -5 gets add's advice, to write -- before the title, and edit 3 -- Low -5 retitles #3 (both said -5 is not a todo; outside probe); -1pc and -5d get it too, not ArgumentParser's guesses")
    func dashedWordInEditsTitle() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["Pay rent", "Fix tap", "Call Ann"] { _ = try await daemon.todoctl("add", title) }
        for (command, said) in [
            (["edit", "3", "Low", "-5"], "todoctl: -5 was read as an option, and edit has no option -5; to make it a word of the title, write -- before the title's words, options before it (quotes do not help): todoctl edit 3 -- Low -5"),
            (["edit", "3", "-p", "low", "Cool", "to", "-5d"], "todoctl: -5d was read as an option, and edit has no option -5d; to make it a word of the title, write -- before the title's words, options before it (quotes do not help): todoctl edit 3 -p low -- Cool to -5d"),
            (["add", "Buy", "-1pc"], "todoctl: -1pc was read as an option, and add has no option -1pc; to make it a word of the title, write -- before the title's words, options before it (quotes do not help): todoctl add -- Buy -1pc"),
        ] {
            let refused = try await run("todoctl", command, environment: daemon.environment)
            #expect(refused.status == 64 && refused.stderr == said + "\n", "\(command): \(refused.status) \(refused.stderr)")
        }
        let edited = try await daemon.todoctl("edit", "3", "--", "Low", "-5")
        #expect(edited.status == 0, "\(edited.stderr)")
        let shown = try await daemon.todoctl("show", "3")
        #expect(shown.lines.first == "#3 Low -5", "\(shown.stdout)")
        // A todo's number given as -5 is still no todo, before a title or after another todo.
        for command in [["edit", "-5", "Low"], ["edit", "3", "-5"], ["done", "3", "-5"]] {
            let refused = try await run("todoctl", command, environment: daemon.environment)
            #expect(refused.status == 64 && refused.stderr.contains("-5 is not a todo"), "\(command): \(refused.stderr)")
        }
        try await daemon.stop()
    }

    @Test("list --columns refuses a column named twice")
    func duplicateColumn() async throws {
        let daemon = try await DaemonProcess.start()
        let result = try await daemon.todoctl("list", "--columns", "number,title,number")
        #expect(result.status == 64, "\(result.status) \(result.stdout)")
        #expect(result.stderr.contains("column 'number' is named twice"), "\(result.stderr)")
        try await daemon.stop()
    }
}

extension CommandLineTests {
    @Test("undo --since's prompt aligns its columns when the seqs and numbers differ in width")
    func undoPromptAligned() async throws {
        let daemon = try await DaemonProcess.start()
        for index in 1...11 { _ = try await daemon.todoctl("add", "Todo \(index)") }
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl undo --since 1h; echo \"exit=$?\"")
        let asked = try await tmux.waitFor("Take back these 11 steps? [y/N]")
        let rows = asked.split(separator: "\n").map(String.init).filter { $0.contains("added") }
        #expect(rows.count == 11, "\(asked)")
        let columns = Set(rows.map { $0.distance(from: $0.startIndex, to: $0.range(of: "added")!.lowerBound) })
        #expect(columns.count == 1, "\(asked)")
        #expect(rows.contains { $0.hasPrefix("   1  #1   added") } && rows.contains { $0.hasPrefix("  11  #11  added") }, "\(asked)")
        try await tmux.type("n")
        try await tmux.waitFor("exit=1")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("log and undo keep their columns past seq 99 and #9: seqs right-aligned, numbers left-aligned, as wide as the widest (the lines wandered; outside probe)")
    func logAndUndoAligned() async throws {
        let daemon = try await DaemonProcess.start()
        let imported = try await daemon.todoctl("import", "--from", "todotxt", "-", input: (1...104).map { "Todo \($0)\n" }.joined())
        #expect(imported.status == 0, "\(imported.stderr)")
        _ = try await daemon.todoctl("edit", "3", "--title", "Third")
        func column(of word: String, in lines: [String]) -> Set<Int> {
            Set(lines.compactMap { line in line.range(of: word).map { line.distance(from: line.startIndex, to: $0.lowerBound) } })
        }
        let log = try await daemon.todoctl("log")
        #expect(log.lines.count == 105 && log.lines.first?.hasPrefix("  1  ") == true && log.lines.last?.hasPrefix("105  ") == true, "\(log.stdout)")
        #expect(column(of: "  added", in: log.lines).count == 1 && column(of: "2026-", in: log.lines).count == 1, "\(log.stdout)")
        #expect(log.lines.first.map { $0.contains("  #1    added") } == true, "\(log.stdout)")
        _ = try await daemon.todoctl("undo")
        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        let rows = undone.lines.filter { $0.contains("deleted") }
        #expect(rows.count == 104 && column(of: "deleted", in: rows).count == 1, "\(undone.stdout)")
        #expect(rows.contains { $0.hasSuffix("#1    deleted") || $0.contains("  #1    deleted") }, "\(undone.stdout)")
        try await daemon.stop()
    }

    @Test("a mistyped option with a value is refused as an unknown option, with the nearest, not blamed on its value")
    func mistypedOptionBeforeItsValue() async throws {
        let nowhere = ["TODOD_SOCKET": "/nonexistent/todod.sock"]
        for (command, typo, meant) in [(["list", "--colums", "number,title"], "--colums", "--columns"), (["list", "--sotr", "due"], "--sotr", "--sort"),
                                       (["rm", "--serach", "milk"], "--serach", "--search"), (["undo", "--sicne", "1h"], "--sicne", "--since"),
                                       (["--sotr=due"], "--sotr", "--sort")] {
            let result = try await run("todoctl", command, environment: nowhere)
            #expect(result.status == 64, "\(command): \(result.status) \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("Unknown option '\(typo)'") && result.stderr.contains("'\(meant)'"), "\(command): \(result.stderr)")
        }
        // An option's value that starts with -- is still its value.
        let search = try await run("todoctl", ["list", "--search", "--sotr"], environment: nowhere)
        #expect(!search.stderr.contains("Unknown option"), "\(search.stderr)")
    }

    @Test("burndown --help and the tour say that purge takes the purged todos out of past days, which never change otherwise")
    func burndownSaysWhatPurgeChanges() async throws {
        let help = try await run("todoctl", ["burndown", "--help"], environment: ["COLUMNS": "200"])
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("a past day never changes, except that `todoctl purge` takes the todos it removes out of every day"), "\(help.stdout)")
        let tour = try Documentation.text(of: "docs/TOUR.md").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(tour.contains("a past day never changes, except that `todoctl purge` takes the todos it removes out of every day"))
    }

    @Test("a value that names nothing says what is wrong and what to give: history 0, --every 0d and 1000d, --parent 0, log --limit -1, -p hi, undo -1 and 0, help nosuch, an alias's unknown option, list -a --deleted")
    func badValuesSayWhy() async throws {
        let nowhere = ["TODOD_SOCKET": "/nonexistent/todod.sock"]
        for (command, words) in [(["history", "0"], ["0 is not a todo: todos are numbered from 1"]),
                                 (["add", "x", "--every", "0d"], ["a period counts 1 to 999 days", "not 0; give 1d to 999d"]),
                                 (["add", "x", "--every", "1000d"], ["not 1000; give 1d to 999d"]),
                                 (["add", "x", "--every", "fortnightly"], ["fortnightly is not a period: give Nd, Nw"]),
                                 (["add", "x", "--parent", "0"], ["0 is not a todo: todos are numbered from 1", "give the parent's number"]),
                                 (["log", "--limit", "-1"], ["--limit takes 1 to 1000, not -1"]),
                                 // ArgumentParser's list said only 'low', 'normal' or 'high' (outside probe).
                                 (["add", "x", "-p", "hi"], ["hi is not a priority: give H, M or L (or high, medium/normal, low; any case)"]),
                                 (["list", "--priority", "urgent"], ["urgent is not a priority: give H, M or L"]),
                                 (["edit", "3", "-p", "x"], ["x is not a priority: give H, M or L"]),
                                 (["undo", "-1"], ["-1 is not a change: changes are numbered from 1"]),
                                 (["undo", "0"], ["0 is not a change: changes are numbered from 1"]),
                                 (["help", "nosuch"], ["unknown command 'nosuch'; the commands are add, list"]),
                                 (["help", "ad"], ["unknown command 'ad'; did you mean add?"]),
                                 (["ls", "--bogus"], ["Unknown option '--bogus'. (todoctl ls --help lists the options)"]),
                                 (["list", "-a", "--deleted"], ["--all and --deleted are different lists: give one"])] {
            let result = try await run("todoctl", command, environment: nowhere)
            #expect(result.status == 64, "\(command): \(result.status) \(result.stdout)\(result.stderr)")
            for word in words { #expect(result.stderr.contains(word), "\(command): \(result.stderr)") }
        }
    }

    @Test("a word starting with - in a title or a note, and a title after a todo's number say how they were read and what to type, exit 64 (outside probe: Unknown option '-5', the editor edits one todo)")
    func dashedAndNumberTitleWords() async throws {
        let nowhere = ["TODOD_SOCKET": "/nonexistent/todod.sock"]
        for (command, said) in [
            (["add", "Temperature", "-5", "degrees"], """
                todoctl: -5 was read as an option, and add has no option -5; to make it a word of the title, write -- before the title's words, \
                options before it (quotes do not help): todoctl add -- Temperature -5 degrees
                """),
            (["add", "Temperature", "-5", "-p", "H", "degrees", "--due=fri"], """
                todoctl: -5 was read as an option, and add has no option -5; to make it a word of the title, write -- before the title's words, \
                options before it (quotes do not help): todoctl add -p H --due=fri -- Temperature -5 degrees
                """),
            (["annotate", "3", "Low", "-5", "at night"], """
                todoctl: -5 was read as an option, and annotate has no option -5; to make it a word of the note, write -- before the note's words, \
                options before it (quotes do not help): todoctl annotate 3 -- Low -5 'at night'
                """),
        ] {
            let result = try await run("todoctl", command, environment: nowhere)
            #expect(result.status == 64, "\(command): \(result.status) \(result.stdout)\(result.stderr)")
            #expect(result.stderr == said + "\n", "\(command): \(result.stderr)")
        }
        let edit = try await run("todoctl", ["edit", "5", "2027"], environment: nowhere)
        #expect(edit.status == 64, "\(edit)")
        #expect(edit.stderr.hasPrefix("""
            todoctl: the editor edits one todo, and 2027 was read as a second todo's number after #5: to retitle #5 "2027", \
            todoctl edit 5 --title 2027; to open the editor on #5, todoctl edit 5; to change several, say what to change
            """), "\(edit.stderr)")
        for (command, said) in [
            (["list", "--sort", "description"], "did you mean title? (Taskwarrior's description is todoctl's title)"),
            (["add", "Party", "until:2026-12-24T10:00"], "until:2026-12-24T10:00: a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give the day alone, 2026-12-24"),
            (["add", "Party", "--until", "2026-12-24T10:00"], "2026-12-24T10:00: a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give the day alone, 2026-12-24"),
            (["add", "Read", "wait:someday"], "wait:someday: todod has no far-off day (Taskwarrior's someday and later): leave the date out, or give a day such as eoy or +3m"),
        ] {
            let result = try await run("todoctl", command, environment: nowhere)
            #expect(result.status == 64 && result.stderr.contains(said), "\(command): \(result.status) \(result.stderr)")
        }
    }

    @Test("ArgumentParser's own errors say what to do, on their first line, exit 64: list --limit x, show and export alone (they said only what was wrong; outside probe)", arguments: [
        (["list", "--limit", "x"], "todoctl: The value 'x' is invalid for '--limit <N>': give a number of todos: todoctl list --limit 20"),
        (["log", "--limit"], "todoctl: Missing value for '--limit <n>': give a number of changes: todoctl log --limit 20"),
        (["show"], "todoctl: Missing expected argument '<ref>': give a todo's number (or id): todoctl show 3"),
        (["export"], "todoctl: Missing expected argument '--to <to>': say which format to write: todoctl export --to taskwarrior (or ical, todotxt, json), -o FILE for a file"),
        (["import"], "todoctl: Missing expected argument '--from <from>': say which format it reads: todoctl import --from taskwarrior FILE"),
        (["undo", "abc"], "todoctl: The value 'abc' is invalid for '<seq>': give a change's seq, as `todoctl log` shows them: todoctl undo 12"),
        (["conflicts", "take", "-4"],
         "todoctl: Missing expected argument '<n>': give a conflict's number, from 1, as `todoctl conflicts` lists them: todoctl conflicts take 1 (or leave 1)"),
    ])
    func argumentParserErrorsAdvise(arguments: [String], first: String) async throws {
        let result = try await run("todoctl", arguments, environment: ["TODOD_SOCKET": "/nonexistent/todod.sock"])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").first.map { $0.hasPrefix(first) } == true, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("Usage: todoctl"), "\(arguments): \(result.stderr)")
    }

    @Test("a number too large for its argument says it is too large and the most it takes, an empty -p that the priority is empty (they said give a number of todos, and ':  is not a priority'; outside probe 10)", arguments: [
        (["list", "--limit", "99999999999999999999"],
         "todoctl: The value '99999999999999999999' is invalid for '--limit <N>': 99999999999999999999 is too large: the most --limit takes is 9223372036854775807, and a limit above the number of todos shows them all"),
        (["next", "--limit", "99999999999999999999"], "99999999999999999999 is too large: the most --limit takes is 9223372036854775807"),
        (["log", "--limit", "99999999999999999999"], "99999999999999999999 is too large: the most --limit takes is 1000 changes: todoctl log --limit 1000"),
        (["undo", "99999999999999999999"], "99999999999999999999 is too large: no change's seq is above 18446744073709551615"),
        (["add", "X", "-p", ""],
         "todoctl: The value '' is invalid for '-p <priority>': the priority is empty: give H, M or L (or high, medium/normal, low; any case), or leave the option out"),
    ])
    func tooLargeAndEmptyValuesSaid(arguments: [String], said: String) async throws {
        let result = try await run("todoctl", arguments, environment: ["TODOD_SOCKET": "/nonexistent/todod.sock"])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        let first = String(result.stderr.split(separator: "\n").first ?? "")
        #expect(first.contains(said) && !first.contains("give a number of") && !first.contains("  "), "\(arguments): \(result.stderr)")
    }
}
