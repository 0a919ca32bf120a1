import TodoModel
import TodoViewModel

/// Draws a `WatchScreen` as exactly `rows` lines, and tells which lines differ from the
/// last frame, so that only those are written to the terminal.
public struct WatchRenderer: Sendable {
    public let styler: TextStyler

    public init(styler: TextStyler) {
        self.styler = styler
    }

    /// The screen's lines, top to bottom: header, visible rows, blank filler, status line.
    public func render(_ screen: WatchScreen) -> [String] {
        let rows = screen.list.rows
        let table = TodoTable(rows: rows, styler: styler, maximumTitleWidth: screen.columns - 36)
        var lines = [header(screen)]
        let visible = rows.indices.dropFirst(screen.scrollOffset).prefix(screen.visibleRows)
        for index in visible {
            let selected = index == screen.selectedIndex
            let line = (selected ? "> " : "  ") + table.line(rows[index])
            lines.append(selected ? styler.apply(.bold, to: line) : line)
        }
        if rows.isEmpty { lines.append(styler.apply(.dim, to: "  no \(screen.list.filter.status == .all ? "" : screen.list.filter.status.rawValue + " ")todos: press a to add one")) }
        while lines.count < screen.rows - 1 { lines.append("") }
        lines.append(statusLine(screen))
        return lines
    }

    /// The indices of the lines that differ between two frames (all of them when the
    /// frames differ in length, as after a resize).
    public static func changedLines(from old: [String], to new: [String]) -> [Int] {
        guard old.count == new.count else { return Array(new.indices) }
        return new.indices.filter { old[$0] != new[$0] }
    }

    private func header(_ screen: WatchScreen) -> String {
        let list = screen.list
        let connection: String
        switch screen.connection {
        case .connecting: connection = styler.apply(.yellow, to: "connecting…")
        case .connected: connection = styler.apply(.green, to: "connected")
        case .disconnected(let seconds): connection = styler.apply(.red, to: "daemon unreachable, retrying in \(seconds)s")
        }
        var filter = list.filter.status.rawValue
        if let tag = list.filter.tag { filter += " #" + TerminalText.escaped(tag) }
        // The whole database's counts once known; until then, those of the rows shown.
        let (open, done) = screen.totals.current.map { ($0.open, $0.done) } ?? (list.openCount, list.completedCount)
        let counts = "\(open) open, \(done) done"
        return styler.apply(.bold, to: "todoctl watch") + " · \(filter) · \(counts) · " + connection
    }

    private func statusLine(_ screen: WatchScreen) -> String {
        switch screen.mode {
        case .adding(let text): return "add: \(TerminalText.escaped(text))▏" + errorSuffix(screen)
        case .editingTitle(_, _, let text): return "title: \(TerminalText.escaped(text))▏" + errorSuffix(screen)
        case .browsing:
            if let message = screen.message { return styler.apply(.red, to: TerminalText.escaped(message)) }
            return styler.apply(.dim, to: "↑↓ move  x done  a add  e edit  p priority  d delete  u restore  f filter  q quit")
        }
    }

    private func errorSuffix(_ screen: WatchScreen) -> String {
        screen.message.map { "  " + styler.apply(.red, to: TerminalText.escaped($0)) } ?? ""
    }
}
