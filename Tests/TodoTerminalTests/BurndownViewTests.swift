import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("The bars todoctl burndown draws")
struct BurndownViewTests {
    private let plain = TextStyler(colours: false)
    private let today = LocalDate("2026-12-02")!

    /// Four days across the end of November: 6 open, then 2 done and 1 added, …
    private let days = [
        Burndown.Period(date: LocalDate("2026-11-29")!, open: 6, done: 0, added: 6),
        Burndown.Period(date: LocalDate("2026-11-30")!, open: 5, done: 2, added: 1),
        Burndown.Period(date: LocalDate("2026-12-01")!, open: 5, done: 0, added: 0),
        Burndown.Period(date: LocalDate("2026-12-02")!, open: 2, done: 3, added: 0),
    ]

    @Test("40 columns across a month boundary: the legend, a bar a day scaled to the longest, the numbers, today marked, the axis")
    func fortyColumns() {
        let lines = BurndownView(periods: days, weekly: false, today: today).lines(width: 40, styler: plain)
        #expect(lines == [
            "             █ open  ▓ done   open  done",
            "  Su 29 Nov │██████████████      6     0",
            "  Mo 30 Nov │███████████▓▓▓▓▓    5     2",
            "  Tu  1 Dec │███████████         5     0",
            "▶ We  2 Dec │█████▓▓▓▓▓▓         2     3",
            "            └────────────────",
            "             0              7",
        ], "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { TerminalText.width($0) <= 40 }, "\(lines.map { TerminalText.width($0) })")
    }

    @Test("the bars take what 80 and 120 columns leave, every line within the width, the numbers at the right edge")
    func widerTerminals() {
        for width in [80, 120] {
            let lines = BurndownView(periods: days, weekly: false, today: today).lines(width: width, styler: plain)
            let barWidth = width - 13 - 1 - 10
            #expect(lines[1] == "  Su 29 Nov │" + String(repeating: "█", count: (6 * barWidth * 2 + 7) / 14) + String(repeating: " ", count: barWidth - (6 * barWidth * 2 + 7) / 14) + "    6     0", "\(width): \(lines[1])")
            #expect(lines.dropLast(2).allSatisfy { TerminalText.width($0) == width }, "\(width): \(lines.map { TerminalText.width($0) })")
            #expect(lines.first?.hasPrefix("             █ open  ▓ done  ▶ today") == true, "\(lines.first ?? "")")
        }
    }

    @Test("a filter's tags and projects, wide characters among them, head the bars, cut with … to the width")
    func wideScope() {
        let view = BurndownView(periods: days, weekly: false, today: today, scope: "#東京 project:会議の準備をする")
        let narrow = view.lines(width: 40, styler: plain)
        #expect(narrow.first == "only #東京 project:会議の準備をする", "\(narrow.first ?? "")")
        let tiny = view.lines(width: 20, styler: plain)
        #expect(tiny.first == "only #東京 project:…", "\(tiny.first ?? "")")
        #expect(TerminalText.width(tiny.first ?? "") <= 20, "\(tiny.first ?? "")")
        // A terminal narrower than the labels and numbers keeps a bar of a few columns.
        #expect(tiny[2].hasPrefix("  Su 29 Nov │███████ "), "\(tiny[2])")
    }

    @Test("--weekly: a bar per ISO week labelled with its number and Monday, the current week marked")
    func weekly() {
        let weeks = [
            Burndown.Period(date: LocalDate("2026-11-23")!, open: 6, done: 2, added: 8),
            Burndown.Period(date: LocalDate("2026-11-30")!, open: 2, done: 5, added: 1),
        ]
        let lines = BurndownView(periods: weeks, weekly: true, today: today).lines(width: 50, styler: plain)
        #expect(lines == [
            "                █ open  ▓ done          open  done",
            "  Wk 48 23 Nov │█████████████████▓▓▓▓▓▓    6     2",
            "▶ Wk 49 30 Nov │██████▓▓▓▓▓▓▓▓▓▓▓▓▓▓       2     5",
            "               └───────────────────────",
            "                0                     8",
        ], "\(lines.joined(separator: "\n"))")
        // Wider, the legend has room to say what ▶ marks.
        let wide = BurndownView(periods: weeks, weekly: true, today: today).lines(width: 60, styler: plain)
        #expect(wide.first == "                █ open  ▓ done  ▶ this week       open  done", "\(wide.first ?? "")")
    }

    @Test("with colours the bars are yellow and green and today bold; with NO_COLOR (plain) no escape is written")
    func colours() {
        let coloured = BurndownView(periods: days, weekly: false, today: today).lines(width: 40, styler: TextStyler(colours: true))
        #expect(coloured[4].contains("\u{1B}[1m▶\u{1B}[0m") && coloured[4].contains("\u{1B}[33m█████\u{1B}[0m\u{1B}[32m▓▓▓▓▓▓\u{1B}[0m"), "\(coloured[4].debugDescription)")
        let plainLines = BurndownView(periods: days, weekly: false, today: today).lines(width: 40, styler: plain)
        #expect(!plainLines.joined().contains("\u{1B}"), "\(plainLines)")
    }
}
