import Foundation
import Testing

/// The reports of #27: `list --sort --limit`, `tags`, `projects`, `summary`, `calendar`.
@Suite("todoctl's reports against a real daemon")
struct ReportTests {
    /// A small list: two projects, one with a sub-project, tags, due dates, one done.
    private func smallList() async throws -> DaemonProcess {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        for words in [
            ["add", "Dig beds", "project:home.garden", "+outside", "due:2026-12-01"],
            ["add", "Fix tap", "project:home", "+diy", "pri:H", "due:2026-11-30"],
            ["add", "Write report", "project:work", "+desk", "+outside"],
            ["add", "Call Ann", "+phone", "due:2026-12-01", "pri:L"],
            ["add", "Paint fence", "project:home", "+outside"],
        ] {
            let added = try await run("todoctl", words, environment: daemon.environment.merging(fixedClock) { $1 })
            #expect(added.status == 0, "\(words): \(added.stderr)")
        }
        let done = try await daemon.todoctl("done", "5", environment: fixedClock)
        #expect(done.status == 0, "\(done.stderr)")
        return daemon
    }

    private func numbers(_ result: CommandResult) -> [String] {
        result.lines.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("calendar, projects and tags at 12, 16 and 20 columns (COLUMNS) keep every line within them, with each todo, project and tag (their layout broke; outside probe)", arguments: [12, 16, 20])
    func narrowReports(columns: Int) async throws {
        let daemon = try await smallList()
        let narrow = fixedClock.merging(["COLUMNS": String(columns)]) { $1 }
        for (command, expected) in [(["calendar", "2026-12"], 2), (["projects"], 3), (["tags"], 4)] {
            let report = try await run("todoctl", command, environment: daemon.environment.merging(narrow) { $1 })
            #expect(report.status == 0, "\(command): \(report.stderr)")
            #expect(report.lines.allSatisfy { $0.count <= columns }, "\(command) at \(columns): \(report.stdout)")
            let rows = command == ["calendar", "2026-12"] ? report.lines.filter { $0.contains("#") } : Array(report.lines.dropFirst(command == ["projects"] ? 1 : 0))
            #expect(rows.count == expected && rows.allSatisfy { $0.last?.isNumber == true || $0.last == "%" || $0.contains("#") }, "\(command) at \(columns): \(report.stdout)")
        }
        try await daemon.stop()
    }

    @Test("list --sort orders by the keys given, ties by number, and --limit shows the first N and how many more")
    func listSortAndLimit() async throws {
        let daemon = try await smallList()
        let byDue = try await daemon.todoctl("list", "--sort", "due,-priority", environment: fixedClock)
        #expect(byDue.status == 0, "\(byDue.stderr)")
        #expect(numbers(byDue) == ["#2", "#1", "#4", "#3"], "\(byDue.stdout)")
        let limited = try await daemon.todoctl("list", "--sort", "-number", "--limit", "2", environment: fixedClock)
        #expect(limited.lines == [limited.lines.first ?? "", limited.lines.dropFirst().first ?? "", "… and 2 more"], "\(limited.stdout)")
        #expect(numbers(limited).prefix(2) == ["#4", "#3"], "\(limited.stdout)")
        let json = try jsonArray(try await daemon.todoctl("list", "--json", "--sort", "title", "--limit", "3").stdout)
        #expect(json.map { $0["title"] as? String } == ["Call Ann", "Dig beds", "Fix tap"])
        let refused = try await daemon.todoctl("list", "--sort", "due,prio")
        #expect(refused.status == 64, "\(refused.status)")
        #expect(refused.stderr.contains("unknown sort key 'prio'") && refused.stderr.contains("number, due, priority, title, created, updated, project"), "\(refused.stderr)")
        // Given twice, refused: the last silently won (outside probe 10).
        let twice = try await daemon.todoctl("list", "--sort", "due", "--sort", "-title")
        #expect(twice.status == 64 && twice.stderr.contains("--sort is given 2 times") && twice.stderr.contains("--sort due,-title"), "\(twice.status) \(twice.stderr)")
        let limits = try await daemon.todoctl("list", "--limit", "2", "--limit", "3")
        #expect(limits.status == 64 && limits.stderr.contains("--limit is given 2 times (2, 3)"), "\(limits.status) \(limits.stderr)")
        try await daemon.stop()
    }

    @Test("list --json gives the table's todos in the table's order, subtasks under their parent, with or without --limit and --sort (it gave Pack where the table showed Trip)")
    func jsonInTheTablesOrder() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        for words in [
            ["add", "Trip"], ["add", "Book flight", "--parent", "1", "-d", "2026-12-02"], ["add", "Pack", "--parent", "1", "-d", "2026-11-28"],
            ["add", "Other", "-d", "tomorrow"],
        ] {
            let added = try await run("todoctl", words, environment: daemon.environment.merging(fixedClock) { $1 })
            #expect(added.status == 0, "\(words): \(added.stderr)")
        }
        for extra in [[], ["--limit", "2"], ["--limit", "3"], ["--sort", "-title"], ["--sort", "-title", "--limit", "2"]] {
            let table = try await run("todoctl", ["list"] + extra, environment: daemon.environment.merging(fixedClock) { $1 })
            let shown = numbers(table).filter { $0.hasPrefix("#") }
            let json = try jsonArray(try await run("todoctl", ["list", "--json"] + extra, environment: daemon.environment.merging(fixedClock) { $1 }).stdout)
            #expect(json.map { "#\($0["number"] as? Int ?? 0)" } == shown, "\(extra): the table \(table.stdout)")
        }
        try await daemon.stop()
    }

    @Test("list, next and summary fit COLUMNS down to 20, wide characters and all (at 20 list printed 25 columns, next ignored the width)", arguments: [20, 21, 24, 28, 30, 40])
    func narrowColumns(columns: Int) async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        for words in [
            ["add", "Trip to 東京 with the whole family", "+travel", "+家族", "+summer", "due:fri", "project:家のこと"],
            ["add", "Renew passport 🛂 before the trip", "+admin", "+urgent", "pri:H", "due:2026-11-20", "project:admin"],
            ["add", "Book flight", "--parent", "1", "-d", "2026-12-02", "+web"],
        ] {
            let added = try await run("todoctl", words, environment: daemon.environment.merging(fixedClock) { $1 })
            #expect(added.status == 0, "\(words): \(added.stderr)")
        }
        for command in ["list", "next", "summary"] {
            let result = try await run("todoctl", [command], environment: daemon.environment.merging(fixedClock) { $1 }.merging(["COLUMNS": "\(columns)"]) { $1 })
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let wide = result.lines.filter { terminalColumns(of: $0) > columns }
            #expect(wide.isEmpty, "\(command) at \(columns) columns:\n\(result.stdout)")
        }
        try await daemon.stop()
    }

}

extension ReportTests {
    @Test("tags, projects and summary count the small list, for people and with --json")
    func tagsProjectsSummary() async throws {
        let daemon = try await smallList()
        let tags = try await daemon.todoctl("tags")
        #expect(tags.lines == ["#outside  2", "#desk     1", "#diy      1", "#phone    1"], "\(tags.stdout)\(tags.stderr)")
        let tagsJSON = try jsonArray(try await daemon.todoctl("tags", "--json").stdout)
        #expect(tagsJSON.first?["tag"] as? String == "outside" && tagsJSON.first?["open"] as? Int == 2, "\(tagsJSON)")

        let projects = try await daemon.todoctl("projects")
        #expect(projects.lines == [
            "Project   Open  Done  Done%",
            "home         2     1    33%",
            "  garden     1     0     0%",
            "work         1     0     0%",
        ], "\(projects.stdout)\(projects.stderr)")
        let projectsJSON = try jsonArray(try await daemon.todoctl("projects", "--json").stdout)
        #expect(projectsJSON.map { $0["project"] as? String } == ["home", "home.garden", "work"], "\(projectsJSON)")
        #expect(projectsJSON.first?["percentDone"] as? Int == 33, "\(projectsJSON)")

        let summary = try await daemon.todoctl("summary", environment: ["COLUMNS": "40"])
        #expect(summary.lines.count == 4, "\(summary.stdout)\(summary.stderr)")
        #expect(summary.lines.dropFirst().allSatisfy { $0.count == 40 }, "\(summary.lines.map(\.count))")
        #expect(summary.lines.dropFirst().first?.hasPrefix("home         2    33%  █████░") == true, "\(summary.stdout)")
        try await daemon.stop()
    }
}

extension ReportTests {
    @Test("calendar draws the month given with its due todos, 40 columns wide, and refuses a month that is none")
    func calendar() async throws {
        let daemon = try await smallList()
        let added = try await daemon.todoctl("add", "東京で会議の準備をするとても長いタイトル", "due:2026-12-31", environment: fixedClock)
        #expect(added.status == 0, "\(added.stderr)")
        // (`lines` leaves out the empty line between the grid and the list.)
        let december = try await daemon.todoctl("calendar", "2026-12", environment: fixedClock.merging(["COLUMNS": "40"]) { $1 })
        #expect(december.lines == [
            "        December 2026",
            "Wk Mo  Tu  We  Th  Fr  Sa  Su",
            "49      1²  2   3   4   5   6",
            "50  7   8   9  10  11  12  13",
            "51 14  15  16  17  18  19  20",
            "52 21  22  23  24  25  26  27",
            "53 28  29  30  31¹",
            "Tu  1  #1 Dig beds",
            "Tu  1  #4 Call Ann",
            "Th 31  #6 東京で会議の準備をするとても…",
        ], "\(december.stdout)\(december.stderr)")
        let now = try await daemon.todoctl("calendar", environment: fixedClock)
        // Through a pipe, today's month gives each day a column more for its brackets (38 columns).
        #expect(now.lines.first == "            November 2026" && now.lines.last == "Mo 30  #2 Fix tap", "\(now.stdout)\(now.stderr)")
        let refused = try await daemon.todoctl("calendar", "2026-13")
        #expect(refused.status == 64 && refused.stderr.contains("2026-13 is not a month: give") && refused.stderr.contains("or YEAR-MONTH (2027-02)"), "\(refused.status) \(refused.stderr)")
        // There is no year 0 (found from outside: it drew "January 0" with an empty grid).
        let yearZero = try await daemon.todoctl("calendar", "0000-01")
        #expect(yearZero.status == 64 && yearZero.stderr.contains("a year from 0001"), "\(yearZero.status) \(yearZero.stderr)")
        let yearTenThousand = try await daemon.todoctl("calendar", "10000-01")
        #expect(yearTenThousand.status == 64 && yearTenThousand.stderr.contains("a year from 0001 to 9999"), "\(yearTenThousand.status) \(yearTenThousand.stderr)")
        try await daemon.stop()
    }
}

extension ReportTests {
    @Test("list --columns shows the columns given in their order under a heading, with --sort, --limit and filters, and refuses an unknown one")
    func listColumns() async throws {
        let daemon = try await smallList()
        let chosen = try await daemon.todoctl("list", "--columns", "number,project,title,due", "--sort", "due", "--limit", "3", environment: fixedClock)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.lines == [
            " #  Project      Title     Due",
            "#2  home         Fix tap   in 7 days",
            "#1  home.garden  Dig beds  in 8 days",
            "#4               Call Ann  in 8 days",
            "… and 1 more",
        ], "\(chosen.stdout)")
        let filtered = try await daemon.todoctl("list", "-a", "+outside", "--columns", "state,title,number", environment: fixedClock)
        #expect(filtered.lines == [
            "State  Title          #",
            "open   Dig beds      #1",
            "open   Write report  #3",
            "done   Paint fence   #5",
        ], "\(filtered.stdout)\(filtered.stderr)")
        let json = try jsonArray(try await daemon.todoctl("list", "--json", "--columns", "number").stdout)
        #expect(json.map { $0["title"] as? String } == ["Fix tap", "Dig beds", "Write report", "Call Ann"], "\(json)")
        let refused = try await daemon.todoctl("list", "--columns", "number,titel")
        #expect(refused.status == 64, "\(refused.status)")
        #expect(refused.stderr.contains("unknown column 'titel'") && refused.stderr.contains("did you mean title?"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the columns are number, done, priority, title, due, tags, project, state, wait, created, updated, id"), "\(refused.stderr)")
        try await daemon.stop()
    }

    @Test("list --columns in 32 columns says on stderr which columns it left out, and cuts tags between tags, the rest as +N (project went without a word, a tag was cut mid-word; outside probe)")
    func narrowColumnsSayWhatIsLeftOut() async throws {
        let daemon = try await smallList()
        let narrow = try await daemon.todoctl(
            "list", "--columns", "number,title,due,tags,project", environment: fixedClock.merging(["COLUMNS": "32"]) { $1 })
        #expect(narrow.status == 0, "\(narrow.stderr)")
        #expect(narrow.lines.allSatisfy { $0.count <= 32 } && narrow.lines.first?.contains("Project") == false, "\(narrow.stdout)")
        // #3's two tags give up the second as "+1"; #4's one fits whole.
        #expect(narrow.lines.contains { $0.hasSuffix("  #desk +1") } && narrow.lines.contains { $0.hasSuffix("  #phone") }, "\(narrow.stdout)")
        let tagWords = narrow.lines.dropFirst().flatMap { $0.split(separator: " ") }.filter { $0.hasPrefix("#") && $0.dropFirst().first?.isLetter == true }
        let whole: Set<Substring> = ["#outside", "#diy", "#desk", "#phone"]
        #expect(!tagWords.isEmpty && Set(tagWords).isSubset(of: whole), "\(narrow.stdout)")
        // The columns suggested are those that fit whole: the tags, cut to +1, go too.
        #expect(narrow.stderr == "todoctl: project did not fit in 32 columns and was left out: widen the terminal (or COLUMNS), or choose fewer columns: --columns number,title,due\n", "\(narrow.stderr)")
        try await daemon.stop()
    }
}

extension ReportTests {
    @Test("burndown draws open against done a day a bar from the journal, across a month's end, 40 columns wide, and gives the numbers with --json")
    func burndown() async throws {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2026-11-28T09:00:00Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC", "COLUMNS": "40"]
        let daemon = try await DaemonProcess.start(in: directory, environment: clock)
        func todoctl(_ arguments: String...) async throws -> CommandResult {
            let result = try await run("todoctl", arguments, environment: daemon.environment.merging(clock) { $1 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        for title in ["Dig beds", "Fix tap", "Call Ann"] { _ = try await todoctl("add", title) }
        try now.set("2026-11-30T18:00:00Z")
        _ = try await todoctl("done", "1")
        _ = try await todoctl("add", "Paint fence", "+home")
        try now.set("2026-12-02T09:00:00Z")
        _ = try await todoctl("done", "2", "3")

        let drawn = try await todoctl("burndown")
        #expect(drawn.lines == [
            "             █ open  ▓ done  ▶ today",
            "                              open  done",
            "  Sa 28 Nov │████████████        3     0",
            "  Su 29 Nov │████████████        3     0",
            "  Mo 30 Nov │████████████▓▓▓▓    3     1",
            "  Tu  1 Dec │████████████        3     0",
            "▶ We  2 Dec │████▓▓▓▓▓▓▓▓        1     2",
            "            └────────────────",
            "             0              4",
        ], "\(drawn.stdout)")

        let json = try jsonArray(try await todoctl("burndown", "--json", "--since", "2026-11-30").stdout)
        #expect(json.map { "\($0["date"] as? String ?? "?") \($0["open"] as? Int ?? -1) \($0["done"] as? Int ?? -1) \($0["added"] as? Int ?? -1)" } == [
            "2026-11-30 3 1 1", "2026-12-01 3 0 0", "2026-12-02 1 2 0",
        ], "\(json)")
        let weekly = try jsonArray(try await todoctl("burndown", "--weekly", "--json").stdout)
        #expect(weekly.map { "\($0["date"] as? String ?? "?") \($0["open"] as? Int ?? -1) \($0["done"] as? Int ?? -1)" } == ["2026-11-23 3 0", "2026-11-30 1 3"], "\(weekly)")

        let home = try await todoctl("burndown", "+home", "--since", "-1d")
        #expect(home.lines.prefix(3) == ["only +home", "             █ open  ▓ done  ▶ today", "                              open  done"], "\(home.stdout)")
        #expect(home.lines.dropFirst(3).first == "  Tu  1 Dec │████████████████    1     0", "\(home.stdout)")
        // A virtual tag, or options, head the chart as typed: +OVERDUE had no label, as if every todo counted (outside probe).
        for (filter, label) in [(["+OVERDUE"], "only +OVERDUE"), (["project:home", "-t", "x", "--due-before", "eow"], "only project:home -t x --due-before eow")] {
            let counted = try await run("todoctl", ["burndown"] + filter + ["--since", "-1d"], environment: daemon.environment.merging(clock) { $1 })
            #expect(counted.status == 0 && counted.lines.first == label, "\(filter): \(counted.stdout)\(counted.stderr)")
        }

        let refused = try await run("todoctl", ["burndown", "--since", "2026-12-03"], environment: daemon.environment.merging(clock) { $1 })
        #expect(refused.status == 64 && refused.stderr.contains("2026-12-03 is later than now"), "\(refused.status) \(refused.stderr)")
        try await daemon.stop()
    }

    @Test("list without --columns names on stderr the columns a narrow terminal left out, as --columns does, and keeps the tags' +N where a project fits (outside probe: at 34 columns the tags went without a word)")
    func defaultListSaysWhatIsLeftOut() async throws {
        let daemon = try await smallList()
        let narrow = try await daemon.todoctl("list", environment: fixedClock.merging(["COLUMNS": "26"]) { $1 })
        #expect(narrow.status == 0 && narrow.lines.count == 4 && narrow.lines.allSatisfy { $0.count <= 26 }, "\(narrow)")
        #expect(narrow.stderr.hasPrefix("""
            todoctl: project and tags did not fit in 26 columns and were left out: widen the terminal (or COLUMNS), \
            or choose fewer columns: --columns number,title
            """), "\(narrow.stderr)")
        // The --columns suggested fits where it was suggested (it named the very columns
        // that did not fit, and more than were shown; outside probe 10), each column but the
        // title whole: at 16 columns it named the project, which fitted only cut (home.g…).
        for width in ["16", "20", "24", "26"] {
            let refused = try await daemon.todoctl("list", environment: fixedClock.merging(["COLUMNS": width]) { $1 })
            let suggested = try #require(refused.stderr.split(separator: "--columns ").last.map { String($0.dropLast()) }, "\(refused.stderr)")
            let chosen = try await daemon.todoctl("list", "--columns", suggested, environment: fixedClock.merging(["COLUMNS": width]) { $1 })
            #expect(chosen.status == 0 && chosen.stderr.isEmpty, "\(width) columns, --columns \(suggested): \(chosen.stdout)\(chosen.stderr)")
            let whole = ["project": "home.garden", "due": "in 8 days", "tags": "#desk #outside"]
            for (column, widest) in whole where suggested.split(separator: ",").contains(Substring(column)) {
                #expect(chosen.stdout.contains(widest), "\(width) columns, --columns \(suggested) cuts \(column): \(chosen.stdout)")
            }
        }
        let wider = try await daemon.todoctl("list", environment: fixedClock.merging(["COLUMNS": "34"]) { $1 })
        #expect(wider.status == 0 && wider.stderr.isEmpty, "\(wider)")
        #expect(wider.lines.count == 4 && wider.lines.allSatisfy { $0.count <= 34 && ($0.hasSuffix("+1") || $0.hasSuffix("+2")) }, "\(wider.stdout)")
        #expect(wider.lines.contains { $0.contains("home.…") }, "\(wider.stdout)")
        try await daemon.stop()
    }
}

extension ReportTests {
    /// A daemon whose journal began on 2026-10-20, now 2026-11-28 (a Saturday), COLUMNS as given.
    private func sixWeeksOfJournal() async throws -> (DaemonProcess, [String: String]) {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        try now.set("2026-10-20T09:00:00Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: clock)
        for words in [["add", "Dig beds"], ["add", "東京で会議の準備をする"], ["add", "Call Ann"]] {
            let added = try await run("todoctl", words, environment: daemon.environment.merging(clock) { $1 })
            #expect(added.status == 0, "\(words): \(added.stderr)")
        }
        try now.set("2026-11-28T09:00:00Z")
        let done = try await run("todoctl", ["done", "1"], environment: daemon.environment.merging(clock) { $1 })
        #expect(done.status == 0, "\(done.stderr)")
        return (daemon, clock)
    }

    @Test("burndown draws under 32 columns, down to 20, every line within them (it was refused: needs 32 columns; outside probe)", arguments: [20, 24, 31])
    func narrowBurndown(columns: Int) async throws {
        let (daemon, clock) = try await sixWeeksOfJournal()
        let drawn = try await run("todoctl", ["burndown"], environment: daemon.environment.merging(clock) { $1 }.merging(["COLUMNS": "\(columns)"]) { $1 })
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.lines.allSatisfy { terminalColumns(of: $0) <= columns }, "\(columns):\n\(drawn.stdout)")
        let bars = drawn.lines.filter { $0.contains("│") }
        #expect(bars.count == 14 && bars.last?.hasPrefix("▶ 28 Nov │") == true && bars.last?.hasSuffix("2/1") == true, "\(columns):\n\(drawn.stdout)")
        #expect(drawn.stdout.contains("█ open") && drawn.stdout.contains("▓ done") && drawn.stdout.contains("open/done"), "\(drawn.stdout)")
        try await daemon.stop()
    }

    @Test("burndown --since 1m starts a month back, as 1mo and 1 month ago do (1m was a minute: today alone; outside probe); log's 1m stays a minute, 1mo a month")
    func burndownMonths() async throws {
        let (daemon, clock) = try await sixWeeksOfJournal()
        for since in ["1m", "-1m", "1mo", "1 month ago"] {
            let json = try jsonArray(try await run("todoctl", ["burndown", "--json", "--since", since], environment: daemon.environment.merging(clock) { $1 }).stdout)
            #expect(json.first?["date"] as? String == "2026-10-28" && json.count == 32, "\(since): \(json.first ?? [:]) \(json.count)")
        }
        let weeks = try jsonArray(try await run("todoctl", ["burndown", "--weekly", "--json", "--since", "1m"], environment: daemon.environment.merging(clock) { $1 }).stdout)
        #expect(weeks.first?["date"] as? String == "2026-10-26", "\(weeks.first ?? [:])")
        // To log, whose changes are minutes apart, m is minutes (50000m, under 35 days, reaches
        // the done alone), mo months (2mo reaches the adds too).
        let minutes = try await run("todoctl", ["log", "--since", "50000m"], environment: daemon.environment.merging(clock) { $1 })
        #expect(minutes.lines.count == 1 && minutes.stdout.contains("done"), "\(minutes.stdout)\(minutes.stderr)")
        let months = try await run("todoctl", ["log", "--since", "2mo"], environment: daemon.environment.merging(clock) { $1 })
        #expect(months.lines.count == 4, "\(months.stdout)\(months.stderr)")
        let help = try await run("todoctl", ["burndown", "--help"], environment: daemon.environment)
        #expect(help.stdout.replacingOccurrences(of: "\n", with: " ").contains("m or mo (months)"), "\(help.stdout)")
        try await daemon.stop()
    }
}

extension ReportTests {
    @Test("calendar without colours (a pipe, NO_COLOR) marks today in brackets, in the grid and the list, at 40, 24 and 12 columns, wide titles within them (today was unmarked; outside probe)", arguments: [40, 24, 12])
    func todayInPlainText(columns: Int) async throws {
        let daemon = try await smallList()
        let added = try await daemon.todoctl("add", "東京で会議の準備をするとても長いタイトル", "due:today", environment: fixedClock)
        #expect(added.status == 0, "\(added.stderr)")
        let drawn = try await daemon.todoctl("calendar", environment: fixedClock.merging(["COLUMNS": "\(columns)", "NO_COLOR": "1"]) { $1 })
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.lines.allSatisfy { terminalColumns(of: $0) <= columns }, "\(columns):\n\(drawn.stdout)")
        // 2026-11-23 is a Monday: the week's row begins with it.
        // Its count kept inside the brackets (`[23]` dropped it), touching no day beside it
        // (`[23¹]24`; outside probe 10); under 28 columns the grid is left out.
        #expect(columns < 28 || drawn.lines.contains("48 [23¹] 24   25   26   27   28   29"), "\(columns):\n\(drawn.stdout)")
        #expect(columns >= 28 || !drawn.lines.contains { $0.contains("24") && $0.contains("29") }, "\(columns):\n\(drawn.stdout)")
        #expect(drawn.lines.contains { $0.hasPrefix("[") && $0.contains("#6 東") }, "\(columns):\n\(drawn.stdout)")
        #expect(drawn.lines.contains { $0.hasPrefix(" ") && $0.contains("#2 Fix") }, "\(columns):\n\(drawn.stdout)")
        try await daemon.stop()
    }

    @Test("calendar takes a month by name as people type it: feb (the next), February 2027, 2027 feb, 2027-02; a misspelt one is refused with the name meant and the forms (calendar feb was refused; outside probe)")
    func monthByName() async throws {
        let daemon = try await smallList()
        for words in [["feb"], ["February", "2027"], ["2027", "feb"], ["2027-02"], ["FEB 2027"], ["febr"]] {
            let drawn = try await daemon.todoctl(["calendar"] + words, environment: fixedClock)
            #expect(drawn.status == 0 && drawn.lines.first == "        February 2027", "\(words): \(drawn.stdout)\(drawn.stderr)")
        }
        let november = try await daemon.todoctl("calendar", "nov", environment: fixedClock)
        #expect(november.lines.first == "            November 2026", "\(november.stdout)\(november.stderr)")
        let pastFebruary = try await daemon.todoctl("calendar", "feb", "2026", environment: fixedClock)
        #expect(pastFebruary.lines.first == "        February 2026", "\(pastFebruary.stdout)\(pastFebruary.stderr)")
        for (words, said) in [
            (["febuary"], "febuary is not a month: did you mean february? give its name or first three letters"),
            (["2027"], "2027 is not a month: 2027 is a year alone; give"), (["feb", "27"], "feb 27 is not a month: give"),
            (["fe"], "fe is not a month: give its name"),
        ] {
            let refused = try await daemon.todoctl(["calendar"] + words, environment: fixedClock)
            #expect(refused.status == 64 && refused.stderr.contains(said) && refused.stderr.contains("or YEAR-MONTH (2027-02)"), "\(words): \(refused.stderr)")
        }
        try await daemon.stop()
    }

    @Test("list --columns '' says that no column was named, and lists them; --sort '' names no key; --sort dew suggests due, as a mistyped command is told the nearest (outside probe)")
    func emptyColumnsAndNearestKey() async throws {
        let daemon = try await smallList()
        let empty = try await daemon.todoctl("list", "--columns", "")
        #expect(empty.status == 64, "\(empty.status)")
        #expect(empty.stderr.contains("--columns '' names no column: give one or more of number, done, priority, title, due, tags, project, state, wait, created, updated, id"), "\(empty.stderr)")
        let noKey = try await daemon.todoctl("list", "--sort", "")
        #expect(noKey.status == 64 && noKey.stderr.contains("--sort '' names no key: give one or more of number, due, priority"), "\(noKey.stderr)")
        let dew = try await daemon.todoctl("list", "--sort", "dew")
        #expect(dew.status == 64 && dew.stderr.contains("unknown sort key 'dew' in --sort 'dew'; did you mean due?"), "\(dew.stderr)")
        let column = try await daemon.todoctl("list", "--columns", "number,dew")
        #expect(column.status == 64 && column.stderr.contains("did you mean due?"), "\(column.stderr)")
        try await daemon.stop()
    }
}
