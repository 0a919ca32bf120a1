import TodoModel
import TodoViewModel

/// `todoctl burndown`: a bar a day (or week), the todos open at its end (`█`) and those
/// done during it (`▓`) stacked, scaled so that the longest fills the columns `width`
/// leaves beside the day and the numbers; an axis under the bars with its scale, a legend
/// over them, today's row marked `▶` (and bold on a terminal). Weekends are dimmed.
///
///                  █ open  ▓ done   open  done
///       Mo 30 Nov │███████████▓▓▓▓▓    5     2
///       Tu  1 Dec │███████████         5     0
///     ▶ We  2 Dec │█████▓▓▓▓▓▓         2     3
///                 └────────────────
///                  0              7
///
/// The legend names every mark drawn (`▶` too), starting over the bars' first column; when
/// the bars leave it no room it takes a line of its own over the numbers' heading (two, in
/// the narrowest terminals). Narrower than the full labels and numbers need (about 32
/// columns), a label loses its weekday (`30 Nov`, a week `Wk 49`) and the numbers stand
/// as `5/2` under `open/done`; narrower still they go, the axis keeping the scale, down
/// to about 20 columns. Days not all of this year carry their year. A bar is a stock (open)
/// and a flow (done) stacked: the bar shrinks as work is done, and a day of work shows
/// as its ▓ end.
public struct BurndownView: Sendable {
    public let periods: [Burndown.Period]
    public let weekly: Bool
    public let today: LocalDate
    /// What is counted when not every todo is, the filter as typed (`+東京 project:home`,
    /// `+OVERDUE`), shown over the bars as `only …`, escaped and cut with `…` to the width.
    public let scope: String?

    /// The fewest columns a bar gets beside the full labels and numbers; narrower, the
    /// labels lose their weekday and the numbers their columns (`3/2`), and then the numbers
    /// go, down to `minimumNarrowBarWidth`: a 30-column terminal was refused (outside probe).
    static let minimumBarWidth = 8
    static let minimumNarrowBarWidth = 4

    public init(periods: [Burndown.Period], weekly: Bool, today: LocalDate, scope: String? = nil) {
        self.periods = periods
        self.weekly = weekly
        self.today = today
        self.scope = scope
    }

    /// How the numbers stand after a bar: in two columns under `open  done`, as `3/2`
    /// under `open/done`, or left out (the axis still gives the scale; --json the numbers).
    private enum Numbers: CaseIterable {
        case columns, slashed, none
    }

    /// The label, numbers and bar widths for these periods: what every line lays out.
    private struct Layout {
        let labels: [String]
        let labelWidth: Int
        let openWidth: Int
        let doneWidth: Int
        let numbers: Numbers
        /// `▶ ` + label + ` │` before the bar.
        var lead: Int { 2 + labelWidth + 2 }
        /// A space, open, two spaces (or a slash), done after the bar; nothing without them.
        var numbersWidth: Int {
            switch numbers {
            case .columns: 1 + openWidth + 2 + doneWidth
            case .slashed: 1 + openWidth + 1 + doneWidth
            case .none: 0
            }
        }
        /// The fewest columns a bar gets in this layout.
        var minimumBarWidth: Int { numbers == .columns ? BurndownView.minimumBarWidth : BurndownView.minimumNarrowBarWidth }
    }

    /// The layout with full labels and numbers in columns, else the narrower ones in turn.
    private func layout(_ numbers: Numbers) -> Layout {
        let labels = periods.map { label($0, short: numbers != .columns) }
        let digits = (open: periods.map { String($0.open).count }.max() ?? 0, done: periods.map { String($0.done).count }.max() ?? 0)
        return Layout(
            labels: labels, labelWidth: labels.map { TerminalText.width($0) }.max() ?? 0,
            openWidth: numbers == .columns ? max(4, digits.open) : digits.open,
            doneWidth: numbers == .columns ? max(4, digits.done) : digits.done, numbers: numbers)
    }

    /// The widest of the legend's marks (`▶ this week`), which it keeps whole on a line.
    private var widestMark: Int { weekly ? 11 : 7 }

    /// The fewest columns `layout` draws in: its labels, its numbers and its smallest bar,
    /// and the legend's widest mark on a line.
    private func minimumWidth(of layout: Layout) -> Int {
        max(layout.lead + layout.minimumBarWidth + layout.numbersWidth, widestMark)
    }

    /// The first layout, widest first, that `width` holds.
    private func layout(within width: Int) -> Layout? {
        Numbers.allCases.lazy.map(layout).first { minimumWidth(of: $0) <= width }
    }

    /// The fewest columns these bars are drawn in, in the narrowest layout (short labels,
    /// no numbers); `lines(width:)` says so below it rather than spill over the edge.
    public var minimumWidth: Int { minimumWidth(of: layout(.none)) }

    public func lines(width: Int, styler: TextStyler) -> [String] {
        guard !periods.isEmpty else { return ["nothing to draw: no day between the first asked and today"] }
        guard let layout = layout(within: width) else {
            return ["burndown needs \(minimumWidth) columns to draw; this terminal has \(width): widen it, set COLUMNS, or use --json"]
        }
        let (lead, openWidth, doneWidth) = (layout.lead, layout.openWidth, layout.doneWidth)
        let barWidth = width - lead - layout.numbersWidth
        let scale = max(1, periods.map { $0.open + $0.done }.max() ?? 0)

        let heading = switch layout.numbers {
        case .columns: padded("open", openWidth) + "  " + padded("done", doneWidth)
        case .slashed: "open/done"
        case .none: ""
        }
        let counted = scope.map { "only " + TerminalText.escaped($0) }.map { [styler.apply(.bold, to: TerminalText.truncated($0, toWidth: width))] }
        var lines = (counted ?? []) + legend(lead: lead, width: width, numbers: heading, styler: styler)
        for (period, label) in zip(periods, layout.labels) {
            let isToday = weekly ? Burndown.monday(of: today) == period.date : period.date == today
            let weekend = !weekly && [1, 7].contains(period.date.weekday)
            let labelText = TerminalText.fitted(label, toWidth: layout.labelWidth)
            let marker = isToday ? styler.apply(.bold, to: "▶") : " "
            let styledLabel = styler.apply(isToday ? .bold : (weekend ? .dim : nil), to: labelText)
            let (openColumns, doneColumns) = Self.columns(open: period.open, done: period.done, scale: scale, width: barWidth)
            let bar = styler.apply(.yellow, to: String(repeating: "█", count: openColumns))
                + styler.apply(.green, to: String(repeating: "▓", count: doneColumns))
            let done = styler.apply(period.done > 0 ? .green : .dim, to: padded(String(period.done), doneWidth))
            let numbers = switch layout.numbers {
            case .columns: " " + padded(String(period.open), openWidth) + "  " + done
            case .slashed: " " + padded(String(period.open), openWidth) + "/" + done
            case .none: ""
            }
            // Without numbers after it, a bar leaves no spaces at the line's end.
            let gap = layout.numbers == .none ? "" : String(repeating: " ", count: barWidth - openColumns - doneColumns)
            lines.append(marker + " " + styledLabel + " " + styler.apply(.dim, to: "│") + bar + gap + numbers)
        }
        let indent = String(repeating: " ", count: lead - 1)
        lines.append(indent + styler.apply(.dim, to: "└" + String(repeating: "─", count: barWidth)))
        let top = String(scale)
        lines.append(indent + " 0" + String(repeating: " ", count: max(1, barWidth - 1 - top.count)) + top)
        return lines
    }

    /// The legend over the bars, the numbers' heading at the right edge. Every mark the
    /// bars draw is in it: when the bar's columns cannot hold it, it takes a line of its
    /// own over the heading (the minimum width holds it there).
    private func legend(lead: Int, width: Int, numbers: String, styler: TextStyler) -> [String] {
        let parts = [
            (styler.apply(.yellow, to: "█") + " open", 6), (styler.apply(.green, to: "▓") + " done", 6), ("▶ " + (weekly ? "this week" : "today"), widestMark),
        ]
        let text = parts.map(\.0).joined(separator: "  ")
        let used = parts.map(\.1).reduce(0, +) + 2 * (parts.count - 1)
        let numbersColumns = TerminalText.width(numbers)
        let heading = numbers.isEmpty ? [] : [String(repeating: " ", count: width - numbersColumns) + styler.apply(.bold, to: numbers)]
        if lead + used + 1 + numbersColumns <= width {
            let after = numbers.isEmpty ? "" : String(repeating: " ", count: width - lead - used - numbersColumns) + styler.apply(.bold, to: numbers)
            return [String(repeating: " ", count: lead) + text + after]
        }
        // Over the bars, from their first column: on a line of its own, or where the width
        // leaves too little for that, a mark a line as far as they fit (moved left, it stood
        // over the labels instead). Only in the narrowest layouts, where a mark would run
        // past the edge from there, do the marks start as far left as that needs.
        let start = min(lead, width - widestMark)
        var lines: [String] = []
        var line = "", taken = 0
        for (mark, columns) in parts {
            if taken > 0, start + taken + 2 + columns > width {
                lines.append(line)
                (line, taken) = ("", 0)
            }
            line += (taken > 0 ? "  " : String(repeating: " ", count: start)) + mark
            taken += (taken > 0 ? 2 : 0) + columns
        }
        return lines + [line] + heading
    }

    /// Whether the labels name the year: when a day drawn is not of this year (a range
    /// across the new year, or one of a year before).
    private var showsYear: Bool { periods.contains { $0.date.year != today.year } }

    /// `Mo 30 Nov`, or for a week `Wk 49 30 Nov` (its Monday); `Mo 30 Nov 2026` when
    /// `showsYear`. `short`, for a narrow terminal: `30 Nov` (`30 Nov 2026`), a week `Wk 49`
    /// (`2026-W49`, the ISO week's own way of giving its year).
    private func label(_ period: Burndown.Period, short: Bool) -> String {
        let month = String(CalendarView.monthNames[period.date.month - 1].prefix(3))
        let day = padded(String(period.date.day), 2) + " " + month + (showsYear ? " \(period.date.year)" : "")
        if weekly {
            let week = CalendarView.isoWeek(of: period.date)
            guard short else { return "Wk " + padded(String(week), 2) + " " + day }
            // The ISO week's year is its Thursday's.
            let year = period.date.adding(days: 3).year
            return showsYear ? "\(year)-W" + String(repeating: "0", count: week < 10 ? 1 : 0) + String(week) : "Wk " + padded(String(week), 2)
        }
        return short ? day : CalendarView.dayNames[CalendarView.isoWeekdayIndex(period.date)] + " " + day
    }

    /// The columns of the open and the done part of a bar: `open + done` of `scale` in
    /// `width`, rounded; a part that is not zero gets a column at least, so that one todo
    /// done among many still shows.
    static func columns(open: Int, done: Int, scale: Int, width: Int) -> (open: Int, done: Int) {
        func share(_ count: Int) -> Int { (count * width * 2 + scale) / (scale * 2) }
        let total = min(width, share(open + done))
        var openColumns = share(open)
        if open > 0 { openColumns = max(1, openColumns) }
        var doneColumns = max(0, total - openColumns)
        if done > 0 { doneColumns = max(1, doneColumns) }
        if openColumns + doneColumns > width { openColumns = width - doneColumns }
        return (openColumns, doneColumns)
    }

    private func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
