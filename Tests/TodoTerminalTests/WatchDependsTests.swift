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

    @Test("a blocked row shows [b] as todoctl list shows it, also when the answer that marks it lists the same todos as the one before, and [ ] again when the next answer leaves it unmarked")
    func blockedRowMarked() {
        let flour = todo(1, "Buy flour")
        var cake = todo(2, "Bake cake")
        cake.depends = [flour.id]
        var screen = WatchScreen(rows: 8, columns: 60)
        let renderer = WatchRenderer(styler: TextStyler(colours: false))
        func row(_ title: String) -> String { renderer.render(screen).first { $0.contains(title) } ?? "" }
        screen.incorporate(list([flour, cake], asOf: 1))
        #expect(row("Bake cake").contains("[ ]"))
        var marked = list([flour, cake], asOf: 2)
        marked.todos = marked.todos.markingBlocked([2])
        screen.incorporate(marked)
        #expect(row("Bake cake").contains("#2 [b]"), "\(renderer.render(screen))")
        #expect(row("Buy flour").contains("#1 [ ]"), "\(renderer.render(screen))")
        screen.incorporate(list([flour, cake], asOf: 3))
        #expect(row("Bake cake").contains("#2 [ ]"), "\(renderer.render(screen))")
    }

    @Test("the detail pane names the until day on that line, also for a todo with nothing else on it, and the header names until.before: and +UNTIL")
    func untilPaneAndHeader() {
        let today = LocalDate(year: 2026, month: 11, day: 23)!
        var passport = todo(4, "Renew passport")
        passport.until = LocalDate(year: 2026, month: 12, day: 24)
        let pane = TodoDetailPane(passport, today: today).lines(columns: 80)
        #expect(pane.contains("scheduled: no day  until: 2026-12-24  depends on: none"), "\(pane)")
        var screen = WatchScreen(rows: 8, columns: 100)
        screen.incorporate(list([passport], filter: TodoFilter(hasUntil: true, untilBefore: LocalDate(year: 2027, month: 1, day: 1))))
        let frame = WatchRenderer(styler: TextStyler(colours: false)).render(screen)
        #expect(frame.first?.contains("until until<2027-01-01") == true, "\(frame)")
    }
}
