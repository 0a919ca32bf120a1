import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("WatchRenderer: what fits where")
struct WatchLayoutTests {
    let renderer = WatchRenderer(styler: TextStyler(colours: false))
    let today = LocalDate(year: 2026, month: 11, day: 23)!

    private func screen(_ todos: [Todo], filter: TodoFilter = TodoFilter(), rows: Int = 12, columns: Int = 80) -> WatchScreen {
        var screen = WatchScreen(filter: filter, rows: rows, columns: columns, today: today)
        screen.connection = .connected
        screen.incorporate(list(todos, filter: filter))
        return screen
    }

    @Test("the header counts the rows the view shows, and the whole database's once known")
    func headerCountsView() {
        var screen = screen([todo(1, "a", tags: ["work"]), todo(2, "b", tags: ["work"])], filter: TodoFilter(tag: "work"))
        #expect(renderer.render(screen)[0] == "todoctl watch · open #work · 2 shown · connected")
        let question = screen.totals.ask()
        screen.totals.answer(TodoTotals(open: 14, done: 3, asOf: 1), to: question)
        #expect(renderer.render(screen)[0] == "todoctl watch · open #work · 2 shown · all: 14 open, 3 done · connected")
    }

    @Test("the header names every condition of the filter, and an empty view says the filter hides the todos")
    func headerNamesFilter() {
        let filter = TodoFilter(tags: ["home"], notTags: ["admin"], priority: .high, search: "boiler", dueBefore: today)
        // 110 columns: the empty view's line is 104 wide, and a line is cut to the width.
        let frame = renderer.render(screen([], filter: filter, columns: 110))
        #expect(frame[0] == "todoctl watch · open #home -#admin !high /boiler due<2026-11-23 · 0 shown · connected")
        #expect(frame[1] == "  no open todos match #home -#admin !high /boiler due<2026-11-23: press a to add one, f for another list")
        #expect(renderer.render(screen([]))[1] == "  no open todos: press a to add one")
        // Before the first list arrives, it is loading, not empty (probe R5).
        var loading = WatchScreen(rows: 12, columns: 80, today: today)
        loading.connection = .connected
        #expect(renderer.render(loading)[1] == "  loading the list…")
        // Narrow: the filter is cut, the connection's state stays.
        let narrow = renderer.render(screen([], filter: filter, columns: 60))[0]
        #expect(narrow.hasSuffix(" · 0 shown · connected") && narrow.contains("…") && TerminalText.width(narrow) <= 60, "\(narrow)")
    }

    @Test("a row too wide is cut in its title, not in a tag; tags that cannot fit show as +N")
    func rowCutInTitle() {
        let tags = ["home", "errands", "weekend"]
        let long = todo(1, String(repeating: "long title ", count: 8), tags: tags)
        let frame = renderer.render(screen([long], columns: 60))
        let row = frame[1]
        #expect(TerminalText.width(row) <= 60)
        #expect(row.hasSuffix("#home #errands #weekend"), "\(row)")
        #expect(row.contains("…"))
        let narrow = renderer.render(screen([long], columns: 40))[1]
        #expect(TerminalText.width(narrow) <= 40)
        #expect(narrow.hasSuffix("+1") || narrow.hasSuffix("+2") || narrow.hasSuffix("+3"), "\(narrow)")
        let shown = narrow.split(separator: " ").filter { $0.hasPrefix("#") && !$0.hasPrefix("#1") }
        #expect(shown.allSatisfy { tags.contains(String($0.dropFirst())) }, "\(narrow)")
    }

    @Test("a marker line says how many rows are above and below the view")
    func moreRowsMarker() {
        var screen = screen((1...30).map { todo($0, "todo \($0)") }, rows: 12)
        let frame = renderer.render(screen)
        let shown = screen.visibleRows
        #expect(frame[1 + shown] == "  ↓ \(30 - shown) more below")
        for _ in 0..<(shown + 2) { _ = screen.handle(.down) }
        #expect(renderer.render(screen)[1 + screen.visibleRows] == "  ↑ 3 above · ↓ \(30 - shown - 3) more below")
        #expect(renderer.render(self.screen([todo(1, "one")]))[2] == "")
    }

    @Test("a long message wraps between words over the bottom lines, and the list makes room")
    func messageWraps() {
        var screen = screen([todo(1, "one")], columns: 30)
        let rowsBefore = screen.visibleRows
        let words = "conflict: #1 changed since you opened it at revision 3; it is at revision 5 now"
        screen.show(message: words)
        let frame = renderer.render(screen)
        #expect(frame.count == screen.rows)
        let bottom = frame.suffix(screen.statusLines.count)
        #expect(bottom.count > 1)
        #expect(bottom.allSatisfy { TerminalText.width($0) <= 30 })
        #expect(bottom.joined(separator: " ") == words)
        #expect(screen.visibleRows == rowsBefore - bottom.count + 1)
    }

    @Test("the help line fits the terminal's width and always ends with ? keys", arguments: [20, 40, 80, 200])
    func helpLineFits(columns: Int) {
        let line = renderer.render(screen([], columns: columns)).last!
        #expect(TerminalText.width(line) <= columns)
        #expect(line.hasSuffix("? keys"))
    }

    @Test("? lists every key, also on a small terminal", arguments: [(24, 80), (16, 72), (12, 60)])
    func helpPage(rows: Int, columns: Int) {
        var screen = screen([], rows: rows, columns: columns)
        _ = screen.handle(.character("?"))
        let frame = renderer.render(screen)
        #expect(frame.count == rows && frame.allSatisfy { TerminalText.width($0) <= columns })
        // Wrapped lines are joined again to find each entry whole.
        let page = frame.joined(separator: "\n") + "\n" + frame.joined(separator: " ")
        // Every key; with what it does in full where the terminal has the room.
        for entry in WatchKeys.all {
            #expect(page.contains(entry.keys) && (rows < 20 || page.contains(entry.action)), "\(entry.keys) missing from\n\(page)")
        }
    }

    @Test("every line of the keys' page fits 80 columns with watch --help's indent, so no key is cut from its meaning")
    func keyPageFitsEightyColumns() {
        for line in WatchKeys.page + WatchKeys.promptPage {
            #expect(TerminalText.width("  " + line) <= 80, "\(TerminalText.width("  " + line)) columns: \(line)")
        }
    }

    @Test("today and tomorrow are told again when the screen's day moves on")
    func relabelAtMidnight() {
        var screen = screen([todo(1, "bins out", due: today.adding(days: 1))])
        #expect(renderer.render(screen)[1].hasSuffix("tomorrow"))
        let before = renderer.render(screen)
        screen.today = today.adding(days: 1)
        let after = renderer.render(screen)
        #expect(after[1].hasSuffix("today"))
        #expect(WatchRenderer.changedLines(from: before, to: after) == [1])
    }

    @Test("wide characters take two columns: the due column stays aligned")
    func wideTitlesAlign() {
        let frame = renderer.render(screen([todo(1, "買い物", due: today), todo(2, "shop", due: today)]))
        let columns = frame[1...2].map { line in TerminalText.width(String(line[..<line.range(of: "today")!.lowerBound])) }
        #expect(columns[0] == columns[1])
    }

    @Test("the detail pane shows every field and the notes, and follows a change")
    func detailPane() {
        let todo1 = todo(1, "plan trip", priority: .high, due: today.adding(days: 3), tags: ["travel"], notes: "book train\ncheck passport")
        var screen = screen([todo1], rows: 24)
        _ = screen.handle(.enter)
        let pane = renderer.render(screen).joined(separator: "\n")
        for text in ["#1 plan trip", "state: open", "priority: high", "due: 2026-11-26 (in 3 days)", "tags: #travel", "revision 1", "book train", "check passport"] {
            #expect(pane.contains(text), "\(text) missing from\n\(pane)")
        }
        var edited = todo1
        edited.notes = "train booked"
        edited.revision = 2
        screen.incorporate(change(edited, sequence: 2))
        let after = renderer.render(screen).joined(separator: "\n")
        #expect(after.contains("train booked") && !after.contains("check passport"))
    }

    @Test("a problem is red on the bottom line, a notice plain; the next key clears either")
    func noticeAndProblem() {
        let coloured = WatchRenderer(styler: TextStyler(colours: true))
        var screen = screen([todo(1, "one")])
        screen.show(message: "conflict")
        #expect(coloured.render(screen).last == "\u{1B}[31mconflict\u{1B}[0m")
        screen.show(notice: "notes of #1 saved")
        #expect(coloured.render(screen).last == "notes of #1 saved")
        _ = screen.handle(.down)
        #expect(screen.notice == nil && screen.message == nil)
    }
}
