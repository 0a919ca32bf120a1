import TodoViewModel

extension TodoTable {
    /// The rows of `outline` in the columns chosen (`todoctl list --columns`), under a
    /// heading: each column as wide as its widest cell (titles at most 60 columns, cut
    /// with `…`), numbers aligned right, two spaces between columns. Subtasks are indented
    /// in the title column, a parent carries its progress, as in the default table. With a
    /// `width` (the terminal's), no line runs past it: the title column gives up columns
    /// first (down to 5), then the project's (down to 8), then the last columns are cut, or
    /// left out when under 3 columns, the title last of all (cut to what the others leave).
    /// A due date too wide for its column is shown short (`13d`).
    /// Tags are cut between tags, the rest counted as `+N`, never in the middle of one.
    public static func render(_ outline: TodoOutline, columns: [TodoColumn], styler: TextStyler, width: Int? = nil) -> [String] {
        fitted(outline, columns: columns, styler: styler, width: width).lines
    }

    /// `render`'s lines, and the columns `width` left out: for the user to hear of, as the
    /// table cannot say it (at 40 columns project went without a word; outside probe).
    /// `cut` are the columns shown narrower than their widest cell (a project cut with `…`,
    /// a due date shown short, tags as `+N`), the title aside, which gives way by design.
    public static func fitted(
        _ outline: TodoOutline, columns: [TodoColumn], styler: TextStyler, width: Int? = nil
    ) -> (lines: [String], leftOut: [TodoColumn], cut: [TodoColumn]) {
        let cells = outline.entries.map { entry in
            columns.map { column in
                switch column {
                case .title:
                    let (prefix, suffix) = outlineParts(entry)
                    return TerminalText.truncated(prefix + TerminalText.escaped(entry.row.title) + suffix, toWidth: 60)
                case .tags, .project: return TerminalText.escaped(column.text(for: entry.row))
                default: return column.text(for: entry.row)
                }
            }
        }
        var widths = columns.indices.map { index in
            max(TerminalText.width(columns[index].heading), cells.map { TerminalText.width($0[index]) }.max() ?? 0)
        }
        let whole = widths
        // A due date that no longer fits in words is shown short (`13d`), not cut (`in 1…`).
        let shortDue = columns.contains(.due) ? outline.entries.map(\.row.shortDueText) : nil
        var shown = Array(columns.indices)
        if let width {
            func total() -> Int { shown.reduce(2 * (shown.count - 1)) { $0 + widths[$1] } }
            let title = columns.firstIndex(of: .title)
            let titleWidth = title.map { widths[$0] } ?? 0
            if let title, total() > width {
                widths[title] = max(min(5, widths[title]), widths[title] - (total() - width))
            }
            // Then a project's name, cut with … down to 8 columns, as the default table cuts
            // it: kept whole, a.very.long.project.name left title and due out at 40 columns
            // (outside probe).
            if let project = columns.firstIndex(of: .project), total() > width {
                widths[project] = max(min(8, widths[project]), widths[project] - (total() - width))
            }
            // Then the last column is cut, or left out when under 3 columns, but never the
            // title while another can go: without it the rows could not be told apart, and
            // `--columns number,project,title` at 16 columns kept the project alone (outside
            // probe 10). A column before the title is left out whole, the title, last, cut
            // to what is left.
            while total() > width {
                let over = total() - width
                guard let last = shown.last(where: { $0 != title }), shown.count > 1 else {
                    widths[shown[0]] = max(1, widths[shown[0]] - over)
                    break
                }
                // A due date keeps 5 columns, for `today` and its short forms, or goes.
                if last == shown.last, widths[last] - over >= (columns[last] == .due ? min(5, widths[last]) : 3) {
                    widths[last] -= over
                } else {
                    shown.removeAll { $0 == last }
                }
            }
            // Columns left out give their room back to the title they were cut for.
            if let title, shown.contains(title) { widths[title] = min(titleWidth, widths[title] + max(0, width - total())) }
        }
        func line(_ texts: [String], styles: [TextStyler.Style?], isHeading: Bool = false, shortDue: String? = nil) -> String {
            shown.map { index in
                let text = columns[index] == .tags && !isHeading ? wholeTags(texts[index], toWidth: widths[index])
                    : TerminalText.truncated(
                        columns[index] == .due && TerminalText.width(texts[index]) > widths[index] ? shortDue ?? texts[index] : texts[index],
                        toWidth: widths[index])
                let pad = String(repeating: " ", count: max(0, widths[index] - TerminalText.width(text)))
                return styler.apply(styles[index], to: columns[index] == .number ? pad + text : text + pad)
            }
            .joined(separator: "  ").trimmingTrailingSpaces()
        }
        let heading = line(columns.map(\.heading), styles: columns.map { _ in .bold }, isHeading: true)
        let rows = zip(outline.entries, cells).enumerated().map { index, row in
            line(row.1, styles: columns.map { style(of: $0, for: row.0.row, dimmed: row.0.isContext) }, shortDue: shortDue?[index])
        }
        let cut = shown.filter { columns[$0] != .title && widths[$0] < whole[$0] }.map { columns[$0] }
        return ([heading] + rows, columns.indices.filter { !shown.contains($0) }.map { columns[$0] }, cut)
    }

    /// `#home #work #errands` in `width` columns, whole tags only: those that fit, then `+N`
    /// for the rest, as the default table gives them up; empty where not even `+N` fits.
    static func wholeTags(_ text: String, toWidth width: Int) -> String {
        guard TerminalText.width(text) > width else { return text }
        var tags = text.split(separator: " ").map(String.init)
        let count = tags.count
        while !tags.isEmpty {
            tags.removeLast()
            let shown = (tags + ["+\(count - tags.count)"]).joined(separator: " ")
            if TerminalText.width(shown) <= width { return shown }
        }
        return ""
    }

    /// A cell's style, as the default table colours the same text.
    private static func style(of column: TodoColumn, for row: TodoViewModel, dimmed: Bool) -> TextStyler.Style? {
        switch column {
        case .number, .id, .created, .updated: .dim
        case .done: row.isCompleted ? .green : nil
        case .priority: row.todo.priority == .high ? .red : .dim
        case .title: row.isCompleted || row.isDeleted || dimmed ? .dim : nil
        case .due: row.isOverdue ? .red : .yellow
        case .tags, .project: .cyan
        case .state: row.isCompleted ? .green : row.isDeleted ? .dim : nil
        case .wait: .yellow
        }
    }
}
