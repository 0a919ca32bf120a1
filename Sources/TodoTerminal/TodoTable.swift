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

    public init(rows: [TodoViewModel], styler: TextStyler, maximumTitleWidth: Int = 60) {
        self.rows = rows
        self.styler = styler
        numberWidth = rows.map(\.numberText.count).max() ?? 2
        // Columns on screen, not characters: a CJK character or an emoji takes two.
        let widest = rows.lazy.map { TerminalText.width(TerminalText.escaped($0.title)) }.max() ?? 5
        titleWidth = min(max(widest, 5), max(maximumTitleWidth, 5))
        dueWidth = rows.compactMap(\.dueText?.count).max() ?? 0
    }

    public func render() -> [String] {
        rows.map(line)
    }

    /// One row's line, columns padded to the table's widths.
    public func line(_ row: TodoViewModel) -> String {
        let number = String(repeating: " ", count: max(0, numberWidth - row.numberText.count)) + row.numberText
        let mark = row.priorityMark.isEmpty ? " " : row.priorityMark
        let title = TerminalText.fitted(TerminalText.escaped(row.title), toWidth: titleWidth)
        let due = (row.dueText ?? "") + String(repeating: " ", count: max(0, dueWidth - (row.dueText?.count ?? 0)))
        let cells = [
            styler.apply(.dim, to: number),
            styler.apply(row.isCompleted ? .green : nil, to: row.doneBox),
            styler.apply(row.todo.priority == .high ? .red : .dim, to: mark),
            styler.apply(row.isCompleted || row.isDeleted ? .dim : nil, to: title),
            styler.apply(row.isOverdue ? .red : .yellow, to: due),
            styler.apply(.cyan, to: TerminalText.escaped(row.tagsLine)),
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
