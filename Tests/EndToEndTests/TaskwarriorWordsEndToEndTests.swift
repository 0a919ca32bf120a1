import Foundation
import Testing

@Suite("Taskwarrior's words on todoctl's command line, through a real daemon")
struct TaskwarriorWordsEndToEndTests {
    /// A daemon on Monday 2026-11-23 (`fixedClock`), and todoctl run against it on that day.
    private static func start() async throws -> DaemonProcess {
        try await DaemonProcess.start(environment: fixedClock)
    }

    private static func todoctl(_ daemon: DaemonProcess, _ arguments: String...) async throws -> CommandResult {
        try await todoctl(daemon, arguments)
    }

    private static func todoctl(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> CommandResult {
        try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 })
    }

    private static func added(_ daemon: DaemonProcess, _ arguments: String...) async throws -> [String: Any] {
        try await added(daemon, arguments)
    }

    private static func added(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> [String: Any] {
        let result = try await run("todoctl", ["add", "-j"] + arguments, environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try jsonObject(result.stdout)
    }

    @Test("add Buy bread due:tomorrow +shop project:home pri:H adds \"Buy bread\" with those fields (the words used to land in the title)")
    func addWithModifiers() async throws {
        let daemon = try await Self.start()
        let todo = try await Self.added(daemon, "Buy", "bread", "due:tomorrow", "+shop", "project:home", "pri:H", "recur:weekly", "wait:today")
        #expect(todo["title"] as? String == "Buy bread", "\(todo)")
        #expect(todo["due"] as? String == "2026-11-24", "\(todo)")
        #expect(todo["tags"] as? [String] == ["shop"], "\(todo)")
        #expect(todo["project"] as? String == "home", "\(todo)")
        #expect(todo["priority"] as? String == "high", "\(todo)")
        #expect(todo["wait"] as? String == "2026-11-23", "\(todo)")
        #expect((todo["recurrence"] as? [String: Any])?["every"] as? String == "1w", "\(todo)")
        try await daemon.stop()
    }

    @Test("add, edit and --every take Taskwarrior's periods, as import does: recur:biweekly, recur:quarterly, recur:2weeks, --every 3mo (add and edit refused them)")
    func taskwarriorPeriods() async throws {
        let daemon = try await Self.start()
        for (period, every) in [("biweekly", "2w"), ("quarterly", "3m"), ("2weeks", "2w")] {
            let todo = try await Self.added(daemon, "Pay", "rent", "due:tomorrow", "recur:" + period)
            #expect((todo["recurrence"] as? [String: Any])?["every"] as? String == every, "\(period): \(todo)")
        }
        let option = try await Self.added(daemon, "Check", "smoke", "alarm", "-d", "tomorrow", "--every", "3mo")
        #expect((option["recurrence"] as? [String: Any])?["every"] as? String == "3m", "\(option)")
        let edited = try await Self.todoctl(daemon, "edit", "1", "recur:semiannual")
        #expect(edited.status == 0, "\(edited.stderr)")
        let shown = try jsonObject(try await Self.todoctl(daemon, "show", "1", "--json").stdout)
        #expect((shown["recurrence"] as? [String: Any])?["every"] as? String == "6m", "\(shown)")
        try await daemon.stop()
    }

    @Test("+🎉 and +_x are tags as in Taskwarrior (they were left in the title), and edit's -_x removes one past ArgumentParser")
    func tagsTaskwarriorTakes() async throws {
        let daemon = try await Self.start()
        let todo = try await Self.added(daemon, "Party", "+🎉", "+_x")
        #expect(todo["title"] as? String == "Party" && todo["tags"] as? [String] == ["🎉", "_x"], "\(todo)")
        let edited = try await Self.todoctl(daemon, "edit", "1", "-_x")
        #expect(edited.status == 0, "\(edited.stderr)")
        let shown = try jsonObject(try await Self.todoctl(daemon, "show", "1", "--json").stdout)
        #expect(shown["tags"] as? [String] == ["🎉"], "\(shown)")
        try await daemon.stop()
    }

    @Test("-家 and -🎉, a one-letter tag that is no ASCII letter, leave a tag out of list and remove it in edit, as -home does (ArgumentParser said \"Unknown option '-家'\")")
    func oneLetterTagRemoval() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Party", "+🎉")
        _ = try await Self.added(daemon, "Milk", "+家")
        for tag in ["-家", "-🎉"] {
            let listed = try await Self.todoctl(daemon, "list", tag, "--json")
            #expect(listed.status == 0, "\(tag): \(listed.stderr)")
            let found = ((try? jsonArray(listed.stdout)) ?? []).compactMap { $0["title"] as? String }
            #expect(found == [tag == "-家" ? "Party" : "Milk"], "\(tag): \(listed.stdout)")
        }
        let edited = try await Self.todoctl(daemon, "edit", "2", "-家")
        #expect(edited.status == 0, "\(edited.stderr)")
        let shown = try jsonObject(try await Self.todoctl(daemon, "show", "2", "--json").stdout)
        #expect(shown["tags"] as? [String] == [], "\(shown)")
        try await daemon.stop()
    }

    @Test("edit 1 -x and list -x read a one-letter -x that is no option of the command as the tag x, as Taskwarrior does (\"Unknown option '-x'\"); -t, -p and -a stay options (outside probe)")
    func oneASCIILetterTagRemoval() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Party", "+x", "+y")
        _ = try await Self.added(daemon, "Milk", "+y")
        let listed = try await Self.todoctl(daemon, "list", "-x", "-a", "--json")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(((try? jsonArray(listed.stdout)) ?? []).compactMap { $0["title"] as? String } == ["Milk"], "\(listed.stdout)")
        let edited = try await Self.todoctl(daemon, "edit", "1", "-x", "-t", "z", "-p", "H")
        #expect(edited.status == 0, "\(edited.stderr)")
        let shown = try jsonObject(try await Self.todoctl(daemon, "show", "1", "--json").stdout)
        #expect(shown["tags"] as? [String] == ["y", "z"] && shown["priority"] as? String == "high", "\(shown)")
        try await daemon.stop()
    }

    @Test("list +OVERDUE, +TODAY and +COMPLETED find what they say, as Taskwarrior's virtual tags do (+OVERDUE listed nothing), and add x +OVERDUE is refused (it made a tag)")
    func virtualTags() async throws {
        let daemon = try await Self.start()
        for words in [["Late", "due:yesterday"], ["Now", "due:today"], ["Soon", "due:tomorrow"], ["Whenever"]] {
            _ = try await Self.added(daemon, words)
        }
        _ = try await Self.todoctl(daemon, "done", "3")
        for (tag, titles) in [("+OVERDUE", ["Late"]), ("+TODAY", ["Now"]), ("+COMPLETED", ["Soon"]), ("+WEEK", ["Now"]), ("+DUE", ["Now"])] {
            let listed = try await Self.todoctl(daemon, "list", tag, "--json")
            #expect(listed.status == 0, "\(tag): \(listed.stderr)")
            let found = ((try? jsonArray(listed.stdout)) ?? []).compactMap { $0["title"] as? String }.sorted()
            #expect(found == titles, "\(tag): \(listed.stdout)")
        }
        let refused = try await Self.todoctl(daemon, "add", "x", "+OVERDUE")
        #expect(refused.status == 64 && refused.stderr.contains("OVERDUE is one of Taskwarrior's virtual tags"), "\(refused.status) \(refused.stderr)")
        try await daemon.stop()
    }

    @Test("after --, due:x and -y are title words; -word before it is never taken for short options (-hello printed the help)")
    func literalAndDashes() async throws {
        let daemon = try await Self.start()
        let todo = try await Self.added(daemon, "Read", "--", "due:x", "-y")
        #expect(todo["title"] as? String == "Read due:x -y", "\(todo)")
        let hello = try await Self.todoctl(daemon, "add", "Foo", "-hello")
        #expect(hello.status == 64, "\(hello.stdout)")
        #expect(hello.stderr.contains("-hello removes the tag hello, and a new todo has no tags to remove"), "\(hello.stderr)")
        #expect(hello.stderr.contains("todoctl add TITLE -- -hello"), "\(hello.stderr)")
        try await daemon.stop()
    }

    @Test("a quoted argument with a space is a title phrase, as in Taskwarrior: \"Re: meeting\" and \"+ve thinking\" stay in the title (they were refused as a modifier, or read as a tag)", arguments: [
        (["Re: meeting"], "Re: meeting"), (["Bob: call back"], "Bob: call back"), (["+ve thinking"], "+ve thinking"),
        (["Positive", "+ve thinking"], "Positive +ve thinking"), (["Keep", "-ve thoughts out"], "Keep -ve thoughts out"),
        (["Due: taxes"], "Due: taxes"), (["Re:", "meeting"], "Re: meeting"),
    ])
    func quotedPhrases(arguments: [String], title: String) async throws {
        let daemon = try await Self.start()
        let todo = try await Self.added(daemon, arguments)
        #expect(todo["title"] as? String == title, "\(todo)")
        #expect(todo["tags"] as? [String] == [], "\(todo)")
        let edited = try await Self.todoctl(daemon, ["edit", "1"] + arguments + ["-j"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect((try? jsonObject(edited.stdout))?["title"] as? String == title, "\(edited.stdout)")
        try await daemon.stop()
    }

    @Test("a quoted modifier whose value has a space still sets its field, as Taskwarrior reads due:\"dec 2\"")
    func quotedModifierValue() async throws {
        let daemon = try await Self.start()
        let todo = try await Self.added(daemon, "Pay", "due:dec 2")
        #expect(todo["title"] as? String == "Pay", "\(todo)")
        #expect(todo["due"] as? String == "2026-12-02", "\(todo)")
        try await daemon.stop()
    }

    @Test("edit 1 -shop +food pri:L due: removes shop, adds food, lowers the priority and removes the due date")
    func editWithModifiers() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Buy", "bread", "+shop", "due:fri")
        let edited = try await Self.todoctl(daemon, "edit", "1", "-shop", "+food", "pri:L", "due:", "-j")
        #expect(edited.status == 0, "\(edited.stderr)")
        let todo = try jsonObject(edited.stdout)
        #expect(todo["tags"] as? [String] == ["food"], "\(todo)")
        #expect(todo["priority"] as? String == "low", "\(todo)")
        #expect(todo["due"] is NSNull, "\(todo)")
        #expect(todo["title"] as? String == "Buy bread", "\(todo)")
        try await daemon.stop()
    }

    @Test("the same field given twice with two values is refused in add and edit, exit 64, naming both (the last silently won): due:fri due:mon, pri:H pri:L, project:a +project:b, -t project:a project:b (outside probe)")
    func sameFieldTwice() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "B", "+x", "project:home")
        for (arguments, both) in [
            (["add", "X", "due:fri", "due:mon"], "due:fri and due:mon both give the due date"),
            (["add", "X", "pri:H", "pri:L"], "pri:H and pri:L both give the priority"),
            (["add", "X", "project:a", "+project:b"], "project:a and +project:b both give the project"),
            (["add", "X", "-t", "project:a", "project:b"], "project:a and project:b both give the project"),
            (["edit", "1", "project:work", "pro:foo"], "project:work and pro:foo both give the project"),
            (["edit", "1", "due:", "due:fri"], "due: and due:fri both give the due date"),
            (["edit", "1", "-t", "project:a", "project:b"], "project:a and project:b both give the project"),
        ] {
            let refused = try await Self.todoctl(daemon, arguments)
            #expect(refused.status == 64, "\(arguments): \(refused)")
            #expect(refused.stderr.contains(both + ", and a todo has one: give one of them"), "\(arguments): \(refused.stderr)")
        }
        let todos = try jsonArray(try await Self.todoctl(daemon, "list", "--all", "-j").stdout)
        #expect(todos.count == 1 && (todos.first?["tags"] as? [String]) == ["x"] && todos.first?["project"] as? String == "home", "\(todos)")
        // One project named, twice or once, is taken; edit's takes the place of the old one.
        let edited = try await Self.todoctl(daemon, "edit", "1", "project:work", "+project:work", "-j")
        #expect(edited.status == 0, "\(edited.stderr)")
        let moved = try jsonObject(edited.stdout)
        #expect(moved["tags"] as? [String] == ["x"] && moved["project"] as? String == "work", "\(edited.stdout)")
        let option = try jsonObject(try await Self.todoctl(daemon, "edit", "1", "-t", "project:baz", "-j").stdout)
        #expect(option["tags"] as? [String] == ["x"] && option["project"] as? String == "baz", "edit -t: \(option)")
        let long = try jsonObject(try await Self.todoctl(daemon, "edit", "1", "--project", "home.garden", "-j").stdout)
        #expect(long["project"] as? String == "home.garden", "edit --project: \(long)")
        try await daemon.stop()
    }

    @Test("a field given as a modifier and as an option is taken when both say the same (pri:H -p high was refused) and refused naming both values when they differ, in add and edit alike (outside probe)")
    func modifierAndOption() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "B", "due:2026-12-01")
        for arguments in [["add", "X", "pri:H", "-p", "high"], ["edit", "1", "pri:H", "-p", "high"], ["edit", "1", "due:", "--no-due"],
                          ["add", "Y", "due:2026-12-01", "--due", "2026-12-01"]] {
            let taken = try await Self.todoctl(daemon, arguments)
            #expect(taken.status == 0, "\(arguments): \(taken)")
        }
        for (arguments, both) in [
            (["add", "X", "pri:H", "-p", "low"], "pri: high and -p low both give the priority"),
            (["edit", "2", "pri:L", "-p", "high"], "pri: low and -p high both give the priority"),
            (["add", "X", "due:2026-12-01", "--due", "2026-12-02"], "due: 2026-12-01 and --due 2026-12-02 both give the due date"),
            (["edit", "1", "due:2026-12-01", "--no-due"], "due: 2026-12-01 and --no-due both give the due date"),
            (["edit", "1", "Title", "--title", "Other"], "title words (Title) and --title Other both give the title"),
        ] {
            let refused = try await Self.todoctl(daemon, arguments)
            #expect(refused.status == 64 && refused.stderr.contains(both + ", and a todo has one: give one of them"), "\(arguments): \(refused)")
        }
        try await daemon.stop()
    }

    @Test("a todo that repeats from its due date needs one, as Taskwarrior refuses add x recur:weekly: add without due:, edit giving recur: to a todo without one, edit removing the due date of one that repeats (all were taken; outside probe)")
    func repeatNeedsDue() async throws {
        let daemon = try await Self.start()
        let added = try await Self.todoctl(daemon, "add", "X", "recur:weekly")
        // Seen by todoctl, so a usage error (exit 64) as the words' other mistakes are; an edit's is the daemon's (exit 1).
        #expect(added.status == 64 && added.stderr.contains("a todo that repeats from its due date needs one: give a due date too (due:fri, --due fri)"), "\(added)")
        #expect(try await Self.todoctl(daemon, "add", "X", "--every", "1w").status == 64)
        _ = try await Self.added(daemon, "Plain")
        _ = try await Self.added(daemon, "Rent", "due:fri", "recur:monthly")
        let recur = try await Self.todoctl(daemon, "edit", "1", "recur:weekly")
        #expect(recur.status == 1 && recur.stderr.contains("#1 has no due date to repeat from: give it a due date in the same edit"), "\(recur)")
        let undated = try await Self.todoctl(daemon, "edit", "2", "due:")
        #expect(undated.status == 1 && undated.stderr.contains("#2 repeats from its due date: stop the repeat in the same edit (recur: or --no-every)"), "\(undated)")
        // What it says to do works; a repeat from completion needs no due date.
        #expect(try await Self.todoctl(daemon, "edit", "1", "recur:weekly", "due:fri").status == 0)
        #expect(try await Self.todoctl(daemon, "edit", "2", "due:", "recur:").status == 0)
        #expect(try await Self.todoctl(daemon, "add", "Water", "--every-after", "3d").status == 0)
        // Counted from completion, a repeat needs no due date.
        #expect(try await Self.todoctl(daemon, "add", "X", "--every-after", "1w").status == 0)
        try await daemon.stop()
    }

    @Test("edit 2 1 people retitles #2 \"1 people\" and leaves #1 alone; edit 2 99 budget is #2's title \"99 budget\", not a second todo (both used to change two todos)")
    func editTitleStartingWithANumber() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "First")
        _ = try await Self.added(daemon, "Second")
        let retitled = try await Self.todoctl(daemon, "edit", "2", "1", "people", "-j")
        #expect(retitled.status == 0, "\(retitled.stderr)")
        #expect(try jsonObject(retitled.stdout)["title"] as? String == "1 people", "\(retitled.stdout)")
        let first = try jsonObject(try await Self.todoctl(daemon, "show", "1", "-j").stdout)
        #expect(first["title"] as? String == "First", "#1 was edited too: \(first)")
        let several = try await Self.todoctl(daemon, "edit", "1", "2", "+both")
        #expect(several.status == 0 && several.stdout.split(separator: "\n").count == 2, "\(several)")
        let budget = try await Self.todoctl(daemon, "edit", "2", "99", "budget")
        #expect(budget.status == 0 && budget.stdout == "edited #2 99 budget\n", "\(budget)")
        try await daemon.stop()
    }

    @Test("done pri:L -p high is refused, as add refuses it: it used to complete the low todos; pri:H pri:L too")
    func filterFlagAndModifierConflict() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Low", "pri:L")
        _ = try await Self.added(daemon, "High", "pri:H")
        let both = try await Self.todoctl(daemon, "done", "pri:L", "-p", "high")
        #expect(both.status == 64, "\(both)")
        #expect(both.stderr.contains("pri: and -p both ask for the priority: give one"), "\(both.stderr)")
        let twice = try await Self.todoctl(daemon, "list", "pri:H", "pri:L")
        #expect(twice.status == 64 && twice.stderr.contains("already asks for priority high"), "\(twice)")
        let due = try await Self.todoctl(daemon, "list", "-d", "today", "due:fri")
        #expect(due.status == 64 && due.stderr.contains("due: and --due both ask for the due day"), "\(due)")
        let open = try jsonArray(try await Self.todoctl(daemon, "list", "-j").stdout)
        #expect(open.count == 2, "a todo was completed: \(open)")
        try await daemon.stop()
    }

    @Test("edit 1 project:work puts the todo in work instead of home, as a todo is in one project")
    func editProject() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Report", "project:home.garden", "+later")
        let edited = try await Self.todoctl(daemon, "edit", "1", "pro:work", "-j")
        #expect(edited.status == 0, "\(edited.stderr)")
        let todo = try jsonObject(edited.stdout)
        #expect(todo["tags"] as? [String] == ["later"] && todo["project"] as? String == "work", "\(todo)")
        // Taskwarrior's `modify project:` takes it out of its project; so do -project:work and --no-project.
        for way in [["project:"], ["-project:work"], ["--no-project"]] {
            _ = try await Self.todoctl(daemon, ["edit", "1", "pro:work"])
            let out = try await Self.todoctl(daemon, ["edit", "1"] + way + ["-j"])
            #expect(out.status == 0, "\(way): \(out.stderr)")
            let left = try jsonObject(out.stdout)
            #expect(left["project"] == nil && left["tags"] as? [String] == ["later"], "\(way): \(left)")
        }
        try await daemon.stop()
    }

    @Test("a project:home filter finds home.garden and not homework, in list and in done; --project too; an empty project: finds the todos in none")
    func projectFilter() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Sweep", "project:home")
        _ = try await Self.added(daemon, "Weed", "pro:home.garden", "+outside")
        _ = try await Self.added(daemon, "Essay", "project:homework")
        let listed = try await FilterTests.numbers(daemon, "project:home")
        #expect(listed == [1, 2])
        let outside = try await FilterTests.numbers(daemon, "project:home", "-outside")
        #expect(outside == [1])
        #expect(try await FilterTests.numbers(daemon, "--project", "home.garden") == [2])
        _ = try await Self.added(daemon, "Loose")
        #expect(try await FilterTests.numbers(daemon, "project:") == [4])
        #expect(try await FilterTests.numbers(daemon, "-project:home") == [3, 4])
        let done = try await Self.todoctl(daemon, "done", "project:home.garden")
        #expect(done.status == 0, "\(done.stderr)")
        let open = try await FilterTests.numbers(daemon)
        #expect(open == [1, 3, 4])
        try await daemon.stop()
    }

    @Test("list project: and pri: find the todos with no project and with the normal priority, as Taskwarrior's \"has none\" does; -project: those in one (they were refused as missing a value; outside probe)")
    func emptyProjectAndPriorityFilter() async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "Sweep", "project:home", "pri:H")
        _ = try await Self.added(daemon, "Call Ann")
        _ = try await Self.added(daemon, "Weed", "pro:home.garden")
        _ = try await Self.added(daemon, "Nap", "pri:L", "+project")
        #expect(try await FilterTests.numbers(daemon, "project:") == [2, 4])
        #expect(try await FilterTests.numbers(daemon, "pro:", "pri:") == [2])
        #expect(try await FilterTests.numbers(daemon, "pri:") == [2, 3])
        let done = try await Self.todoctl(daemon, "done", "project:", "pri:L")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try await FilterTests.numbers(daemon) == [1, 2, 3])
        try await daemon.stop()
    }

    @Test("a word shaped like a modifier that is not understood is refused with what was meant, and nothing is added", arguments: [
        (["add", "x", "prio:H"], "prio: is not a modifier; did you mean priority: (pri:)?"),
        (["add", "x", "due:tomorow"], "due:tomorow: \"tomorow\" is not understood as a date; did you mean due:tomorrow?"),
        (["add", "x", "due:2026-02-30"], "due:2026-02-30: February 2026 has 28 days"),
        (["add", "x", "until:fri", "until:mon"], "until:fri and until:mon both give the until date, and a todo has one: give one of them"),
        (["list", "wait:fri"], "wait:fri: a filter cannot ask for a wait date yet: list the waiting todos with `todoctl list --waiting`"),
        (["list", "bread"], "\"bread\" is not a modifier"),
    ])
    func refusals(arguments: [String], message: String) async throws {
        let daemon = try await Self.start()
        let result = try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let open = try await FilterTests.numbers(daemon)
        #expect(open.isEmpty)
        try await daemon.stop()
    }

    @Test("a mistyped command suggests the nearest, exit 64 (it said '2 unexpected arguments … Usage: todoctl list')")
    func typo() async throws {
        let daemon = try await Self.start()
        let result = try await Self.todoctl(daemon, "ad", "Foo")
        #expect(result.status == 64)
        #expect(result.stderr == "todoctl: unknown command 'ad'; did you mean add?\n", "\(result.stderr)")
        // The start of a command, as Taskwarrior takes one (they got the list of commands; outside probe).
        for (typed, meant) in [("mod", "did you mean edit? (Taskwarrior's modify is todoctl's edit)"), ("del", "did you mean delete?"), ("inf", "did you mean show? (Taskwarrior's info is todoctl's show)")] {
            let started = try await Self.todoctl(daemon, typed, "1")
            #expect(started.status == 64 && started.stderr == "todoctl: unknown command '\(typed)'; \(meant)\n", "\(typed): \(started.stderr)")
        }
        let far = try await Self.todoctl(daemon, "zzzzzz")
        #expect(far.status == 64)
        #expect(far.stderr.contains("unknown command 'zzzzzz'; the commands are add, list, next"), "\(far.stderr)")
        // The same with --socket before it (found from outside: it said "ad" is not a modifier).
        for leading in [["--socket", daemon.socketPath], ["--socket=" + daemon.socketPath]] {
            let placed = try await run("todoctl", leading + ["ad", "Foo"], environment: fixedClock)
            #expect(placed.status == 64 && placed.stderr == result.stderr, "\(leading): \(placed)")
        }
        try await daemon.stop()
    }

    @Test("Taskwarrior's order, a filter or todos before the command, is refused with todoctl's order, exit 64 (+home list said \"list\" is not a modifier)", arguments: [
        (["+home", "list"], "todoctl reads the command first: try `todoctl list +home`"),
        (["+home", "pri:H", "next"], "todoctl reads the command first: try `todoctl next +home pri:H`"),
        (["1", "modify", "pri:H"], "todoctl reads the command first: try `todoctl edit 1 pri:H` (Taskwarrior's modify is todoctl's edit)"),
        (["1", "done"], "todoctl reads the command first: try `todoctl done 1`"),
        (["1", "2", "done"], "todoctl reads the command first: try `todoctl done 1 2`"),
        (["-home", "ls"], "todoctl reads the command first: try `todoctl ls -home`"),
        // edit takes a filter only as --filter (it suggested `todoctl edit +x pri:H`, which fails).
        (["+x", "modify", "pri:H"], "todoctl reads the command first: try `todoctl edit --filter '+x' pri:H` (Taskwarrior's modify is todoctl's edit)"),
        (["project:work", "-home", "modify", "pri:H"], "todoctl reads the command first: try `todoctl edit --filter 'project:work -home' pri:H` (Taskwarrior's modify is todoctl's edit)"),
        // Taskwarrior's ranges and info (outside probe).
        (["2-4", "done"], "todoctl reads the command first: try `todoctl done 2-4`"),
        (["1", "info"], "todoctl reads the command first: try `todoctl show 1` (Taskwarrior's info is todoctl's show)"),
        // Taskwarrior's command names in todoctl's order (`modify` was "the commands are add, list …").
        (["modify", "1", "pri:H"], "unknown command 'modify'; did you mean edit? (Taskwarrior's modify is todoctl's edit)"),
        (["info", "1"], "unknown command 'info'; did you mean show? (Taskwarrior's info is todoctl's show)"),
        // start and stop are commands now (issue 26): Taskwarrior's order is pointed at them, as at done.
        (["1", "start"], "todoctl reads the command first: try `todoctl start 1`"),
        (["1,2", "stop"], "todoctl reads the command first: try `todoctl stop 1,2`"),
    ])
    func taskwarriorOrder(arguments: [String], message: String) async throws {
        let result = try await run("todoctl", arguments, environment: ["TODOD_SOCKET": "/nonexistent/todod.sock"])
        #expect(result.status == 64, "\(result.status) \(result.stdout)")
        #expect(result.stderr == "todoctl: \(message)\n", "\(result.stderr)")
    }

    @Test("Taskwarrior's burndown.daily is refused saying what todoctl has instead, exit 64 (they were read as filters: \"burndown.daily\" is not a modifier; outside probe)", arguments: [
        (["burndown.daily"], "unknown command 'burndown.daily'; todoctl's commands take no .daily: try `todoctl burndown` (a bar per day; --weekly for weeks)"),
        (["burndown.weekly", "+home"], "unknown command 'burndown.weekly'; todoctl's commands take no .weekly: try `todoctl burndown --weekly +home`"),
    ])
    func taskwarriorHabits(arguments: [String], message: String) async throws {
        let result = try await run("todoctl", arguments, environment: ["TODOD_SOCKET": "/nonexistent/todod.sock"])
        #expect(result.status == 64, "\(result.status) \(result.stdout)")
        #expect(result.stderr == "todoctl: \(message)\n", "\(result.stderr)")
    }

    @Test("edit with neither todos nor --filter offers only filters edit takes: --filter '+home', not a bare +home (which edit reads as a tag to add)")
    func editWithoutTodos() async throws {
        let result = try await run("todoctl", ["edit", "pri:H"], environment: ["TODOD_SOCKET": "/nonexistent/todod.sock"])
        #expect(result.status == 64, "\(result.status) \(result.stdout)")
        #expect(result.stderr.contains("--filter '+home'") && !result.stderr.contains("such as +home"), "\(result.stderr)")
    }

    @Test("an impossible date given to -d or --wait says why", arguments: [
        (["add", "x", "-d", "2026-02-30"], "2026-02-30: February 2026 has 28 days"),
        (["add", "x", "--wait", "2026-13-01"], "2026-13-01: there is no month 13"),
        (["list", "--due-before", "2026-04-31"], "2026-04-31: April 2026 has 30 days"),
        (["add", "x", "-d", "tomorow"], "did you mean tomorrow?"),
        // A month's day that does not exist, and a time that does not (they said only "none of the forms").
        (["add", "x", "-d", "feb 30"], "feb 30: February has 28 days, 29 in a leap year"),
        (["add", "x", "-d", "31 apr"], "31 apr: April has 30 days"),
        (["add", "x", "-d", "dec 32"], "dec 32: December has 31 days"),
        (["add", "x", "due:dec 0"], "dec 0: there is no day 0; days run from 1"),
        (["log", "--since", "2026-11-31 14:02"], "2026-11-31: November 2026 has 30 days"),
        (["log", "--since", "25:00"], "25:00: there is no hour 25; hours run from 00 to 23"),
        (["log", "--since", "2026-11-20 23:60"], "23:60: there is no minute 60; minutes run from 00 to 59"),
        (["undo", "--since", "2026-11-20T24:00"], "24:00: there is no hour 24; hours run from 00 to 23"),
        // Out of the range of years (they said "it is none of the forms below").
        // Times of day where a day is taken (eod suggested eow, now sow); due: and --due take them.
        (["add", "x", "until:eod"], "until:eod: a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give today or tomorrow"),
        (["add", "x", "--until", "now"], "now: a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give today or tomorrow"),
        (["add", "x", "-d", "25:00"], "25:00: there is no hour 25; hours run from 00 to 23"),
        (["add", "x", "due:fri@9"], "fri@9: 9 is no time of day: write 9am, 9pm or 09:00"),
        (["add", "x", "-d", "10000-01-01"], "10000-01-01: there is no year 10000; years run from 0001 to 9999"),
        (["add", "x", "due:99999-12-31"], "99999-12-31: there is no year 99999; years run from 0001 to 9999"),
        (["list", "--due-before", "10000-01-01"], "10000-01-01: there is no year 10000; years run from 0001 to 9999"),
    ])
    func impossibleDates(arguments: [String], message: String) async throws {
        let daemon = try await Self.start()
        let result = try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        try await daemon.stop()
    }

    @Test("a date option takes a negative offset as its value: -d -1d, --due -1d, --wait -1d (they said \"Missing value for '-d <date>'\")", arguments: [
        (["-d", "-1d"], "due"), (["--due", "-1d"], "due"), (["--wait", "-1d"], "wait"), (["--due=-1d"], "due"),
    ])
    func negativeDateOffsets(arguments: [String], field: String) async throws {
        let daemon = try await Self.start()
        let todo = try await Self.added(daemon, ["Pay"] + arguments)
        #expect(todo[field] as? String == "2026-11-22", "\(todo)")
        let edited = try await Self.todoctl(daemon, ["edit", "1"] + arguments.map { $0 == "-1d" ? "-2d" : $0 == "--due=-1d" ? "--due=-2d" : $0 } + ["-j"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect((try? jsonObject(edited.stdout))?[field] as? String == "2026-11-21", "\(edited.stdout)")
        try await daemon.stop()
    }

    @Test("a negative --limit or --parent says what the option takes, as log --limit -3 does (they said \"Missing value\")", arguments: [
        (["list", "--limit", "-1"], "--limit -1: give 1 or more todos to show"), (["next", "--limit", "-1"], "--limit -1: give 1 or more todos to show"),
        (["add", "x", "--parent", "-1"], "-1 is not a todo: todos are numbered from 1"),
        (["edit", "1", "--parent", "-1"], "-1 is not a todo: todos are numbered from 1"),
    ])
    func negativeNumbers(arguments: [String], message: String) async throws {
        let daemon = try await Self.start()
        _ = try await Self.added(daemon, "First")
        let result = try await Self.todoctl(daemon, arguments)
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        try await daemon.stop()
    }

    @Test("priorities: -p H, -p medium, -p low and pri:m are taken (H and medium were refused)", arguments: [
        (["-p", "H"], "high"), (["-p", "medium"], "normal"), (["-p", "LOW"], "low"), (["pri:m"], "normal"), (["priority:h"], "high"),
    ])
    func priorities(arguments: [String], expected: String) async throws {
        let daemon = try await Self.start()
        let result = try await run("todoctl", ["add", "x", "-j"] + arguments, environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        let todo = try jsonObject(result.stdout)
        #expect(todo["priority"] as? String == expected, "\(todo)")
        try await daemon.stop()
    }
}
