import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// watch marks a started todo as list does, and its detail pane says since when.
@Suite("watch's started todos")
struct WatchActiveTests {
    @Test("a started todo's row shows [>], an open one [ ], and the detail pane's state is started with its time")
    func marked() {
        var screen = WatchScreen(rows: 8, columns: 60)
        var started = todo(1, "Write the report")
        started.started = Date(timeIntervalSince1970: 1_795_000_000)
        screen.incorporate(list([started, todo(2, "Buy bread")]))
        let frame = WatchRenderer(styler: TextStyler(colours: false)).render(screen)
        #expect(frame.contains { $0.contains("#1 [>]") && $0.contains("Write the report") }, "\(frame)")
        #expect(frame.contains { $0.contains("#2 [ ]") && $0.contains("Buy bread") }, "\(frame)")
        let pane = TodoDetailPane(started, today: LocalDate(year: 2026, month: 11, day: 23)!).lines(columns: 60)
        #expect(pane.contains { $0.hasPrefix("state: started \(LocalMinute(started.started!).description)") }, "\(pane)")
    }
}
