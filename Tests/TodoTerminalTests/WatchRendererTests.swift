import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("WatchRenderer")
struct WatchRendererTests {
    let renderer = WatchRenderer(styler: TextStyler(colours: false))

    @Test("a frame is exactly the screen's height: header, rows, status line")
    func frameShape() {
        var screen = WatchScreen(rows: 8, columns: 80)
        screen.connection = .connected
        screen.incorporate(list([todo(1, "one"), todo(2, "two", priority: .high)]))
        let frame = renderer.render(screen)
        #expect(frame.count == 8)
        #expect(frame[0] == "todoctl watch · open · 2 shown · connected")
        #expect(frame[1] == "> #2 [ ] ! two")
        #expect(frame[2] == "  #1 [ ]   one")
        #expect(frame[7].hasPrefix("↑↓ move"))
    }

    @Test("a changed title redraws that row only")
    func updateRedrawsOneRow() {
        var screen = WatchScreen(rows: 8, columns: 80)
        screen.incorporate(list([todo(1, "one"), todo(2, "two"), todo(3, "three")]))
        let before = renderer.render(screen)
        screen.incorporate(change(todo(2, "TWO", revision: 2), sequence: 2))
        let after = renderer.render(screen)
        #expect(WatchRenderer.changedLines(from: before, to: after) == [2])
    }

    @Test("a completed todo leaving the open list redraws the header, its row and the rows below")
    func deleteRedrawsFromRow() {
        var screen = WatchScreen(rows: 8, columns: 80)
        screen.incorporate(list([todo(1, "one"), todo(2, "two"), todo(3, "three")]))
        let before = renderer.render(screen)
        screen.incorporate(change(todo(2, "two", completed: true, revision: 2), .completed, sequence: 2))
        let after = renderer.render(screen)
        // Rows: #3, #2, #1 → #3, #1: the header's counts, line 2 and the line freed below.
        #expect(WatchRenderer.changedLines(from: before, to: after) == [0, 2, 3])
    }

    @Test("the connection state shows in the header")
    func disconnectedHeader() {
        var screen = WatchScreen(rows: 5, columns: 80)
        screen.connection = .disconnected(retryInSeconds: 2)
        #expect(renderer.render(screen)[0].hasSuffix("daemon unreachable, retrying in 2s"))
    }

    @Test("while the shared store is unreachable, the header and a line above the help say so, and the list keeps its rows")
    func sharedStoreOutage() {
        var screen = WatchScreen(rows: 8, columns: 200)
        screen.connection = .connected
        screen.incorporate(list([todo(1, "one"), todo(2, "two")]))
        screen.storeOutage = StoreOutage(
            store: "postgresql://alice@db.home.lan/todos", since: Date(), problem: "the connection to PostgreSQL was closed")
        let frame = renderer.render(screen)
        #expect(frame.count == 8)
        #expect(frame[0].hasSuffix("2 shown · store unreachable"))
        #expect(frame[1] == "> #2 [ ]   two")
        #expect(frame[6].hasPrefix("shared store unreachable since "))
        #expect(frame[6].contains("(the connection to PostgreSQL was closed): changes are saved here"))
        #expect(frame[7].hasPrefix("↑↓ move"))
        screen.storeOutage = nil
        let back = renderer.render(screen)
        #expect(back[0].hasSuffix("2 shown · connected"))
        #expect(!back.contains { $0.contains("shared store") })
    }

    @Test("open conflicts from sharing changes made offline are counted on a line above the help while there are any, cut to the terminal's width")
    func openConflictsCounted() {
        var screen = WatchScreen(rows: 8, columns: 200)
        screen.connection = .connected
        screen.incorporate(list([todo(1, "one")]))
        #expect(!renderer.render(screen).contains { $0.contains("conflict") })
        screen.openConflicts = 3
        let frame = renderer.render(screen)
        #expect(frame[6] == "3 conflicts from sharing changes made offline: take or leave each with todoctl conflicts", "\(frame)")
        #expect(frame[7].hasPrefix("↑↓ move"))
        screen.openConflicts = 1
        #expect(renderer.render(screen)[6].hasPrefix("1 conflict from sharing"))
        screen.resize(rows: 8, columns: 40)
        #expect(renderer.render(screen).allSatisfy { TerminalText.width($0) <= 40 })
        screen.openConflicts = 0
        #expect(!renderer.render(screen).contains { $0.contains("conflict") })
    }

    @Test("Q3: the store's \"reachable again\" notice goes when it is unreachable again: the screen never says both")
    func reachableAgainNoticeGoesWithTheNextOutage() {
        var screen = WatchScreen(rows: 8, columns: 200)
        screen.connection = .connected
        screen.incorporate(list([todo(1, "one")]))
        screen.show(notice: "the shared store is reachable again: changes are taken")
        #expect(renderer.render(screen).contains { $0.contains("reachable again") })
        screen.storeOutage = StoreOutage(store: "s", since: Date(), problem: "the connection to PostgreSQL was closed")
        let frame = renderer.render(screen)
        #expect(!frame.contains { $0.contains("reachable again") }, "\(frame)")
        #expect(frame.contains { $0.hasPrefix("shared store unreachable since ") })
        #expect(frame[7].hasPrefix("↑↓ move"))
    }

    @Test("in a narrow terminal the connection's state stays in the header: the whole database's counts go first, then the filter is cut")
    func stateKeptInNarrowHeaders() {
        var screen = WatchScreen(filter: TodoFilter(tags: ["paperwork"], search: "renew the passport"), rows: 12, columns: 72)
        screen.connection = .connected
        screen.incorporate(list([todo(1, "renew the passport", tags: ["paperwork"])], filter: TodoFilter(tags: ["paperwork"], search: "renew the passport")))
        let question = screen.totals.ask()
        screen.totals.answer(TodoTotals(open: 21, done: 1, asOf: 1), to: question)
        screen.storeOutage = StoreOutage(store: "s", since: Date(), problem: "the connection to PostgreSQL was closed")
        for columns in [120, 72, 50, 30] {
            screen.resize(rows: 12, columns: columns)
            let header = renderer.render(screen)[0]
            #expect(TerminalText.width(header) <= columns)
            #expect(header.contains("store unreachable"), "\(columns) columns: \(header)")
        }
        screen.resize(rows: 12, columns: 120)
        #expect(renderer.render(screen)[0] == "todoctl watch · open #paperwork /renew the passport · 1 shown · all: 21 open, 1 done · store unreachable")
        screen.resize(rows: 12, columns: 72)
        #expect(renderer.render(screen)[0] == "todoctl watch · open #paperwork /renew th… · 1 shown · store unreachable")
    }

    @Test("the outage line is wrapped on at most a fifth of the screen, and says when it is cut")
    func outageLineBounded() {
        var screen = WatchScreen(rows: 24, columns: 40)
        screen.connection = .connected
        screen.storeOutage = StoreOutage(store: "s", since: Date(), problem: String(repeating: "a long reason ", count: 20))
        let lines = screen.statusLines.filter { $0.kind == .outage }
        #expect(lines.count == 4)
        #expect(lines.last?.text.hasSuffix("…") == true)
    }

    @Test("an outage line cannot be used to draw on the terminal: the store's words are escaped")
    func outageEscaped() {
        var screen = WatchScreen(rows: 8, columns: 200)
        screen.connection = .connected
        screen.storeOutage = StoreOutage(store: "s", since: Date(), problem: "bad\u{1B}[2Jnews")
        #expect(!renderer.render(screen).joined().contains("\u{1B}"))
    }

    @Test("10,000 todos: only the visible rows are drawn")
    func largeList() {
        var screen = WatchScreen(rows: 40, columns: 100)
        screen.incorporate(list((1...10_000).map { todo($0, "todo \($0)") }))
        _ = screen.handle(.end)
        let frame = renderer.render(screen)
        #expect(frame.count == 40)
        // The last row, then the marker line, then the help line.
        #expect(frame[37] == ">     #1 [ ]   todo 1")
        #expect(frame[38] == "  ↑ \(10_000 - screen.visibleRows) above")
    }
}
