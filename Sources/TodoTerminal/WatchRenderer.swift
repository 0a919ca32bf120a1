import TodoModel
import TodoViewModel

/// Draws a `WatchScreen` as exactly `rows` lines, and tells which lines differ from the
/// last frame, so that only those are written to the terminal.
public struct WatchRenderer: Sendable {
    public let styler: TextStyler

    public init(styler: TextStyler) {
        self.styler = styler
    }

    /// The screen's lines, top to bottom: header, visible rows, the line that marks rows
    /// above and below, the detail pane when open, the status lines.
    public func render(_ screen: WatchScreen) -> [String] {
        let status = screen.statusLines
        let middle = screen.rows - 1 - status.count
        var lines = [header(screen)]
        lines += screen.mode == .help ? helpPage(height: middle, columns: screen.columns) : list(screen)
        while lines.count < 1 + middle { lines.append("") }
        lines = Array(lines.prefix(1 + middle))
        lines += status.map(style)
        guard screen.terminalColumns < screen.columns else { return lines }
        return lines.map { TerminalText.clipped(styled: $0, toWidth: screen.terminalColumns) }
    }

    /// The indices of the lines that differ between two frames (all of them when the
    /// frames differ in length, as after a resize).
    public static func changedLines(from old: [String], to new: [String]) -> [Int] {
        guard old.count == new.count else { return Array(new.indices) }
        return new.indices.filter { old[$0] != new[$0] }
    }

    /// The visible rows (their due dates told against the screen's day), the marker line
    /// and the detail pane.
    private func list(_ screen: WatchScreen) -> [String] {
        let entries = screen.entries
        let rows = entries.map { $0.row.reading(on: screen.today, at: screen.now) }
        let width = screen.columns - 2
        let table = TodoTable(rows: rows, styler: styler, maximumTitleWidth: width - 16, titleAllowance: screen.isNested ? 12 : 0)
        var lines: [String] = []
        let visible = rows.indices.dropFirst(screen.scrollOffset).prefix(screen.visibleRows)
        for index in visible {
            let selected = index == screen.selectedIndex
            let (prefix, suffix) = TodoTable.outlineParts(entries[index], folded: screen.folded.contains(rows[index].number))
            let row = table.line(rows[index], titlePrefix: prefix, titleSuffix: suffix, dimmed: entries[index].isContext, fittingWidth: width)
            let line = (selected ? "> " : "  ") + row
            lines.append(selected ? styler.apply(.bold, to: line) : line)
        }
        if rows.isEmpty, !screen.listArrived {
            // A big list takes its time (60 MB took 20 s in a debug build): not "no todos" meanwhile.
            lines.append(styler.apply(.dim, to: TerminalText.truncated("  loading the list…", toWidth: screen.columns)))
        } else if rows.isEmpty {
            let filter = screen.list.filter
            let status = filter.status == .all ? "" : filter.status.rawValue + " "
            let conditions = Self.conditions(of: filter)
            let words = conditions.isEmpty
                ? "  no \(status)todos: press a to add one"
                : "  no \(status)todos match \(conditions): press a to add one, f for another list"
            lines.append(styler.apply(.dim, to: TerminalText.truncated(words, toWidth: screen.columns)))
        }
        while lines.count < screen.visibleRows { lines.append("") }
        lines.append(styler.apply(.dim, to: TerminalText.truncated(marker(screen, shown: visible.count), toWidth: screen.columns)))
        if screen.pane != .none { lines += detail(screen) }
        return lines
    }

    /// `↑ 3 above · ↓ 12 below`, or nothing when every row is shown.
    private func marker(_ screen: WatchScreen, shown: Int) -> String {
        let above = screen.scrollOffset
        let below = screen.entries.count - above - shown
        let parts = (above > 0 ? ["↑ \(above) above"] : []) + (below > 0 ? ["↓ \(below) more below"] : [])
        return parts.isEmpty ? "" : "  " + parts.joined(separator: " · ")
    }

    private func detail(_ screen: WatchScreen) -> [String] {
        let rule = String(repeating: "─", count: screen.columns)
        let lines = screen.paneLines
        var shown = Array(lines.prefix(screen.detailHeight - 1))
        // What does not fit is said to be there, and where to read it whole.
        if lines.count > shown.count, !shown.isEmpty {
            let more = "… \(lines.count - shown.count + 1) more lines: " + (screen.pane == .history ? "todoctl history" : "E opens the notes")
            shown[shown.count - 1] = TerminalText.truncated(more, toWidth: screen.columns - 2)
        }
        return [styler.apply(.dim, to: rule)] + shown.map { "  " + $0 }
    }

    /// Every key, one a line; in two columns, or else one after another, when one column is not tall enough.
    private func helpPage(height: Int, columns: Int) -> [String] {
        // The closing hint only where it fits: the keys come first.
        // A prompt's editing keys where there is room for them too (`todoctl watch --help` lists them always).
        let prompt = ["", "in a prompt:"] + WatchKeys.promptPage
        if WatchKeys.page.count + prompt.count + 2 <= height { return WatchKeys.page + prompt + ["", "any key closes this list"] }
        if WatchKeys.page.count + 2 <= height { return WatchKeys.page + ["", "any key closes this list"] }
        let page = WatchKeys.page
        guard page.count > height else { return page }
        let widest = page.map(TerminalText.width).max() ?? 0
        let perColumn = (page.count + 1) / 2
        guard widest * 2 + 4 <= columns else {
            // Too small for two: every key one after another, with its short word.
            let flow = WatchKeys.all.map { "\($0.keys): \($0.short ?? $0.action)" }.joined(separator: " · ")
            return Array(TerminalText.wrapped(flow, toWidth: columns).prefix(height))
        }
        return (0..<perColumn).map { row in
            let left = page[row]
            let right = row + perColumn < page.count ? page[row + perColumn] : ""
            return (left + String(repeating: " ", count: widest + 4 - TerminalText.width(left)) + right).trimmingTrailingSpaces()
        }
    }

    /// `todoctl watch · open #work · 2 shown · all: 14 open, 3 done · connected`, cut to the width.
    private func header(_ screen: WatchScreen) -> String {
        let list = screen.list
        let conditions = Self.conditions(of: list.filter)
        // The context first: cut last, as the filter is cut from its end.
        let filter = (screen.context.map { TerminalText.escaped($0) + " · " } ?? "") + list.filter.status.rawValue + (conditions.isEmpty ? "" : " " + conditions)
        // What the view shows, then the whole database's counts once known.
        var shown = "\(list.rows.count) shown"
        if list.filter.status == .all { shown += " (\(list.openCount) open, \(list.completedCount) done)" }
        let totals = screen.totals.current.map { " · all: \($0.open) open, \($0.done) done" } ?? ""
        let (connection, colour): (String, TextStyler.Style) =
            switch screen.connection {
            case .connecting: ("connecting…", .yellow)
            case .connected where screen.storeOutage != nil: ("store unreachable", .yellow)
            case .connected: ("connected", .green)
            case .disconnected(let seconds): ("daemon unreachable, retrying in \(seconds)s", .red)
            }
        // The state is never cut: the whole database's counts go first, then the filter is cut.
        let columns = screen.columns
        func fits(_ filter: String, _ counts: String) -> Bool {
            TerminalText.width("todoctl watch · \(filter) · \(counts) · \(connection)") <= columns
        }
        let counts = fits(filter, shown + totals) ? shown + totals : shown
        let room = columns - TerminalText.width("todoctl watch ·  · \(counts) · \(connection)")
        guard fits(filter, counts) || room >= 8 else {
            // Too narrow for the rest: the state first.
            return TerminalText.truncated(connection + " · todoctl watch · \(filter) · \(counts)", toWidth: columns)
        }
        let shownFilter = fits(filter, counts) ? filter : TerminalText.truncated(filter, toWidth: room)
        return styler.apply(.bold, to: "todoctl watch") + " · \(shownFilter) · \(counts) · " + styler.apply(colour, to: connection)
    }

    /// A filter's conditions as the header shows them: `#home -#admin project:work !high /milk due<2026-12-01`.
    static func conditions(of filter: TodoFilter) -> String {
        var parts = filter.tags.map { "#" + TerminalText.escaped($0) } + filter.notTags.map { "-#" + TerminalText.escaped($0) }
        if let project = filter.project { parts.append("project:" + TerminalText.escaped(project)) }
        if let priority = filter.priority { parts.append("!" + priority.rawValue) }
        if let search = filter.search { parts.append("/" + TerminalText.escaped(search)) }
        if let day = filter.dueOn { parts.append("due=\(day)") }
        // Before the day, or on it by a time: only --overdue and +OVERDUE ask so, at their minute.
        if let day = filter.dueBefore { parts.append(filter.dueByTime == nil ? "due<\(day)" : "overdue") }
        if let day = filter.dueAfter { parts.append("due>\(day)") }
        if filter.noDue { parts.append("no due") }
        if filter.waiting { parts.append("waiting") }
        if filter.active { parts.append("active") }
        if let blocked = filter.blocked { parts.append(blocked ? "blocked" : "not blocked") }
        if let blocking = filter.blocking { parts.append(blocking ? "blocking" : "not blocking") }
        if !filter.dependsOn.isEmpty { parts.append("depends:" + filter.dependsOn.map(String.init).joined(separator: ",")) }
        if filter.ready { parts.append("ready") }
        if filter.hasScheduled { parts.append("scheduled") }
        if let day = filter.scheduledBefore { parts.append("scheduled<\(day)") }
        if let day = filter.scheduledAfter { parts.append("scheduled>\(day)") }
        if filter.hasUntil { parts.append("until") }
        if let day = filter.untilBefore { parts.append("until<\(day)") }
        if let day = filter.untilAfter { parts.append("until>\(day)") }
        return parts.joined(separator: " ")
    }

    /// The selected old value in reverse video, with colours or without: NO_COLOR turns
    /// colours off, and reverse video is no colour. Without it nothing would show that
    /// typing replaces the value. Reverse rather than brackets: brackets would read as part
    /// of the text, and `watch` draws on a terminal that takes attributes anyway.
    private static func reversed(_ text: String) -> String {
        text.isEmpty ? text : "\u{1B}[7m\(text)\u{1B}[0m"
    }

    private func style(_ line: WatchStatusLine) -> String {
        switch line.kind {
        case .prompt:
            line.reversed.map { String(line.text[..<$0.lowerBound]) + Self.reversed(String(line.text[$0])) + String(line.text[$0.upperBound...]) } ?? line.text
        case .notice: line.text
        case .message: styler.apply(.red, to: line.text)
        case .outage: styler.apply(.yellow, to: line.text)
        case .help: styler.apply(.dim, to: line.text)
        }
    }
}
