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
/// the narrowest terminals). Days not all of this year carry their year. A bar is a stock (open)
/// and a flow (done) stacked: the bar shrinks as work is done, and a day of work shows
/// as its ▓ end.
public struct BurndownView: Sendable {
    public let periods: [Burndown.Period]
    public let weekly: Bool
    public let today: LocalDate
    /// What is counted when not every todo is, the filter as typed (`+東京 project:home`,
    /// `+OVERDUE`), shown over the bars as `only …`, escaped and cut with `…` to the width.
    public let scope: String?

    /// The fewest columns a bar gets: narrower, `lines(width:)` says how many it needs.
    static let minimumBarWidth = 8

    public init(periods: [Burndown.Period], weekly: Bool, today: LocalDate, scope: String? = nil) {
        self.periods = periods
        self.weekly = weekly
        self.today = today
        self.scope = scope
    }

    /// The label, numbers and bar widths for these periods: what every line lays out.
    private struct Layout {
        let labels: [String]
        let labelWidth: Int
        let openWidth: Int
        let doneWidth: Int
        /// `▶ ` + label + ` │` before the bar.
        var lead: Int { 2 + labelWidth + 2 }
        /// A space, open, two spaces, done after the bar.
        var numbersWidth: Int { 1 + openWidth + 2 + doneWidth }
    }

    private var layout: Layout {
        let labels = periods.map(label)
        return Layout(
            labels: labels, labelWidth: labels.map { TerminalText.width($0) }.max() ?? 0,
            openWidth: max(4, periods.map { String($0.open).count }.max() ?? 0),
            doneWidth: max(4, periods.map { String($0.done).count }.max() ?? 0))
    }

    /// The fewest columns these bars are drawn in: the labels, the numbers and a bar of
    /// `minimumBarWidth`; `lines(width:)` says so below it rather than spill over the edge.
    public var minimumWidth: Int {
        let layout = layout
        return layout.lead + Self.minimumBarWidth + layout.numbersWidth
    }

    public func lines(width: Int, styler: TextStyler) -> [String] {
        guard !periods.isEmpty else { return ["nothing to draw: no day between the first asked and today"] }
        guard width >= minimumWidth else {
            return ["burndown needs \(minimumWidth) columns to draw; this terminal has \(width): widen it, set COLUMNS, or use --json"]
        }
        let layout = layout
        let (lead, openWidth, doneWidth) = (layout.lead, layout.openWidth, layout.doneWidth)
        let barWidth = width - lead - layout.numbersWidth
        let scale = max(1, periods.map { $0.open + $0.done }.max() ?? 0)

        let counted = scope.map { "only " + TerminalText.escaped($0) }.map { [styler.apply(.bold, to: TerminalText.truncated($0, toWidth: width))] }
        var lines = (counted ?? []) + legend(lead: lead, barWidth: barWidth, numbers: padded("open", openWidth) + "  " + padded("done", doneWidth), styler: styler)
        for (period, label) in zip(periods, layout.labels) {
            let isToday = weekly ? Burndown.monday(of: today) == period.date : period.date == today
            let weekend = !weekly && [1, 7].contains(period.date.weekday)
            let labelText = TerminalText.fitted(label, toWidth: layout.labelWidth)
            let marker = isToday ? styler.apply(.bold, to: "▶") : " "
            let styledLabel = styler.apply(isToday ? .bold : (weekend ? .dim : nil), to: labelText)
            let (openColumns, doneColumns) = Self.columns(open: period.open, done: period.done, scale: scale, width: barWidth)
            let bar = styler.apply(.yellow, to: String(repeating: "█", count: openColumns))
                + styler.apply(.green, to: String(repeating: "▓", count: doneColumns))
                + String(repeating: " ", count: barWidth - openColumns - doneColumns)
            let numbers = padded(String(period.open), openWidth) + "  " + styler.apply(period.done > 0 ? .green : .dim, to: padded(String(period.done), doneWidth))
            lines.append(marker + " " + styledLabel + " " + styler.apply(.dim, to: "│") + bar + " " + numbers)
        }
        let indent = String(repeating: " ", count: lead - 1)
        lines.append(indent + styler.apply(.dim, to: "└" + String(repeating: "─", count: barWidth)))
        let top = String(scale)
        lines.append(indent + " 0" + String(repeating: " ", count: max(1, barWidth - 1 - top.count)) + top)
        return lines
    }

    /// The legend over the bars, the numbers' heading at the right. Every mark the bars
    /// draw is in it: when the bar's columns cannot hold it, it takes a line of its own
    /// over the heading (the minimum width holds it there).
    private func legend(lead: Int, barWidth: Int, numbers: String, styler: TextStyler) -> [String] {
        let parts = [
            (styler.apply(.yellow, to: "█") + " open", 6), (styler.apply(.green, to: "▓") + " done", 6), ("▶ " + (weekly ? "this week" : "today"), weekly ? 11 : 7),
        ]
        let text = parts.map(\.0).joined(separator: "  ")
        let used = parts.map(\.1).reduce(0, +) + 2 * (parts.count - 1)
        let room = barWidth + 1
        let heading = String(repeating: " ", count: lead + room) + styler.apply(.bold, to: numbers)
        if used < room {
            return [String(repeating: " ", count: lead) + text + String(repeating: " ", count: room - used) + styler.apply(.bold, to: numbers)]
        }
        // Over the bars, from their first column: on a line of its own, or where the width
        // leaves too little for that, a mark a line as far as they fit (moved left, it stood
        // over the labels instead). The minimum width leaves room for the longest mark.
        let total = lead + room + TerminalText.width(numbers)
        var lines: [String] = []
        var line = "", width = 0
        for (mark, columns) in parts {
            if width > 0, lead + width + 2 + columns > total {
                lines.append(line)
                (line, width) = ("", 0)
            }
            line += (width > 0 ? "  " : String(repeating: " ", count: lead)) + mark
            width += (width > 0 ? 2 : 0) + columns
        }
        return lines + [line, heading]
    }

    /// Whether the labels name the year: when a day drawn is not of this year (a range
    /// across the new year, or one of a year before).
    private var showsYear: Bool { periods.contains { $0.date.year != today.year } }

    /// `Mo 30 Nov`, or for a week `Wk 49 30 Nov` (its Monday); `Mo 30 Nov 2026` when
    /// `showsYear`.
    private func label(_ period: Burndown.Period) -> String {
        let month = String(CalendarView.monthNames[period.date.month - 1].prefix(3))
        let day = padded(String(period.date.day), 2) + " " + month + (showsYear ? " \(period.date.year)" : "")
        if weekly { return "Wk " + padded(String(CalendarView.isoWeek(of: period.date)), 2) + " " + day }
        return CalendarView.dayNames[CalendarView.isoWeekdayIndex(period.date)] + " " + day
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
