import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("WatchScreen: undo and the history pane")
struct WatchHistoryTests {
    let renderer = WatchRenderer(styler: TextStyler(colours: false))

    private func screen() -> WatchScreen {
        var screen = WatchScreen(rows: 16, columns: 80)
        screen.incorporate(list([todo(1, "one"), todo(2, "two")]))
        return screen
    }

    @Test("U asks to undo the last change, whoever made it; R to redo")
    func undoKey() {
        var screen = screen()
        #expect(screen.handle(.character("U")) == .undo)
        #expect(screen.handle(.character("R")) == .redo)
    }

    @Test("h opens the history pane and asks for the selected todo's; it follows the selection")
    func historyFollowsSelection() throws {
        var screen = screen()
        let first = try #require(screen.selected?.id)
        #expect(screen.handle(.character("h")) == .history(first))
        #expect(renderer.render(screen).contains("  history of #2: asking…"))
        screen.showHistory(of: first, lines: ["2026-11-23 10:00  created  \"two\"   todoctl (client 1)"])
        let frame = renderer.render(screen)
        #expect(frame.contains("  history of #2, oldest first:"))
        #expect(frame.contains("  2026-11-23 10:00  created  \"two\"   todoctl (client 1)"))
        let second = screen.list.rows[1].id
        #expect(screen.handle(.down) == .history(second))
        // The first todo's history is not shown beside the second.
        #expect(!renderer.render(screen).joined().contains("created  \"two\""))
        #expect(screen.handle(.character("h")) == nil)
        #expect(screen.pane == .none)
    }
}
