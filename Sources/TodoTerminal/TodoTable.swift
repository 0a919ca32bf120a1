import TodoModel
import TodoViewModel

/// How a View styles text: ANSI colours on a terminal, plain text elsewhere.
public struct TextStyler: Sendable {
    public enum Style: String, Sendable {
        case bold = "1", dim = "2", reverse = "7", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    public let colours: Bool

    public init(colours: Bool) {
        self.colours = colours
    }

    public func apply(_ style: Style?, to text: String) -> String {
        guard colours, let style, !text.isEmpty else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}

/// Todos as table rows for people: number, done box, priority mark, title, due, tags.
/// `todoctl list` prints them; `todoctl watch` draws them. Titles and tags are escaped
/// (`TerminalText`) and measured in columns.
public struct TodoTable: Sendable {
    public let rows: [TodoViewModel]
    public let styler: TextStyler
    /// Column widths are measured over these rows (all of a list, not only those shown).
    public let titleWidth: Int
    public let numberWidth: Int
    public let dueWidth: Int

    /// - Parameter titleAllowance: columns beyond the widest title, for an indent and a
    ///   subtask progress (`render(_:styler:)`).
    public init(rows: [TodoViewModel], styler: TextStyler, maximumTitleWidth: Int = 60, titleAllowance: Int = 0) {
        self.rows = rows
        self.styler = styler
        numberWidth = rows.map(\.numberText.count).max() ?? 2
        // Columns on screen, not characters: a CJK character or an emoji takes two.
        let widest = (rows.lazy.map { TerminalText.width(TerminalText.escaped($0.title)) }.max() ?? 5) + titleAllowance
        titleWidth = min(max(widest, 5), max(maximumTitleWidth, 5))
        dueWidth = rows.compactMap { $0.dueText.map(TerminalText.width) }.max() ?? 0
    }

    public func render() -> [String] {
        rows.map { line($0) }
    }

    /// The rows of `outline`: subtasks indented under their parent, a parent with its
    /// progress (`[2/5]`), a parent shown only as context dimmed.
    ///
    /// With a `width` (the terminal's, known), titles take what the other columns leave of
    /// it, however long (`line(_:fittingWidth:)`); without one (a pipe), they stop at 60.
    public static func render(_ outline: TodoOutline, styler: TextStyler, width: Int? = nil) -> [String] {
        let nested = outline.entries.contains { $0.depth > 0 || $0.progress != nil }
        let table = TodoTable(rows: outline.entries.map(\.row), styler: styler, maximumTitleWidth: width ?? 60, titleAllowance: nested ? 10 : 0)
        return outline.entries.map { entry in
            let (prefix, suffix) = outlineParts(entry)
            return table.line(entry.row, titlePrefix: prefix, titleSuffix: suffix, dimmed: entry.isContext, fittingWidth: width ?? .max)
        }
    }

    /// What goes around an outline entry's title: its indent, and a parent's progress
    /// (`[2/5]`; `[2/5 ▸]` when `watch` folds its subtasks away).
    public static func outlineParts(_ entry: TodoOutline.Entry, folded: Bool = false) -> (prefix: String, suffix: String) {
        (String(repeating: "  ", count: entry.depth), entry.progress.map { " [\($0)\(folded ? " ▸" : "")]" } ?? "")
    }

    /// One row's line, columns padded to the table's widths; `titlePrefix` and
    /// `titleSuffix` (an indent, a progress) go around the escaped title. A row wider than
    /// `limit` columns gives up title first (down to a few columns), then its last tags,
    /// shown as `+N`: a tag is never cut in the middle.
    public func line(
        _ row: TodoViewModel, titlePrefix: String = "", titleSuffix: String = "", dimmed: Bool = false, fittingWidth limit: Int = .max
    ) -> String {
        let number = String(repeating: " ", count: max(0, numberWidth - row.numberText.count)) + row.numberText
        let mark = row.priorityMark.isEmpty ? " " : row.priorityMark
        let dueText = row.dueText ?? ""
        let due = dueText + String(repeating: " ", count: max(0, dueWidth - TerminalText.width(dueText)))
        var tags = row.todo.tags.map { TerminalText.escaped("#" + $0) }
        var hidden = 0
        func tagsText() -> String { (tags + (hidden > 0 ? ["+\(hidden)"] : [])).joined(separator: " ") }
        // Number, box and mark with their spaces before the title; due and tags after it.
        let lead = numberWidth + 7
        func tail() -> Int { 2 + dueWidth + TerminalText.width(tagsText()) }
        let shortestTitle = min(titleWidth, 10)
        while lead + shortestTitle + tail() > limit, !tags.isEmpty {
            tags.removeLast()
            hidden += 1
        }
        let titleColumns = max(1, min(titleWidth, limit == .max ? titleWidth : limit - lead - tail()))
        let title = TerminalText.fitted(titlePrefix + TerminalText.escaped(row.title) + titleSuffix, toWidth: titleColumns)
        let cells = [
            styler.apply(.dim, to: number),
            styler.apply(row.isCompleted ? .green : nil, to: row.doneBox),
            styler.apply(row.todo.priority == .high ? .red : .dim, to: mark),
            styler.apply(row.isCompleted || row.isDeleted || dimmed ? .dim : nil, to: title),
            styler.apply(row.isOverdue ? .red : .yellow, to: due),
            styler.apply(.cyan, to: tagsText()),
        ]
        return cells.joined(separator: " ").trimmingTrailingSpaces()
    }
}

extension String {
    public func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
