import Testing
import TodoModel
import TodoViewModel

@Suite("Taskwarrior's words: +tag, -tag and name:value")
struct TaskwarriorWordsTests {
    private func parse(_ line: String, _ use: TaskwarriorWords.Use = .add) throws(TaskwarriorWordError) -> TaskwarriorWords {
        try TaskwarriorWords.parse(line.split(separator: " ").map(String.init), use: use, today: today)
    }

    private func refusal(_ line: String, _ use: TaskwarriorWords.Use = .add) -> String? {
        do {
            let words = try parse(line, use)
            Issue.record("\(line) was read as \(words), not refused")
            return nil
        } catch {
            return error.message
        }
    }

    @Test("add Buy bread due:tomorrow +shop project:home pri:H gives the title and each field")
    func everyModifier() throws {
        let words = try parse("Buy bread due:tomorrow +shop project:home pri:H wait:fri recur:weekly")
        #expect(words.title == ["Buy", "bread"])
        #expect(words.due == day("2026-11-23"))
        #expect(words.tags == ["shop"])
        #expect(words.project == "home")
        #expect(words.priority == .high)
        #expect(words.wait == day("2026-11-27"))
        #expect(words.recurrence == Recurrence(count: 1, unit: .week))
    }

    @Test("a filter refuses a second, different priority or due day (a todo has one; pri:H pri:L used to keep the last)")
    func secondValueInFilter() throws {
        #expect(refusal("pri:H pri:L", .filter) == "pri:L: the filter already asks for priority high, and a todo has one priority: give one")
        #expect(refusal("due:2026-12-01 due:tomorrow", .filter)?.contains("already asks for due date 2026-12-01") == true)
        #expect(try parse("pri:H priority:high", .filter).priority == .high)
    }

    @Test("add and edit refuse the same field given twice with two values, naming both (the last silently won): due:, wait:, pri:, recur:, project:, +project:", arguments: [
        ("Report due:fri due:mon", TaskwarriorWords.Use.add, "due:fri and due:mon both give the due date, and a todo has one: give one of them"),
        ("Report pri:H pri:L", .add, "pri:H and pri:L both give the priority, and a todo has one: give one of them"),
        ("x project:a project:b", .add, "project:a and project:b both give the project, and a todo has one: give one of them"),
        ("x project:a +project:b", .add, "project:a and +project:b both give the project, and a todo has one: give one of them"),
        ("x wait:fri wait:mon", .add, "wait:fri and wait:mon both give the wait date"),
        ("x recur:1w recur:daily", .add, "recur:1w and recur:daily both give the repeat"),
        ("due: due:fri", .edit, "due: and due:fri both give the due date"),
        ("pri:H pri:", .edit, "pri:H and pri: both give the priority"),
        ("pro:a project:b", .edit, "pro:a and project:b both give the project"),
    ])
    func secondValue(line: String, use: TaskwarriorWords.Use, message: String) {
        #expect(refusal(line, use)?.hasPrefix(message) == true, "\(refusal(line, use) ?? "taken")")
    }

    @Test("the same value twice is one wish, taken: pri:H priority:high, due:fri due:friday, project:a +project:a")
    func sameValueTwice() throws {
        let words = try parse("x pri:H priority:high due:fri due:friday project:a +project:a")
        #expect(words.priority == .high && words.due == day("2026-11-27") && words.project == "a" && words.tags.isEmpty, "\(words)")
    }

    @Test("an edit's empty pri: gives the priority a new todo has, normal: Taskwarrior's pri: clears it, and normal is its none (it was refused)")
    func emptyPriorityInEdit() throws {
        #expect(try parse("pri:", .edit).priority == .normal)
        #expect(try parse("priority:", .edit).priority == .normal)
        #expect(refusal("x pri:")?.contains("pri: needs a value") == true)
    }

    @Test("a project's name has no empty part between dots: project:a..b, .a and a. are refused (projects counted them apart from what a filter found)", arguments: ["a..b", ".a", "a.", "."])
    func emptyProjectPart(value: String) {
        #expect(refusal("x project:\(value)")?.contains("a part with no letters between its dots") == true)
        #expect(refusal("project:\(value)", .filter) != nil)
    }

    @Test("pro: is project:'s short name; names are read in any case", arguments: ["pro:work.reports", "PROJECT:work.reports"])
    func shortNames(word: String) throws {
        #expect(try parse("x " + word).project == "work.reports")
    }

    @Test("a todo is in one project, a field and not a tag: a filter asking for two is refused, as it could match nothing")
    func oneProject() throws {
        let added = try parse("x project:home +a")
        #expect(added.tags == ["a"] && added.project == "home")
        #expect(refusal("project:home pro:work", .filter) == "pro:work: the filter already asks for project home, and a todo has one project: give one")
        #expect(try parse("project:home pro:home", .filter).project == "home")
    }

    @Test("an edit's empty project: and -project:NAME take the todo out of its project (Taskwarrior's modify project:); a filter's empty project: asks for none")
    func noProject() throws {
        #expect(try parse("project:", .edit).clearProject)
        #expect(try parse("pro:", .edit).clearProject)
        let removed = try parse("-project:home", .edit)
        #expect(removed.clearProject && removed.removedTags.isEmpty)
        #expect(try parse("project:", .filter).project == "")
        #expect(try parse("-project:home", .filter).removedTags == ["project:home"], "left out by the filter's tag rule")
        #expect(refusal("x project:") == "project: needs a value after the colon (project: (pro:))")
    }

    @Test("priorities: H/M/L, high/medium/normal/low, any case", arguments: [
        ("pri:H", Priority.high), ("pri:h", .high), ("priority:high", .high), ("pri:M", .normal), ("pri:medium", .normal),
        ("pri:Normal", .normal), ("pri:L", .low), ("pri:low", .low),
    ])
    func priorities(word: String, expected: Priority) throws {
        #expect(try parse("x " + word).priority == expected)
    }

    @Test("recur: takes --every's periods")
    func recur() throws {
        #expect(try parse("x recur:2w").recurrence == Recurrence(count: 2, unit: .week))
        #expect(try parse("x recur:weekdays").recurrence == Recurrence(count: 1, unit: .weekday))
    }

    @Test("recur: takes Taskwarrior's periods as the Taskwarrior import does (they were refused): biweekly, quarterly, 2weeks, 3mo, 2q, fortnight, semiannual, biannual", arguments: [
        ("biweekly", Recurrence(count: 2, unit: .week)), ("quarterly", Recurrence(count: 3, unit: .month)),
        ("2weeks", Recurrence(count: 2, unit: .week)), ("3mo", Recurrence(count: 3, unit: .month)),
        ("2q", Recurrence(count: 6, unit: .month)), ("fortnight", Recurrence(count: 2, unit: .week)),
        ("semiannual", Recurrence(count: 6, unit: .month)), ("biannual", Recurrence(count: 2, unit: .year)),
        ("10days", Recurrence(count: 10, unit: .day)), ("3wks", Recurrence(count: 3, unit: .week)), ("Annual", Recurrence(count: 1, unit: .year)),
        ("5m", Recurrence(count: 5, unit: .month)), ("weekdays", Recurrence(count: 1, unit: .weekday)),
    ])
    func taskwarriorPeriods(period: String, expected: Recurrence) throws {
        #expect(try parse("x recur:" + period).recurrence == expected)
        #expect(try parse("recur:" + period, .edit).recurrence == expected)
    }

    @Test("-tag removes a tag in an edit and leaves out todos in a filter; an edit's empty due: removes the date")
    func removals() throws {
        let edit = try parse("-shop due: recur: wait:", .edit)
        #expect(edit.removedTags == ["shop"])
        #expect(edit.clearDue && edit.clearRecurrence && edit.clearWait)
        let filter = try parse("-shop +home project:home due:yesterday", .filter)
        #expect(filter.removedTags == ["shop"])
        #expect(filter.tags == ["home"] && filter.project == "home")
        #expect(filter.due == day("2026-11-21"))
    }

    @Test("a tag starts as Taskwarrior 2.6's do, with anything but a digit, a space or an operator: +🎉, +_x, +@home, +$x are tags (they stayed in the title); +1x and +.x stay title words, as in task")
    func tagStarts() throws {
        let added = try parse("Party +🎉 +_x +@home +$x +1x +.x")
        #expect(added.tags == ["🎉", "_x", "@home", "$x"], "\(added.tags)")
        #expect(added.title == ["Party", "+1x", "+.x"], "\(added.title)")
        let edited = try parse("-_x -🎉", .edit)
        #expect(edited.removedTags == ["_x", "🎉"], "\(edited.removedTags)")
    }

    @Test("Taskwarrior's virtual tags in a filter ask for what todod keeps, not for a tag (+OVERDUE listed nothing): overdue, due days, states, waiting")
    func virtualTags() throws {
        // Sunday 2026-11-22.
        let overdue = try parse("+OVERDUE", .filter)
        // Overdue is "before now": the filter that reads the words says its minute (TodoFilter.dueByTime).
        #expect(overdue.tags.isEmpty && overdue.overdue && overdue.dueBefore == nil && overdue.status == .open, "\(overdue)")
        #expect(try parse("+TODAY", .filter).due == today)
        #expect(try parse("+TOMORROW", .filter).due == day("2026-11-23"))
        #expect(try parse("+YESTERDAY", .filter).due == day("2026-11-21"))
        let week = try parse("+WEEK", .filter)
        #expect(week.dueAfter == day("2026-11-15") && week.dueBefore == day("2026-11-23"), "\(week)")
        let month = try parse("+MONTH", .filter)
        #expect(month.dueAfter == day("2026-10-31") && month.dueBefore == day("2026-12-01"), "\(month)")
        let quarter = try parse("+QUARTER", .filter)
        #expect(quarter.dueAfter == day("2026-09-30") && quarter.dueBefore == day("2027-01-01"), "\(quarter)")
        // Taskwarrior's DUE: due today or in the 6 days after (its rc.due of 7 days), not overdue.
        let due = try parse("+DUE", .filter)
        #expect(due.dueAfter == day("2026-11-21") && due.dueBefore == day("2026-11-29"), "\(due)")
        #expect(try parse("+COMPLETED", .filter).status == .completed)
        #expect(try parse("+DELETED", .filter).status == .deleted)
        #expect(try parse("+PENDING", .filter).status == .open)
        #expect(try parse("+WAITING", .filter).waiting)
        // Both must hold: the narrower days.
        let both = try parse("+WEEK +OVERDUE", .filter)
        #expect(both.dueAfter == day("2026-11-15") && both.dueBefore == day("2026-11-23") && both.overdue, "\(both)")
    }

    // Each refusal's advice works: upper-case tags of one's own are taken (+Work) (they said
    // "in lower case" and "due.before:", which was refused then).
    @Test("a virtual tag cannot be added or removed, is refused where todod cannot ask for it yet, and two states contradict; the advice names only what works", arguments: [
        ("x +OVERDUE", TaskwarriorWords.Use.add, "+OVERDUE: OVERDUE is one of Taskwarrior's virtual tags, which say what a todo is (due, done …): it cannot be added or removed; give a tag of your own, a name that is not one of Taskwarrior's virtual tags"),
        ("-COMPLETED", .edit, "-COMPLETED: COMPLETED is one of Taskwarrior's virtual tags, which say what a todo is (due, done …): it cannot be added or removed; give a tag of your own, a name that is not one of Taskwarrior's virtual tags"),
        ("-OVERDUE", .filter, "-OVERDUE: a filter cannot leave out a virtual tag yet; ask for what you want instead (+PENDING, --due-before DATE, --due-after DATE, --no-due)"),
        ("+TAGGED", .filter, "+TAGGED: todod cannot filter by the virtual tag TAGGED yet; it takes \(TaskwarriorWords.virtualTagsTaken)"),
        ("+BLOCKED -BLOCKED", .filter, "-BLOCKED: the filter already asks for state blocked, and a todo has one state: give one"),
        ("+PENDING +COMPLETED", .filter, "+COMPLETED: the filter already asks for state open, and a todo has one state: give one"),
    ])
    func virtualTagRefusals(line: String, use: TaskwarriorWords.Use, message: String) {
        #expect(refusal(line, use) == message)
    }

    @Test("after --, every word is a title word, modifiers and all")
    func literal() throws {
        let words = try parse("Read -- due:x +y the book")
        #expect(words.title == ["Read", "due:x", "+y", "the", "book"])
        #expect(words.due == nil && words.tags.isEmpty)
        let given = try TaskwarriorWords.parse(["Read"], literal: ["due:x"], use: .add, today: today)
        #expect(given.title == ["Read", "due:x"])
    }

    @Test("URLs, times, a word ending in a colon and a lone sign stay in the title", arguments: [
        "https://example.com/a:b", "http://x", "10:30", "Re:", "Bob:", "-", "+1", "C++:", "ratio 3:2",
    ])
    func titleWords(line: String) throws {
        let words = try parse("Call " + line)
        #expect(words.title == ["Call"] + line.split(separator: " ").map(String.init))
    }

    @Test("a modifier that is not one is refused with the one meant", arguments: [
        ("x prio:H", "prio: is not a modifier; did you mean priority: (pri:)?"),
        ("x proj:home", "proj: is not a modifier; did you mean project: (pro:)?"),
        ("x deu:fri", "deu: is not a modifier; did you mean due:?"),
        ("x colour:red", "colour: is not a modifier; the modifiers are +tag, -tag, project:, due:, wait:, priority: (pri:) and recur:"),
    ])
    func unknownModifier(line: String, message: String) {
        #expect(refusal(line) == message)
    }

    @Test("until: with a time of day and wait:someday say what todod keeps and what to give, not the generic list (outside probe)")
    func timeOfDayAndSomeday() throws {
        let timed = try #require(refusal("x until:2026-12-24T10:00"))
        #expect(
            timed == "until:2026-12-24T10:00: a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give the day alone, 2026-12-24",
            "\(timed)")
        let someday = try #require(refusal("x wait:someday"))
        #expect(
            someday == "wait:someday: todod has no far-off day (Taskwarrior's someday and later): leave the date out, or give a day such as eoy or +3m",
            "\(someday)")
        let later = try #require(refusal("x due:later"))
        #expect(later.hasPrefix("due:later: todod has no far-off day"), "\(later)")
    }

    @Test("a date that does not read says so, suggests the word meant and lists what is accepted")
    func unreadableDate() throws {
        let message = try #require(refusal("x due:tomorow"))
        #expect(message.hasPrefix("due:tomorow: \"tomorow\" is not understood as a date; did you mean due:tomorrow?"), "\(message)")
        #expect(message.contains(DueDateParser.accepted), "\(message)")
    }

    @Test("an impossible day says why", arguments: [
        ("x due:2026-02-30", "due:2026-02-30: February 2026 has 28 days"),
        ("x wait:2026-13-01", "wait:2026-13-01: there is no month 13; months run from 01 to 12"),
        ("x due:2024-02-30", "due:2024-02-30: February 2024 has 29 days"),
    ])
    func impossibleDate(line: String, message: String) {
        #expect(refusal(line) == message)
    }

    @Test("until:DATE gives the last day a todo is kept open, read as due: reads a date (it was refused as not kept); an edit's empty until: clears it; a filter takes until.before:, until.after: and until:DAY, strictly")
    func until() throws {
        let added = try parse("Renew passport until:2026-12-24 due:2026-12-20")
        #expect(added.title == ["Renew", "passport"] && added.until == LocalDate("2026-12-24") && added.due == LocalDate("2026-12-20"))
        // The same words as due: (today is 2026-11-22, a Sunday).
        #expect(try parse("x until:fri").until == LocalDate("2026-11-27"))
        let endOfMonth = try parse("x due:eom").due
        #expect(try parse("x until:eom").until == endOfMonth)
        #expect(try parse("until:", .edit).clearUntil)
        #expect(refusal("x until:") == "until: needs a value after the colon (until:)")
        let filter = try parse("until.before:2026-12-01 until.after:2026-11-20", .filter)
        #expect(filter.untilBefore == LocalDate("2026-12-01") && filter.untilAfter == LocalDate("2026-11-20"))
        let day = try parse("until:2026-11-27", .filter)
        #expect(day.untilBefore == LocalDate("2026-11-28") && day.untilAfter == LocalDate("2026-11-26"))
        #expect(try parse("+UNTIL", .filter).hasUntil)
        #expect(refusal("x until:fri until:mon") == "until:fri and until:mon both give the until date, and a todo has one: give one of them")
        #expect(refusal("x until:fridy")?.hasPrefix("until:fridy: \"fridy\" is not understood as a date") == true)
    }

    @Test("due:, wait:, scheduled: and until: are read by one reader: each refuses what due: refuses and says so in its own name")
    func oneDateReader() {
        for name in ["due", "wait", "scheduled", "until"] {
            #expect(refusal("x \(name):2026-02-30") == "\(name):2026-02-30: February 2026 has 28 days")
            #expect(refusal("x \(name):fri \(name):mon") == "\(name):fri and \(name):mon both give the \(name) date, and a todo has one: give one of them")
        }
    }

    @Test("due.before: and due.after: ask for a span of due days in a filter, as --due-before and --due-after do (they were refused as attribute modifiers)")
    func dueSpan() throws {
        let filter = try parse("due.before:2026-12-01 due.after:2026-11-20", .filter)
        #expect(filter.dueBefore == LocalDate("2026-12-01") && filter.dueAfter == LocalDate("2026-11-20"))
    }

    @Test("scheduled:DATE gives the day work may begin (it was refused as not kept); an edit's empty scheduled: unschedules; a filter takes scheduled.before:, scheduled.after: and scheduled:DAY, strictly")
    func scheduled() throws {
        let added = try parse("Paint fence scheduled:2026-11-27")
        #expect(added.title == ["Paint", "fence"] && added.scheduled == LocalDate("2026-11-27"))
        #expect(try parse("scheduled:", .edit).clearScheduled)
        let filter = try parse("scheduled.before:2026-12-01 scheduled.after:2026-11-20", .filter)
        #expect(filter.scheduledBefore == LocalDate("2026-12-01") && filter.scheduledAfter == LocalDate("2026-11-20"))
        let day = try parse("scheduled:2026-11-27", .filter)
        #expect(day.scheduledBefore == LocalDate("2026-11-28") && day.scheduledAfter == LocalDate("2026-11-26"))
        #expect(refusal("x scheduled:fri scheduled:mon") == "scheduled:fri and scheduled:mon both give the scheduled date, and a todo has one: give one of them")
        #expect(refusal("scheduled.on:fri", .filter) == "scheduled.on:fri: scheduled.on: is not understood yet (Taskwarrior's attribute modifiers)")
    }

    @Test("depends:3,#5 gives the numbers a todo waits for; an edit's -N takes one away and an empty depends: clears them (they were refused as not kept)")
    func depends() throws {
        let added = try parse("Bake cake depends:3,#5")
        #expect(added.title == ["Bake", "cake"])
        #expect(added.depends == [3, 5])
        let edited = try parse("depends:7,-3", .edit)
        #expect(edited.depends == [7])
        #expect(edited.removedDepends == [3])
        #expect(try parse("depends:", .edit).clearDepends)
    }

    @Test("a filter's depends:12 asks for the todos waiting for #12; +READY for the open, actionable ones; +SCHEDULED for those with a scheduled day")
    func dependsReadyScheduledInFilter() throws {
        let words = try parse("depends:12,#3 +READY +SCHEDULED", .filter)
        #expect(words.depends == [12, 3])
        #expect(words.ready && words.hasScheduled && words.status == .open)
    }

    @Test("depends: refuses what is not a todo number, a removal in an add, an empty one in an add, and a filter's (which asks +BLOCKED)", arguments: [
        ("x depends:bread", TaskwarriorWords.Use.add, "depends:bread: \"bread\" is not understood as todo numbers; depends: takes \(TaskwarriorWords.acceptedDepends)"),
        ("x depends:0", .add, "depends:0: \"0\" is not understood as todo numbers; depends: takes \(TaskwarriorWords.acceptedDepends)"),
        ("x depends:3,", .add, "depends:3,: \"3,\" is not understood as todo numbers; depends: takes \(TaskwarriorWords.acceptedDepends)"),
        ("x depends:-3", .add, "depends:-3: a new todo waits for nothing yet, so there is none to take away (-3)"),
        ("x depends:", .add, "depends: needs a value after the colon (depends:)"),
        ("depends:-3", .filter, "depends:-3: a filter takes todo numbers: depends:3 finds the todos that wait for #3 (and -BLOCKED leaves out those waiting for an open todo)"),
    ])
    func dependsRefusals(line: String, use: TaskwarriorWords.Use, message: String) {
        #expect(refusal(line, use) == message)
    }

    @Test("+BLOCKED and -BLOCKED (+UNBLOCKED), +BLOCKING and -BLOCKING ask whether a todo waits for an open one, or an open one for it")
    func blockedTags() throws {
        #expect(try parse("+BLOCKED", .filter).blocked == true)
        #expect(try parse("-BLOCKED", .filter).blocked == false)
        #expect(try parse("+UNBLOCKED", .filter).blocked == false)
        #expect(try parse("+BLOCKING", .filter).blocking == true)
        #expect(try parse("-BLOCKING +BLOCKED", .filter).blocking == false)
        #expect(try parse("+home", .filter).blocked == nil)
    }

    @Test("other refusals: -tag in add, plain words, wait: and recur: in a filter, attribute modifiers, empty values", arguments: [
        ("x -shop", TaskwarriorWords.Use.add, "-shop removes the tag shop, and a new todo has no tags to remove"),
        ("bread", .filter, "\"bread\" is not a modifier: a filter takes +tag, -tag, project:, due: and priority: (pri:)"),
        ("wait:fri", .filter, "wait:fri: a filter cannot ask for a wait date yet"),
        ("recur:1w", .filter, "recur:1w: a filter cannot ask for a repeat period yet"),
        ("due.by:fri", .filter, "due.by:fri: due.by: is not understood yet (Taskwarrior's attribute modifiers)"),
        ("x due:", .add, "due: needs a value after the colon (due:)"),
        ("x pri:", .add, "pri: needs a value after the colon (priority: (pri:))"),
        ("x pri:X", .add, "pri:X: \"X\" is not understood as a priority; priority: takes \(TaskwarriorWords.acceptedPriorities)"),
        ("x recur:wekly", .add, "recur:wekly: \"wekly\" is not understood as a period; did you mean recur:weekly? recur: takes \(Recurrence.typedForms)"),
    ])
    func refusals(line: String, use: TaskwarriorWords.Use, message: String) {
        #expect(refusal(line, use) == message)
    }
}
