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

    @Test("40 columns across a month boundary: the legend on its own line, a bar a day scaled to the longest, the numbers, today marked, the axis")
    func fortyColumns() {
        let lines = BurndownView(periods: days, weekly: false, today: today).lines(width: 40, styler: plain)
        #expect(lines == [
            "             █ open  ▓ done  ▶ today",
            "                              open  done",
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
        let tiny = view.lines(width: 32, styler: plain)
        #expect(tiny.first == "only #東京 project:会議の準備を…", "\(tiny.first ?? "")")
        #expect(TerminalText.width(tiny.first ?? "") <= 32, "\(tiny.first ?? "")")
        // The narrowest terminal drawn in keeps a bar of 8 columns.
        #expect(tiny.first { $0.contains("│") }?.hasPrefix("  Su 29 Nov │███████ ") == true, "\(tiny)")
    }

    @Test("--weekly: a bar per ISO week labelled with its number and Monday, the current week marked")
    func weekly() {
        let weeks = [
            Burndown.Period(date: LocalDate("2026-11-23")!, open: 6, done: 2, added: 8),
            Burndown.Period(date: LocalDate("2026-11-30")!, open: 2, done: 5, added: 1),
        ]
        let lines = BurndownView(periods: weeks, weekly: true, today: today).lines(width: 50, styler: plain)
        #expect(lines == [
            "                █ open  ▓ done  ▶ this week",
            "                                        open  done",
            "  Wk 48 23 Nov │█████████████████▓▓▓▓▓▓    6     2",
            "▶ Wk 49 30 Nov │██████▓▓▓▓▓▓▓▓▓▓▓▓▓▓       2     5",
            "               └───────────────────────",
            "                0                     8",
        ], "\(lines.joined(separator: "\n"))")
        // Wider, the legend shares the numbers' line.
        let wide = BurndownView(periods: weeks, weekly: true, today: today).lines(width: 60, styler: plain)
        #expect(wide.first == "                █ open  ▓ done  ▶ this week       open  done", "\(wide.first ?? "")")
    }

    @Test("with colours the bars are yellow and green and today bold; with NO_COLOR (plain) no escape is written")
    func colours() {
        let coloured = BurndownView(periods: days, weekly: false, today: today).lines(width: 40, styler: TextStyler(colours: true))
        #expect(coloured[5].contains("\u{1B}[1m▶\u{1B}[0m") && coloured[5].contains("\u{1B}[33m█████\u{1B}[0m\u{1B}[32m▓▓▓▓▓▓\u{1B}[0m"), "\(coloured[5].debugDescription)")
        let plainLines = BurndownView(periods: days, weekly: false, today: today).lines(width: 40, styler: plain)
        #expect(!plainLines.joined().contains("\u{1B}"), "\(plainLines)")
    }
}

extension BurndownViewTests {
    @Test("days of another year, or a range across the new year, are labelled with their year")
    func yearsInLabels() {
        let newYear = [
            Burndown.Period(date: LocalDate("2026-12-31")!, open: 2, done: 0, added: 0),
            Burndown.Period(date: LocalDate("2027-01-01")!, open: 1, done: 1, added: 0),
        ]
        let across = BurndownView(periods: newYear, weekly: false, today: LocalDate("2027-01-01")!).lines(width: 60, styler: plain)
        #expect(across.contains { $0.hasPrefix("  Th 31 Dec 2026 │") } && across.contains { $0.hasPrefix("▶ Fr  1 Jan 2027 │") }, "\(across.joined(separator: "\n"))")
        let lastYear = BurndownView(periods: Array(newYear.prefix(1)), weekly: false, today: LocalDate("2027-01-05")!).lines(width: 60, styler: plain)
        #expect(lastYear.contains { $0.hasPrefix("  Th 31 Dec 2026 │") }, "\(lastYear.joined(separator: "\n"))")
        let thisYear = BurndownView(periods: days, weekly: false, today: today).lines(width: 60, styler: plain)
        #expect(!thisYear.joined().contains("2026"), "\(thisYear.joined(separator: "\n"))")
    }

    @Test("at 32 and 33 columns the legend keeps over the bars, its marks on two lines rather than moved left of them")
    func narrowestLegend() {
        for width in [32, 33] {
            let lines = BurndownView(periods: days, weekly: false, today: today).lines(width: width, styler: plain)
            let heading = String(repeating: " ", count: width - 10) + "open  done"
            #expect(Array(lines.prefix(3)) == ["             █ open  ▓ done", "             ▶ today", heading], "\(width):\n\(lines.joined(separator: "\n"))")
        }
    }

    @Test("every width from the minimum up fits, the legend names every mark drawn; below the minimum it says how many columns it needs")
    func narrowWidths() {
        let view = BurndownView(periods: days, weekly: false, today: today)
        // `▶ ` + `Mo 30 Nov` + ` │`, a bar of 8, a space, `open  done`.
        let minimum = 32
        for width in minimum...70 {
            let lines = view.lines(width: width, styler: plain)
            #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines.joined(separator: "\n"))")
            let text = lines.joined(separator: "\n")
            #expect(text.contains("█ open") && text.contains("▓ done") && text.contains("▶ today"), "\(width): \(text)")
            // Over the bars: the legend starts in the column of their first mark, right of `│`.
            let barStart = lines.first { $0.contains("│") }.map { TerminalText.width(String($0.prefix { $0 != "│" })) + 1 }
            let legendStart = lines.first.map { $0.prefix { $0 == " " }.count }
            #expect(barStart == 13 && legendStart == barStart, "\(width): \(text)")
        }
        // Under it the narrow layouts (below); under theirs, `▶ ` + `29 Nov` + ` │` and a bar of 4.
        for width in [1, 10, 13] {
            let lines = view.lines(width: width, styler: plain)
            #expect(lines == ["burndown needs 14 columns to draw; this terminal has \(width): widen it, set COLUMNS, or use --json"], "\(width): \(lines)")
        }
    }

    @Test("under 32 columns it draws, not refuses (outside probe): the labels lose their weekday, the numbers stand as open/done, then go; every line within the width, every mark named, today marked, at every width down to 14 (numbers from 18)", arguments: Array(14...31))
    func narrowerThanTheFullLayout(width: Int) {
        let lines = BurndownView(periods: days, weekly: false, today: today).lines(width: width, styler: plain)
        let text = lines.joined(separator: "\n")
        #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width):\n\(text)")
        #expect(text.contains("█ open") && text.contains("▓ done") && text.contains("▶ today"), "\(width):\n\(text)")
        let bars = lines.filter { $0.contains("│") }
        #expect(bars.count == 4 && bars.last?.hasPrefix("▶  2 Dec │█") == true && bars.first?.hasPrefix("  29 Nov │█") == true, "\(width):\n\(text)")
        // The numbers while they fit, as open/done under that heading.
        let numbered = width >= 18
        #expect(text.contains("open/done") == numbered && (bars.last?.hasSuffix(" 2/3") ?? false) == numbered, "\(width):\n\(text)")
    }

    @Test("at 20 and 24 columns: the bars under the legend, a label a day without its weekday, open/done at the right, the axis; a week is Wk 49, and 2026-W53 across the new year")
    func narrowLayouts() {
        let twenty = BurndownView(periods: days, weekly: false, today: today).lines(width: 20, styler: plain)
        #expect(twenty == [
            "          █ open",
            "          ▓ done",
            "          ▶ today",
            "           open/done",
            "  29 Nov │█████  6/0",
            "  30 Nov │████▓▓ 5/2",
            "   1 Dec │████   5/0",
            "▶  2 Dec │██▓▓   2/3",
            "         └──────",
            "          0    7",
        ], "\(twenty.joined(separator: "\n"))")
        let weeks = [
            Burndown.Period(date: LocalDate("2026-12-28")!, open: 6, done: 2, added: 8),
            Burndown.Period(date: LocalDate("2027-01-04")!, open: 2, done: 5, added: 1),
        ]
        let weekly = BurndownView(periods: weeks, weekly: true, today: LocalDate("2027-01-05")!).lines(width: 24, styler: plain)
        #expect(weekly.contains { $0.hasPrefix("  2026-W53 │") } && weekly.contains { $0.hasPrefix("▶ 2027-W01 │") }, "\(weekly.joined(separator: "\n"))")
        #expect(weekly.allSatisfy { TerminalText.width($0) <= 24 }, "\(weekly.joined(separator: "\n"))")
        let thisYear = BurndownView(periods: Array(weeks.prefix(1)), weekly: true, today: LocalDate("2026-12-30")!).lines(width: 24, styler: plain)
        #expect(thisYear.contains { $0.hasPrefix("▶ Wk 53 │") }, "\(thisYear.joined(separator: "\n"))")
    }
}
