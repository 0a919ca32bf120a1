import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("The month todoctl calendar draws")
struct CalendarViewTests {
    private let plain = TextStyler(colours: false)
    private let today = LocalDate("2026-11-23")!
    private let boundary = [
        todo(1, "Dig beds", due: LocalDate("2026-12-01")), todo(2, "Call Ann", due: LocalDate("2026-12-01")),
        todo(3, "東京で会議の準備をするとても長いタイトル 🙂", due: LocalDate("2026-12-31")),
        todo(4, "New year", due: LocalDate("2027-01-01")), todo(5, "Last of November", due: LocalDate("2026-11-30")),
        todo(6, "Done already", due: LocalDate("2026-12-02"), completed: true),
    ]

    @Test("December 2026: ISO weeks, each day with todos due marked with their count, the 31st in and the 1st of January out")
    func december() {
        let lines = CalendarView(year: 2026, month: 12, today: today, todos: boundary).lines(width: 80, styler: plain)
        #expect(lines == [
            "        December 2026",
            "Wk Mo  Tu  We  Th  Fr  Sa  Su",
            "49      1²  2   3   4   5   6",
            "50  7   8   9  10  11  12  13",
            "51 14  15  16  17  18  19  20",
            "52 21  22  23  24  25  26  27",
            "53 28  29  30  31¹",
            "",
            "Tu  1  #1 Dig beds",
            "Tu  1  #2 Call Ann",
            "Th 31  #3 東京で会議の準備をするとても長いタイトル 🙂",
        ])
    }

    @Test("the first month there is, January 0001, is headed with its year as the argument writes it, and starts on a Monday in week 1")
    func firstMonth() {
        let lines = CalendarView(year: 1, month: 1, today: today, todos: []).lines(width: 80, styler: plain)
        #expect(lines.prefix(3) == ["         January 0001", "Wk Mo  Tu  We  Th  Fr  Sa  Su", " 1  1   2   3   4   5   6   7"], "\(lines)")
        #expect(lines.last == "nothing due in January 0001", "\(lines)")
    }

    @Test("January 2027 starts in ISO week 53 of 2026 and lists the todo due on the 1st, not December's")
    func january() {
        let lines = CalendarView(year: 2027, month: 1, today: today, todos: boundary).lines(width: 80, styler: plain)
        #expect(lines.prefix(3) == ["         January 2027", "Wk Mo  Tu  We  Th  Fr  Sa  Su", "53                  1¹  2   3"])
        #expect(lines.last == "Fr  1  #4 New year", "\(lines)")
    }

    @Test("a month starting on a Sunday has its 1st alone at the end of the first week")
    func startsOnSunday() {
        let lines = CalendarView(year: 2026, month: 11, today: today, todos: boundary).lines(width: 80, styler: plain)
        // Without colours, with today in the month, each day a column wider for its brackets.
        #expect(lines[2] == "44                                 1", "\(lines)")
        #expect(lines[7] == "49  30¹", "\(lines)")
        #expect(lines.last == "Mo 30  #5 Last of November", "\(lines)")
    }

    @Test("February of a leap year has its 29th; with nothing due, the list says so")
    func leapFebruary() {
        let lines = CalendarView(year: 2028, month: 2, today: today, todos: []).lines(width: 80, styler: plain)
        #expect(lines.contains(" 9 28  29"), "\(lines)")
        #expect(lines.last == "nothing due in February 2028", "\(lines)")
        let common = CalendarView(year: 2027, month: 2, today: today, todos: []).lines(width: 80, styler: plain)
        #expect(common.prefix(6).last == " 8 22  23  24  25  26  27  28", "\(common)")
    }

    @Test("at 40 and 32 columns the grid stays whole and the list's wide titles are cut with … to the width")
    func narrowWidths() {
        let view = CalendarView(year: 2026, month: 12, today: today, todos: boundary)
        let grid = view.grid(styler: plain)
        for width in [40, 32] {
            let lines = view.lines(width: width, styler: plain)
            #expect(Array(lines.prefix(grid.count)) == grid)
            let list = lines.dropFirst(grid.count + 1)
            #expect(list.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(list.map { TerminalText.width($0) })")
            #expect(list.last?.hasSuffix("…") == true, "\(width): \(list)")
        }
        let forty = view.lines(width: 40, styler: plain).last
        #expect(forty == "Th 31  #3 東京で会議の準備をするとても…", "\(forty ?? "")")
    }

    @Test("under 30 columns the grid drops its week numbers, under 28 its marks (they touched the next day: 27³28¹29), under 22 it is left out, and the list keeps its days (at 20 its 30-column lines wrapped; outside probe)")
    func narrowerThanTheGrid() {
        let view = CalendarView(year: 2026, month: 12, today: today, todos: boundary)
        #expect(Array(view.lines(width: 28, styler: plain).prefix(7)) == [
            "       December 2026",
            " Mo  Tu  We  Th  Fr  Sa  Su",
            "      1²  2   3   4   5   6",
            "  7   8   9  10  11  12  13",
            " 14  15  16  17  18  19  20",
            " 21  22  23  24  25  26  27",
            " 28  29  30  31¹",
        ], "\(view.lines(width: 28, styler: plain))")
        #expect(view.lines(width: 24, styler: plain) == [
            "    December 2026",
            " Mo Tu We Th Fr Sa Su",
            "     1  2  3  4  5  6",
            "  7  8  9 10 11 12 13",
            " 14 15 16 17 18 19 20",
            " 21 22 23 24 25 26 27",
            " 28 29 30 31",
            "",
            "Tu  1  #1 Dig beds",
            "Tu  1  #2 Call Ann",
            "Th 31  #3 東京で会議の…",
        ])
        #expect(view.lines(width: 12, styler: plain) == ["  Dec 2026", "", " 1 #1 Dig b…", " 1 #2 Call …", "31 #3 東京…"])
        #expect(CalendarView(year: 2026, month: 12, today: today, todos: []).lines(width: 12, styler: plain) == ["  Dec 2026", "", "nothing due", "in December", "2026"])
    }

    @Test("today is in reverse video with colours, and in brackets without (NO_COLOR, a pipe: it was not marked at all; outside probe)")
    func todayHighlighted() {
        let coloured = CalendarView(year: 2026, month: 11, today: today, todos: []).lines(width: 80, styler: TextStyler(colours: true))
        #expect(coloured.contains { $0.contains("\u{1B}[7m23\u{1B}[0m") }, "\(coloured)")
        #expect(!coloured.joined().contains("[23"), "\(coloured)")
        let plainLines = CalendarView(year: 2026, month: 11, today: today, todos: []).lines(width: 80, styler: plain)
        #expect(!plainLines.joined().contains("\u{1B}"), "\(plainLines)")
        #expect(plainLines.contains("48 [23]  24   25   26   27   28   29"), "\(plainLines)")
    }

    @Test("without colours today keeps its brackets at every width, in the grid and in the list, wide titles cut within the width and the columns kept", arguments: Array(12...40))
    func todayInBracketsAtEveryWidth(width: Int) {
        let todos = boundary + [todo(7, "東京で会議 🙂 today", due: today), todo(8, "Sunday's", due: LocalDate("2026-11-29"))]
        let lines = CalendarView(year: 2026, month: 11, today: today, todos: todos).lines(width: width, styler: plain)
        #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines.joined(separator: "\n"))")
        let list = Array(lines.drop { !$0.isEmpty }.dropFirst())
        // Today's todo, in brackets; the others' days in spaces, so that their numbers stay in one column.
        #expect(list.filter { $0.hasPrefix("[") }.count == 1 && list.first { $0.hasPrefix("[") }?.contains("#7 東") == true, "\(width): \(list)")
        #expect(Set(list.map { $0.prefix { $0 != "#" }.count }).count == 1, "\(width): \(list)")
        if width >= CalendarView.bracketedGridWidthWithoutMarks {
            // In the grid: `[23¹] 24`, its count kept, or `[23] 24` without the marks.
            let today = width >= CalendarView.bracketedGridWidthWithoutWeeks ? "[23¹] 24" : "[23] 24"
            #expect(lines.contains { $0.contains(today) && $0.contains("29") }, "\(width): \(lines.joined(separator: "\n"))")
        }
    }

    @Test("without colours today keeps the count of its todos due inside its brackets (`[23]` dropped it; outside probe 10)")
    func todayKeepsItsCount() {
        let todos = [todo(1, "One", due: today), todo(2, "Two", due: today), todo(3, "Next", due: LocalDate("2026-11-24"))]
        let lines = CalendarView(year: 2026, month: 11, today: today, todos: todos).lines(width: 80, styler: plain)
        #expect(lines.contains("48 [23²] 24¹  25   26   27   28   29"), "\(lines.joined(separator: "\n"))")
        let none = CalendarView(year: 2026, month: 11, today: today, todos: []).lines(width: 80, styler: plain)
        #expect(none.contains("48 [23]  24   25   26   27   28   29"), "\(none.joined(separator: "\n"))")
    }

    @Test("without the marks, a Sunday today closes its bracket at the line's end, within the grid's 28 columns")
    func sundayInBrackets() {
        let lines = CalendarView(year: 2026, month: 11, today: LocalDate("2026-11-29")!, todos: []).lines(width: 28, styler: plain)
        #expect(lines.contains(" 23  24  25  26  27  28 [29]"), "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { TerminalText.width($0) <= 28 }, "\(lines)")
    }

    /// Days around the end of November 2026 with todos due, wide titles among them.
    private let aroundTheBoundary = [
        todo(1, "東京で会議の準備 🙂", due: LocalDate("2026-11-22")), todo(2, "Rent", due: LocalDate("2026-11-27")),
        todo(3, "Pay", due: LocalDate("2026-11-27")), todo(4, "会議", due: LocalDate("2026-11-29")),
        todo(5, "Plan", due: LocalDate("2026-11-30")), todo(6, "Dig", due: LocalDate("2026-12-01")), todo(7, "Call", due: LocalDate("2026-12-02")),
    ]

    @Test("without colours every day of the grid stands apart at every width it is drawn at, today's brackets touching no day or week number beside them (27²[28] ran together; outside probe 10)", arguments: Array(12...40))
    func gridReadableAtEveryWidth(width: Int) {
        // Today beside days with todos due: on a Saturday after the 27th's, a Sunday, the last and first days of a month, a Monday.
        for today in ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-11-23"] {
            for (year, month) in [(2026, 11), (2026, 12)] {
                let lines = CalendarView(year: year, month: month, today: LocalDate(today)!, todos: aroundTheBoundary).lines(width: width, styler: plain)
                let shown = "\(width) columns, today \(today):\n\(lines.joined(separator: "\n"))"
                #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(shown)")
                // A week's line: its number (with the week numbers), then each day alone: `27²`, `[28]`, `[28²]`.
                let drawn = !lines[1].isEmpty
                let weeks = drawn ? Array(lines.dropFirst(2).prefix { !$0.isEmpty }) : []
                for line in weeks {
                    let words = line.split(separator: " ")
                    let days = lines[1].hasPrefix("Wk") ? words.dropFirst() : words[...]
                    #expect(days.allSatisfy { $0.wholeMatch(of: /\[?\d{1,2}[¹²³⁴⁵⁶⁷⁸⁹⁺]?\]?/) != nil }, "\(shown)")
                    #expect(line.contains("[") == line.contains("]"), "\(shown)")
                }
                // Today in brackets in the grid wherever it is drawn.
                #expect(weeks.filter { $0.contains("[") }.count == (drawn && LocalDate(today)!.month == month ? 1 : 0), "\(shown)")
            }
        }
        // The probe's case: the day before today with two due.
        let probe = CalendarView(year: 2026, month: 11, today: LocalDate("2026-11-28")!, todos: aroundTheBoundary).lines(width: 40, styler: plain)
        #expect(probe.contains("48  23   24   25   26   27² [28]  29¹"), "\(probe.joined(separator: "\n"))")
    }
}
