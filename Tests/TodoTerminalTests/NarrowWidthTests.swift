import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// Every line of list, next, summary and watch fits the width given, down to 20 columns,
/// with wide characters in titles, tags and project names (found from outside: at 20
/// columns list printed 25-column rows, watch ran `+2` and its marker line past the edge).
@Suite("Narrow terminals: every line fits")
struct NarrowWidthTests {
    static let widths = Array(20...40)
    let today = LocalDate(year: 2026, month: 11, day: 23)!

    /// Parents with subtasks, tags, due dates, a project, wide titles and tags, and more rows than fit.
    private var todos: [Todo] {
        var todos = [
            todo(1, "Trip to 東京 with the whole family", due: today.adding(days: 4), tags: ["travel", "家族", "summer"], project: "家族.旅行の準備"),
            todo(2, "Book flight", priority: .high, due: today.adding(days: 9), tags: ["web", "money"]),
            todo(3, "買い物リストを書く", due: today.adding(days: -2), tags: ["shop"]),
            todo(4, "x", tags: ["a", "b", "c", "d", "e"]),
        ]
        todos[1].parent = 1
        return todos + (5...30).map { todo($0, "todo number \($0) 🎉", due: today.adding(days: $0 % 5), tags: ["t\($0)", "home"]) }
    }

    private var outline: TodoOutline {
        TodoOutline(TodoViewModelList(
            filter: TodoFilter(), todos: todos.map { TodoViewModel($0, today: today) }, asOf: 1,
            progress: [SubtaskProgress(parent: 1, done: 0, total: 1)]))
    }

    /// The lines wider than `columns`, measured without the reverse video a prompt's
    /// selection keeps when colours are off.
    private func tooWide(_ lines: [String], _ columns: Int) -> [String] {
        lines.filter { TerminalText.width($0.replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")) > columns }
    }

    @Test("list's rows fit the width, their tags shown as +N or not at all", arguments: widths)
    func listRows(columns: Int) {
        let lines = TodoTable.render(outline, styler: TextStyler(colours: false), width: columns)
        #expect(tooWide(lines, columns) == [], "\(columns) columns")
        #expect(lines.allSatisfy { $0.contains("#") }, "every row keeps its number: \(lines)")
    }

    @Test("list's text is its rows' lines joined, at any width, with colours and without", arguments: [nil, 20, 40, 80, 200])
    func listText(columns: Int?) {
        for styler in [TextStyler(colours: false), TextStyler(colours: true)] {
            let lines = TodoTable.render(outline, styler: styler, width: columns)
            #expect(TodoTable.renderText(outline, styler: styler, width: columns) == lines.joined(separator: "\n"))
        }
    }

    @Test("the due dates line up at widths that cut titles, whatever each row's tags and wide characters (at 40 columns they started at three places)", arguments: [36, 40, 44, 50])
    func dueLinesUp(columns: Int) {
        let rows = [
            todo(2, "Buy milk", due: today.adding(days: 1), tags: ["home"]),
            todo(1, "File taxes", due: today.adding(days: 4), tags: ["admin"]),
            todo(3, "買牛奶と卵を忘れずに", due: today.adding(days: 5), tags: ["家"]),
        ].map { TodoViewModel($0, today: today) }
        let lines = TodoTable(rows: rows, styler: TextStyler(colours: false), maximumTitleWidth: columns).render(width: columns)
        let dueStarts = lines.map { line -> Int? in
            guard let range = line.range(of: "tomorrow") ?? line.range(of: "in ") else { return nil }
            return TerminalText.width(line[..<range.lowerBound])
        }
        #expect(Set(dueStarts).count == 1 && dueStarts[0] != nil, "\(columns) columns: \(lines)")
        #expect(tooWide(lines, columns) == [], "\(columns) columns")
    }

    @Test("rows without tags cut their titles as those with tags do when only +N fits, so the due column does not wander (outside probe 10: 2 columns apart at 40)", arguments: Array(34...46))
    func dueLinesUpWithAndWithoutTags(columns: Int) {
        let rows = [
            todo(2, "File taxes before the deadline", priority: .high, due: today.adding(days: 3), tags: ["money"], project: "admin"),
            todo(25, "Pay bill", priority: .high, due: today.adding(days: 7)),
            todo(26, "Buy milk and eggs", due: today.adding(days: 1), tags: ["shop"]),
            todo(3, "Call plumber", due: today.adding(days: 7), tags: ["home"], project: "home.repairs"),
            todo(17, "Dec tenancy renewal", due: today.adding(days: 13)),
        ].map { TodoViewModel($0, today: today) }
        let lines = TodoTable(rows: rows, styler: TextStyler(colours: false), maximumTitleWidth: columns).render(width: columns)
        // ` in ` with its space: the project `admin` ends in `in`.
        let dueStarts = lines.map { line in
            line.range(of: "tomorrow").map { TerminalText.width(line[..<$0.lowerBound]) }
                ?? line.range(of: " in ").map { TerminalText.width(line[..<$0.lowerBound]) + 1 }
        }
        #expect(Set(dueStarts).count == 1 && dueStarts[0] != nil, "\(columns) columns: \(lines)")
        #expect(tooWide(lines, columns) == [], "\(columns) columns")
    }

    @Test("at 24 columns and under, a due date that no longer fits in words is shown short, alike in list and watch, never cut in its number (`in 1…` for in 13 days; outside probe 10)", arguments: Array(20...24))
    func dueShortWhenNarrow(columns: Int) {
        let rows = [
            todo(17, "Dec tenancy renewal", due: today.adding(days: 13), tags: ["home"]),
            todo(2, "File taxes", due: today.adding(days: -3)),
            todo(26, "Buy milk", due: today.adding(days: 1)),
            todo(5, "Now", due: today),
        ].map { TodoViewModel($0, today: today) }
        let lines = TodoTable(rows: rows, styler: TextStyler(colours: false), maximumTitleWidth: columns).render(width: columns)
        #expect(!["in 1…", "in…", "to…", "tomo…", "3 da…"].contains { lines.joined(separator: "\n").contains($0) }, "\(columns): \(lines.joined(separator: "\n"))")
        // Shown where today fits beside the title's fewest columns (22), else left out.
        for (line, due) in zip(lines, ["13d", "-3d", "1d", "today"]) {
            #expect(line.contains(" \(due)") == (columns >= 22), "\(columns): \(line) should show \(due)")
        }
        #expect(tooWide(lines, columns) == [], "\(columns) columns")
    }

    @Test("one row's long tag does not cut every title: the other rows keep theirs whole, due dates line up, and that row shows +1 (outside probe: every title cut to 10 columns at 80)", arguments: [80, 100])
    func longTagCutsOnlyItsRow(columns: Int) {
        let rows = [
            todo(1, "Write the quarterly report", due: today.adding(days: 1), tags: ["work", "office"]),
            todo(2, "Short", due: today.adding(days: 4), tags: ["averyveryverylongtagname.withsubpartsandmore.evenlonger"]),
            todo(3, "Café résumé for the trip", due: today.adding(days: 5), tags: ["home"]),
        ].map { TodoViewModel($0, today: today) }
        let lines = TodoTable(rows: rows, styler: TextStyler(colours: false), maximumTitleWidth: columns).render(width: columns)
        #expect(lines[0].contains("Write the quarterly report") && lines[0].contains("#work #office"), "\(lines)")
        #expect(lines[2].contains("Café résumé for the trip #home") == false && lines[2].contains("Café résumé for the trip"), "\(lines)")
        #expect(lines[1].hasSuffix("+1"), "\(lines)")
        let dueStarts = lines.map { line in line.range(of: "tomorrow").map { TerminalText.width(line[..<$0.lowerBound]) } ?? line.range(of: "in ").map { TerminalText.width(line[..<$0.lowerBound]) } }
        #expect(Set(dueStarts).count == 1, "\(lines)")
        #expect(tooWide(lines, columns) == [], "\(columns) columns")
    }

    @Test("list --columns fits the width: titles give way, then the last columns (at 40 columns its rows ran to 77)", arguments: [12, 20, 30, 40])
    func chosenColumns(columns: Int) throws {
        let chosen = try TodoColumn.parse("number,title,project,tags,due")
        let lines = TodoTable.render(outline, columns: chosen, styler: TextStyler(colours: false), width: columns)
        #expect(tooWide(lines, columns) == [], "\(columns) columns: \(lines)")
        #expect(lines.count == outline.entries.count + 1 && lines.first?.contains("Title") == true, "\(lines)")
        let wide = TodoTable.render(outline, columns: chosen, styler: TextStyler(colours: false))
        #expect(wide.contains { TerminalText.width($0) > columns }, "without a width, rows keep their columns: \(wide)")
    }

    @Test("next's rows fit the width", arguments: widths)
    func nextRows(columns: Int) {
        let table = TodoTable(rows: todos.map { TodoViewModel($0, today: today) }, styler: TextStyler(colours: false), maximumTitleWidth: columns)
        let lines = table.render(width: columns)
        #expect(tooWide(lines, columns) == [], "\(columns) columns")
    }

    @Test("summary's lines fit any width from 1, and from 12 columns keep part of every name and each Open count (at 12 to 16 every name was … and the lines ran past the edge; outside probe)", arguments: Array(1...40))
    func summary(columns: Int) {
        let tallies = ProjectTally.tallies(of: [
            todo(1, "a", project: "家のこと.garden"), todo(2, "b", completed: true, project: "work"),
        ])
        let lines = ReportView.summary(tallies, width: columns, styler: TextStyler(colours: false))
        #expect(tooWide(lines, columns) == [], "\(columns) columns: \(lines)")
        if columns >= 12 {
            #expect(Set(lines.dropFirst().compactMap { $0.trimmingCharacters(in: .whitespaces).first }) == ["家", "g", "w"], "\(columns) columns: \(lines)")
            #expect(lines.dropFirst().allSatisfy { $0.last?.isNumber == true || $0.last == "%" || $0.last == "░" || $0.last == "█" }, "\(columns) columns: \(lines)")
            #expect(lines.first?.contains("Open") == true, "\(columns) columns: \(lines)")
        }
    }

    @Test("calendar, projects and tags fit 12, 16 and 20 columns, keeping each day's todos and every count (their lines ran past the edge; outside probe)", arguments: [12, 16, 20])
    func reports(columns: Int) {
        let calendar = CalendarView(year: 2026, month: 11, today: today, todos: todos).lines(width: columns, styler: TextStyler(colours: false))
        #expect(tooWide(calendar, columns) == [], "\(columns) columns: \(calendar)")
        #expect(calendar.filter { $0.contains("#") }.count == todos.filter { $0.due?.month == 11 }.count, "\(calendar)")
        let tallied = [
            todo(1, "a", tags: ["とても長いタグの名前です", "home"], project: "家のこと.garden.beds"), todo(2, "b", tags: ["home"], completed: true, project: "work"),
        ]
        let projects = ReportView.projects(ProjectTally.tallies(of: tallied), width: columns, styler: TextStyler(colours: false))
        #expect(tooWide(projects, columns) == [], "\(columns) columns: \(projects)")
        #expect(projects.first?.hasSuffix("  Open") == true || projects.first?.contains("  Open  Done") == true, "\(projects)")
        #expect(projects.dropFirst().allSatisfy { $0.last?.isNumber == true || $0.hasSuffix("%") }, "\(projects)")
        let tags = ReportView.tags(TagTally.tallies(of: tallied), width: columns, styler: TextStyler(colours: false))
        #expect(tooWide(tags, columns) == [], "\(columns) columns: \(tags)")
        #expect(tags.map { $0.split(separator: " ").last } == ["1", "1"], "\(tags)")
    }

    @Test("under 20 columns list's rows, with colours and without, and the lines of projects and tags are cut at the edge, each keeping its start (COLUMNS=5 list and COLUMNS=6 projects ran past it; outside probe)", arguments: Array(1...19))
    func narrowerThanARow(columns: Int) throws {
        for colours in [false, true] {
            let styler = TextStyler(colours: colours)
            let lines = TodoTable.render(outline, styler: styler, width: columns)
            #expect(tooWide(lines.map(plain), columns) == [], "\(columns) columns: \(lines)")
            #expect(TodoTable.renderText(outline, styler: styler, width: columns) == lines.joined(separator: "\n"))
            let next = TodoTable(rows: todos.map { TodoViewModel($0, today: today) }, styler: styler, maximumTitleWidth: columns).render(width: columns)
            #expect(tooWide(next.map(plain), columns) == [], "\(columns) columns: \(next)")
        }
        let tallied = [todo(1, "a", tags: ["home"], project: "家のこと.garden"), todo(2, "b", tags: ["home"], completed: true, project: "work")]
        let projects = ReportView.projects(ProjectTally.tallies(of: tallied), width: columns, styler: TextStyler(colours: false))
        #expect(tooWide(projects, columns) == [], "\(columns) columns: \(projects)")
        let tags = ReportView.tags(TagTally.tallies(of: tallied), width: columns, styler: TextStyler(colours: false))
        #expect(tooWide(tags, columns) == [], "\(columns) columns: \(tags)")
    }

    /// `line` without its colours.
    private func plain(_ line: String) -> String {
        line.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    }

    @Test("every line of watch fits at any width from 1: rows, the marker, the detail and history panes, prompts, messages and the keys' page (under 18 columns lines ran past the edge; outside probe)", arguments: Array(1...40))
    func watch(columns: Int) {
        let renderer = WatchRenderer(styler: TextStyler(colours: false))
        var screen = WatchScreen(rows: 14, columns: columns, today: today)
        screen.connection = .connected
        screen.incorporate(TodoViewModelList(
            filter: TodoFilter(), todos: todos.map { TodoViewModel($0) }, asOf: 1, progress: [SubtaskProgress(parent: 1, done: 0, total: 1)]))
        var frames: [(String, [String])] = []
        func frame(_ what: String) { frames.append((what, renderer.render(screen))) }
        frame("the list")
        for _ in 0..<12 { _ = screen.handle(.down) }
        frame("scrolled: rows above and below")
        _ = screen.handle(.enter)
        frame("the detail pane")
        _ = screen.handle(.enter)
        _ = screen.handle(.character("h"))
        frame("the history pane")
        _ = screen.handle(.character("h"))
        for key in ["a", "e", "D", "T", "t", "/", "r", "P", "w"] {
            _ = screen.handle(.character(Character(key)))
            for character in "家族 and a long line typed here" { _ = screen.handle(.character(character)) }
            frame("the \(key) prompt")
            _ = screen.handle(.escape)
        }
        _ = screen.handle(.character("?"))
        frame("the keys' page")
        _ = screen.handle(.escape)
        _ = screen.handle(.character("D"))
        for character in "zzz" { _ = screen.handle(.character(character)) }
        _ = screen.handle(.enter)
        frame("a message")
        for (what, lines) in frames {
            #expect(tooWide(lines, columns) == [], "\(columns) columns, \(what)")
        }
        // In colour too: the colours take no columns, and a line cut in one ends it.
        let coloured = WatchRenderer(styler: TextStyler(colours: true)).render(screen)
        let visible = coloured.map { $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
        #expect(visible.filter { TerminalText.width($0) > columns } == [], "\(columns) columns, in colour: \(coloured)")
        #expect(coloured.allSatisfy { !$0.contains("\u{1B}[3") || $0.hasSuffix("\u{1B}[0m") }, "\(coloured)")
    }
}
