import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// watch's detail pane says when a todo is scheduled and how many it waits for; its header
/// names a filter's +BLOCKED and scheduled.before:.
@Suite("watch's scheduled and dependent todos")
struct WatchDependsTests {
    @Test("the detail pane has a scheduled and depends line only for a todo with either, and the header names +BLOCKED and scheduled.before:")
    func paneAndHeader() {
        let today = LocalDate(year: 2026, month: 11, day: 23)!
        var cake = todo(3, "Bake cake")
        cake.depends = [todo(1, "Buy flour").id, todo(2, "Buy eggs").id]
        cake.scheduled = LocalDate(year: 2026, month: 11, day: 28)
        let pane = TodoDetailPane(cake, today: today).lines(columns: 80)
        #expect(pane.contains("scheduled: 2026-11-28  depends on: 2 todos (todoctl show 3 names them)"), "\(pane)")
        let plain = TodoDetailPane(todo(1, "Buy flour"), today: today).lines(columns: 80)
        #expect(!plain.contains { $0.hasPrefix("scheduled:") }, "\(plain)")
        var screen = WatchScreen(rows: 8, columns: 100)
        screen.incorporate(list([cake], filter: TodoFilter(blocked: true, scheduledBefore: LocalDate(year: 2026, month: 12, day: 1))))
        let frame = WatchRenderer(styler: TextStyler(colours: false)).render(screen)
        #expect(frame.first?.contains("blocked scheduled<2026-12-01") == true, "\(frame)")
    }
}
