import Foundation
import Testing

/// Times of day typed on todoctl's command line (`due:2026-12-24T15:00`, `--due 'fri 9am'`,
/// `due:eod`), through a real daemon, on Monday 2026-11-23 at 09:00 UTC (`fixedClock`).
@Suite("Times of day on todoctl's command line, through a real daemon")
struct TimeWordsEndToEndTests {
    private static func todoctl(_ daemon: DaemonProcess, _ arguments: String...) async throws -> [String: Any] {
        let result = try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try jsonObject(result.stdout)
    }

    @Test("add and edit keep the time given with due:, wait: and scheduled: (ISO, day@time, eod, now) and with --due and --wait (one argument, 'fri 9am'); a new day alone is due all day again")
    func addAndEdit() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let iso = try await Self.todoctl(daemon, "add", "-j", "Call", "the", "bank", "due:2026-12-24T15:00", "wait:fri@9am", "scheduled:eod")
        #expect(iso["title"] as? String == "Call the bank", "\(iso)")
        #expect(iso["due"] as? String == "2026-12-24" && iso["dueTime"] as? String == "15:00", "\(iso)")
        #expect(iso["wait"] as? String == "2026-11-27" && iso["waitTime"] as? String == "09:00", "\(iso)")
        #expect(iso["scheduled"] as? String == "2026-11-23" && iso["scheduledTime"] as? String == "23:59", "\(iso)")

        let options = try await Self.todoctl(daemon, "add", "-j", "Dentist", "--due", "fri 9am", "--wait", "now")
        #expect(options["due"] as? String == "2026-11-27" && options["dueTime"] as? String == "09:00", "\(options)")
        #expect(options["wait"] as? String == "2026-11-23" && options["waitTime"] as? String == "09:00", "\(options)")

        // Taskwarrior's due:15:00: today's, still to come at 09:00.
        let later = try await Self.todoctl(daemon, "edit", "2", "-j", "due:15:00")
        #expect(later["due"] as? String == "2026-11-23" && later["dueTime"] as? String == "15:00", "\(later)")
        let allDay = try await Self.todoctl(daemon, "edit", "2", "-j", "--due", "fri")
        #expect(allDay["due"] as? String == "2026-11-27" && allDay["dueTime"] == nil, "\(allDay)")

        // The same moment twice is one wish; two different ones are refused, naming both.
        let clash = try await run("todoctl", ["add", "x", "due:fri@9am", "--due", "fri 10am"], environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(clash.status == 64 && clash.stderr.contains("due: 2026-11-27T09:00 and --due 2026-11-27T10:00"), "\(clash.stderr)")
        _ = try await Self.todoctl(daemon, "add", "-j", "y", "due:fri@9am", "--due", "fri 9am")
        try await daemon.stop()
    }
}

/// What a due time means in list and show, at 09:00 on Monday 2026-11-23 (`fixedClock`).
@Suite("Due times in list and show, through a real daemon")
struct DueTimeListEndToEndTests {
    @Test("list says today's due times from now (in 6 h, 1 h overdue) and another day's beside its words; show gives the time beside the date")
    func listAndShow() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let environment = daemon.environment.merging(fixedClock) { $1 }
        for words in [["Call", "the", "bank", "due:2026-11-23T15:00"], ["Stand-up", "due:2026-11-23T08:00"], ["Dentist", "due:2026-11-24T09:30"]] {
            let added = try await run("todoctl", ["add"] + words, environment: environment)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let list = try await run("todoctl", ["list"], environment: environment)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Call the bank") && $0.contains("in 6 h") }, "\(list.stdout)")
        #expect(lines.contains { $0.contains("Stand-up") && $0.contains("1 h overdue") }, "\(list.stdout)")
        #expect(lines.contains { $0.contains("Dentist") && $0.contains("tomorrow 09:30") }, "\(list.stdout)")
        let show = try await run("todoctl", ["show", "2"], environment: environment)
        #expect(show.stdout.contains("2026-11-23 08:00 (1 h overdue)"), "\(show.stdout)")
        try await daemon.stop()
    }
}

/// `--overdue` and `+OVERDUE` at todoctl's minute: the filter carries it to the daemon.
@Suite("Overdue at the minute in filters, through a real daemon")
struct OverdueMinuteEndToEndTests {
    @Test("list +OVERDUE and --overdue find a todo due today at 09:00 at 09:01 and not at 08:59; one due today without a time is not overdue at 23:59")
    func overdueFilters() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let environment = daemon.environment.merging(fixedClock) { $1 }
        for words in [["Stand-up", "due:2026-11-23T09:00"], ["Whole", "day", "due:2026-11-23"], ["Late", "due:2026-11-22T23:00"]] {
            let added = try await run("todoctl", ["add"] + words, environment: environment)
            #expect(added.status == 0, "\(added.stderr)")
        }
        func titles(at instant: String, _ filter: String) async throws -> [String] {
            let clock = environment.merging(["TODOD_TEST_NOW": instant]) { $1 }
            let list = try await run("todoctl", ["list", filter, "--json"], environment: clock)
            #expect(list.status == 0, "\(list.stderr)")
            return try jsonArray(list.stdout).compactMap { $0["title"] as? String }.sorted()
        }
        // --json gives the time beside its day, a whole day without one, and no joined member.
        let json = try await run("todoctl", ["list", "--json"], environment: environment)
        let rows = try jsonArray(json.stdout)
        let standUp = rows.first { $0["title"] as? String == "Stand-up" }
        let whole = rows.first { $0["title"] as? String == "Whole day" }
        #expect(standUp?["due"] as? String == "2026-11-23" && standUp?["dueTime"] as? String == "09:00" && standUp?["dueAt"] == nil, "\(json.stdout)")
        #expect(whole?["due"] as? String == "2026-11-23" && whole?["dueTime"] == nil, "\(json.stdout)")
        for filter in ["+OVERDUE", "--overdue"] {
            #expect(try await titles(at: "2026-11-23T09:01:00Z", filter) == ["Late", "Stand-up"], "\(filter)")
            #expect(try await titles(at: "2026-11-23T08:59:00Z", filter) == ["Late"], "\(filter)")
            #expect(try await titles(at: "2026-11-23T23:59:00Z", filter) == ["Late", "Stand-up"], "\(filter)")
        }
        try await daemon.stop()
    }
}

/// A daemon on a clock the test moves (`TODOD_TEST_NOW=@FILE`, UTC) at `instant`, holding the
/// todo `todoctl add` makes of `words`; the clock, and the environment todoctl reads it with.
private func movableDaemon(at instant: String, adding words: [String]) async throws -> (DaemonProcess, MovableClock, [String: String]) {
    let directory = try makeTemporaryDirectory()
    let now = MovableClock(in: directory)
    try now.set(instant)
    let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
    let daemon = try await DaemonProcess.start(in: directory, environment: clock)
    let added = try await daemon.todoctl(["add"] + words, environment: clock)
    #expect(added.status == 0, "\(added.stderr)")
    return (daemon, now, clock)
}

/// A wait with a time of day ends at that minute, by the daemon's own timer.
@Suite("Timed waits, through a real daemon")
struct TimedWaitEndToEndTests {
    @Test("a todo waiting until 15:00 today is hidden until then and appears at 15:00 in a watching client, without anyone asking: the add armed the daemon's timer for it, not for midnight")
    func waitEndsAtItsMinute() async throws {
        let (daemon, now, clock) = try await movableDaemon(at: "2031-01-03T14:59:58Z", adding: ["Call", "the", "bank", "wait:2031-01-03T15:00"])
        // Its day has come, its minute not: still waiting.
        let listed = try await daemon.todoctl("list", environment: clock)
        #expect(listed.stdout == "no open todos\n", "\(listed.stdout)")

        let watcher = try daemon.connect()
        _ = try await watcher.awaitLine(containing: "responseHello")
        try now.set("2031-01-03T15:00:01Z")
        // The daemon's own timer, armed by the add for 15:00, makes the change.
        let woken = try await watcher.awaitLine(containing: #""change":"updated""#, #""title":"Call the bank""#)
        #expect(woken.contains(#""wait":null"#), "\(woken)")
        let listed2 = try await daemon.todoctl("list", environment: clock)
        #expect(listed2.lines.first?.contains("Call the bank") == true, "\(listed2.stdout)")
        try await daemon.stop()
    }
}

/// Times of day typed into `todoctl watch`, in a real terminal (tmux), at 09:00 on Monday 2026-11-23.
@Suite("Times of day in watch, through a real daemon")
struct WatchTimeEndToEndTests {
    @Test("watch says today's due time from its minute (1 h overdue) as list does, its a keeps due:fri@9am's time (it was due all Friday) and D takes 'tomorrow 15:00'; both are the todo's, as show --json says")
    func addAndDueKeepTimes() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let environment = daemon.environment.merging(fixedClock) { $1 }
        let standUp = try await run("todoctl", ["add", "Stand-up", "due:2026-11-23T08:00"], environment: environment)
        #expect(standUp.status == 0, "\(standUp.stderr)")
        let tmux = try await Tmux(environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        // As list says it: overdue from its minute (watch said "today 08:00", not overdue).
        _ = try await tmux.waitFor("1 h overdue")
        try await tmux.keys("a")
        try await tmux.type("Call dentist due:fri@9am")
        _ = try await tmux.waitFor("in 4 days 09:00")
        let added = try await run("todoctl", ["show", "2", "--json"], environment: environment)
        let todo = try jsonObject(added.stdout)
        #expect(todo["due"] as? String == "2026-11-27" && todo["dueTime"] as? String == "09:00", "\(todo)")

        // The dentist is the second row, after the stand-up due today.
        try await tmux.keys("k", "k", "j", "D")
        try await tmux.type("tomorrow 15:00")
        _ = try await tmux.waitFor("tomorrow 15:00")
        let edited = try jsonObject(try await run("todoctl", ["show", "2", "--json"], environment: environment).stdout)
        #expect(edited["due"] as? String == "2026-11-24" && edited["dueTime"] as? String == "15:00", "\(edited)")
        await tmux.kill()
        try await daemon.stop()
    }
}

/// `todoctl watch` turns a row overdue at its due minute on the test clock (`TODOD_TEST_NOW=@FILE`).
@Suite("A due minute in watch, through a real daemon")
struct WatchDueMinuteEndToEndTests {
    @Test("watch turns a todo due at 09:00 from in 1 min to due now (overdue from its minute) when the clock passes 09:00, without a key pressed")
    func turnsOverdueAtItsMinute() async throws {
        let (daemon, now, clock) = try await movableDaemon(at: "2031-01-03T08:59:58Z", adding: ["Stand-up", "due:2031-01-03T09:00"])
        let tmux = try await Tmux(environment: daemon.environment.merging(clock) { $1 }.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        _ = try await tmux.waitFor("in 1 min")
        try now.set("2031-01-03T09:00:01Z")
        // watch's own timer for the row's minute, not a key or a change, draws it again.
        _ = try await tmux.waitFor("due now")
        await tmux.kill()
        try await daemon.stop()
    }
}

/// `todoctl watch` says its relative due times again as the minute they show changes, between
/// due minutes, on the test clock (outside probe 12: `8 min overdue` stood while list said 9).
@Suite("Relative due times in watch as the minutes pass, through a real daemon")
struct WatchRelativeTimeEndToEndTests {
    /// watch on a daemon at `start` holding `words`' todo shows `before`; at `later` it shows `after` by itself.
    private func watch(at start: String, adding words: [String], shows before: String, at later: String, then after: String) async throws {
        let (daemon, now, clock) = try await movableDaemon(at: start, adding: words)
        let tmux = try await Tmux(environment: daemon.environment.merging(clock) { $1 }.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        _ = try await tmux.waitFor(before)
        try now.set(later)
        // watch's own timer for the next minute its words change, not a key or a change, draws it again.
        _ = try await tmux.waitFor(after)
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("watch turns 10 min overdue into 11 min overdue when the next minute comes, without a key pressed")
    func minutesOverdue() async throws {
        try await watch(at: "2031-01-03T09:00:58Z", adding: ["Stand-up", "due:2031-01-03T08:50"], shows: "10 min overdue", at: "2031-01-03T09:01:01Z", then: "11 min overdue")
    }

    @Test("watch turns in 2 h into in 1 h when the whole hour comes, without a key pressed")
    func hoursAhead() async throws {
        try await watch(at: "2031-01-03T09:30:58Z", adding: ["Lunch", "due:2031-01-03T11:30"], shows: "in 2 h", at: "2031-01-03T09:31:01Z", then: "in 1 h")
    }
}
