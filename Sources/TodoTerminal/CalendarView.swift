import TodoModel
import TodoViewModel

/// `todoctl calendar`: a month as a grid of ISO weeks (Monday first, the week's number
/// on the left), each day with due todos marked with their count (`12²`), today in
/// reverse video, or without colours (NO_COLOR, a pipe) in brackets (`[12]`, `[12²]` with
/// todos due), and its todos' days in the list: without them today was not marked at all;
/// outside probe); under it, the month's due todos, one a line, titles cut with `…` to the
/// width given. The grid is 30 columns; on a narrower terminal it drops the week numbers
/// (28 columns), then the marks of counts (21 columns: a space and a day's digits, coloured
/// when due), and under that it is left out, the month's name and its list kept: a grid
/// past the edge wrapped into a jumble of numbers. Without colours, a month with today in
/// it gives each day a column more (38, 35 and 28 columns), so that today's brackets touch
/// neither the day before nor the day after (`27² [28]  29`), nor a Monday's week number.
public struct CalendarView: Sendable {
    public let year: Int
    public let month: Int
    public let today: LocalDate
    /// The open todos due in the month, by due date and time (a day's whole-day ones after its
    /// timed ones), then number.
    public let due: [TodoViewModel]

    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    /// - Parameter todos: any todos; those open and due in the month are kept.
    public init(year: Int, month: Int, today: LocalDate, todos: [Todo]) {
        self.year = year
        self.month = month
        self.today = today
        due = todos.filter { todo in
            guard let date = todo.due, !todo.isCompleted, !todo.isDeleted else { return false }
            return date.year == year && date.month == month
        }
        // A day's timed todos first, by their times, then its whole-day ones (`Todo.dueOrder`), as lists order them.
        .sorted { ($0.dueOrder!, $0.number) < ($1.dueOrder!, $1.number) }
        .map { TodoViewModel($0, today: today) }
    }

    public func lines(width: Int, styler: TextStyler) -> [String] {
        grid(width: width, styler: styler) + list(width: width, styler: styler)
    }

    /// How the grid is drawn: with the week numbers or not, the counts' marks or not, and a
    /// column after each day for today's `]` (`brackets`).
    struct Layout: Equatable {
        let weeks: Bool
        let marks: Bool
        let brackets: Bool

        /// A day's columns: a space (today's `[`), its two digits, its mark, and the column
        /// for today's `]`.
        var cell: Int { 3 + (marks ? 1 : 0) + (brackets ? 1 : 0) }
        /// The week's number, and a space before a Monday's `[` (`48[23]` ran them together).
        var weekColumns: Int { weeks ? (brackets ? 3 : 2) : 0 }
        var width: Int { weekColumns + 7 * cell }
    }

    /// The grid's widths with colours: with the week numbers, without them (a day's two
    /// digits and mark), without the marks too: in three columns a day's mark touched the
    /// next day's digits (`27³28¹29` at 25 columns; outside probe), so there a due day is
    /// only coloured.
    public static let gridWidth = 2 + 7 * 4
    public static let gridWidthWithoutWeeks = 7 * 4
    public static let gridWidthWithoutMarks = 7 * 3
    /// The same without colours and with today in the month, each day a column wider for
    /// today's brackets: over the day's space and its next day's, they touched the marks
    /// and digits around them (`27²[28]`, `[23²]24`; outside probe 10).
    public static let bracketedGridWidth = 3 + 7 * 5
    public static let bracketedGridWidthWithoutWeeks = 7 * 5
    public static let bracketedGridWidthWithoutMarks = 7 * 4

    /// The richest grid that fits `width`: the week numbers go first, then the marks; nil
    /// where not even a day's digits fit.
    func layout(width: Int, styler: TextStyler) -> Layout? {
        let brackets = !styler.colours && today.year == year && today.month == month
        return [(true, true), (false, true), (false, false)].lazy
            .map { Layout(weeks: $0.0, marks: $0.1, brackets: brackets) }
            .first { $0.width <= width }
    }

    /// The year in four digits, as dates and the month argument write it: "January 0001",
    /// not "January 1".
    private var yearText: String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The month's name over the grid, a header of weekdays, a line a week; within `width`
    /// (see the type), the name alone, shortened (Dec 2026) where it does not fit.
    public func grid(width: Int = CalendarView.bracketedGridWidth, styler: TextStyler) -> [String] {
        let layout = layout(width: width, styler: styler)
        let long = "\(Self.monthNames[month - 1]) \(yearText)"
        let title = long.count <= width ? long : "\(Self.monthNames[month - 1].prefix(3)) \(yearText)"
        let left = max(0, (min(layout?.width ?? width, width) - title.count) / 2)
        var lines = [String(repeating: " ", count: left) + styler.apply(.bold, to: title)]
        guard let layout else { return lines }
        let blank = String(repeating: " ", count: layout.cell)
        // Each weekday's name over its day's digits.
        let header = (layout.weeks ? Self.padded("Wk", layout.weekColumns, after: true) : "") + Self.dayNames.map { " \($0)" + blank.dropFirst(3) }.joined()
        lines.append(styler.apply(.dim, to: header).trimmingTrailingSpaces())
        let days = LocalDate.daysIn(month: month, year: year)
        guard let first = LocalDate(year: year, month: month, day: 1) else { return lines }
        var counts: [Int: Int] = [:]
        for row in due { counts[row.todo.due!.day, default: 0] += 1 }
        // The Monday on or before the 1st: the grid's first row starts there.
        var monday = first.adding(days: -Self.isoWeekdayIndex(first))
        while monday.daysSince1970 <= first.adding(days: days - 1).daysSince1970 {
            var line = layout.weeks ? styler.apply(.dim, to: Self.padded(String(Self.isoWeek(of: monday)), 2)) + blank.prefix(layout.weekColumns - 2) : ""
            for offset in 0..<7 {
                let date = monday.adding(days: offset)
                guard date.year == year, date.month == month else {
                    line += blank
                    continue
                }
                let count = counts[date.day] ?? 0
                let number = Self.padded(String(date.day), 2)
                let mark = layout.marks ? Self.mark(count) : ""
                if date == today, layout.brackets {
                    // Its count inside (`[27²]`: `[27]` over the mark dropped the count of the
                    // day it matters most for; outside probe 10), the `]` in its own column.
                    // `[` against the digits: `[ 1]` read as two words.
                    let opened = date.day < 10 ? " [" + String(date.day) : "[" + number
                    line += opened + (count > 0 ? mark + "]" : "]" + mark)
                    continue
                }
                let style: TextStyler.Style? = date == today ? .reverse : (count > 0 ? .yellow : nil)
                line += " " + styler.apply(style, to: number) + styler.apply(.yellow, to: mark) + (layout.brackets ? " " : "")
            }
            lines.append(line.trimmingTrailingSpaces())
            monday = monday.adding(days: 7)
        }
        return lines
    }

    /// The month's due todos under the grid: `Tu  1  #4 Call Ann`, `Tu  1  #5 15:00 Call Bob` with
    /// a time of day, titles cut to `width`.
    /// Where that leaves a title under 4 columns, the weekday's name and the spaces go
    /// (` 1 #4 Call…`); the message of an empty month is wrapped to the width. Without
    /// colours, today's days are in brackets (`[Tu  1]`), the others in spaces to keep the column.
    public func list(width: Int, styler: TextStyler) -> [String] {
        guard !due.isEmpty else { return [""] + TerminalText.wrapped("nothing due in \(Self.monthNames[month - 1]) \(yearText)", toWidth: width) }
        let numberWidth = due.map(\.numberText.count).max() ?? 2
        let brackets = !styler.colours && due.contains { $0.todo.due == today }
        let short = width - (2 + 1 + 2 + 2 + numberWidth + 1 + (brackets ? 2 : 0)) < 4
        return [""] + due.map { row in
            let date = row.todo.due!
            let plain = (short ? "" : Self.dayNames[Self.isoWeekdayIndex(date)] + " ") + Self.padded(String(date.day), 2)
            let day = brackets ? (date == today ? "[" + plain + "]" : " " + plain + " ") : plain
            let number = (short ? " " : "  ") + Self.padded(row.numberText, numberWidth) + " "
            // A timed todo's time before its title (`15:00 Call dentist`): the day alone read as due all day.
            let time = row.todo.dueTime.map { "\($0) " } ?? ""
            let title = TerminalText.truncated(time + TerminalText.escaped(row.title), toWidth: max(1, width - day.count - number.count))
            return styler.apply(date == today ? .reverse : nil, to: day) + number + styler.apply(row.isOverdue ? .red : nil, to: title)
        }
    }

    /// `²` for two todos due that day, blank for none, `⁺` for more than nine: one column.
    static func mark(_ count: Int) -> String {
        let superscripts: [Character] = ["¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        switch count {
        case 0: return " "
        case 1...9: return String(superscripts[count - 1])
        default: return "⁺"
        }
    }

    /// 0 for Monday … 6 for Sunday.
    static func isoWeekdayIndex(_ date: LocalDate) -> Int {
        (date.weekday + 5) % 7
    }

    /// The ISO 8601 week of the week starting `monday`: the week holding the year's first
    /// Thursday is week 1, so a week's number is that of its Thursday's year.
    static func isoWeek(of monday: LocalDate) -> Int {
        let thursday = monday.adding(days: 3)
        guard let january1 = LocalDate(year: thursday.year, month: 1, day: 1) else { return 0 }
        return (thursday.daysSince1970 - january1.daysSince1970) / 7 + 1
    }

    /// `text` in `width` columns, the spaces before it (a number's), or after it.
    private static func padded(_ text: String, _ width: Int, after: Bool = false) -> String {
        let spaces = String(repeating: " ", count: max(0, width - text.count))
        return after ? text + spaces : spaces + text
    }
}
