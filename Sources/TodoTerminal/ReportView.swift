import TodoViewModel

/// The reports `todoctl tags`, `projects` and `summary` print, as lines: tags and project
/// names escaped and measured in columns (`TerminalText`), the summary's bars fitted to
/// the terminal's width.
public enum ReportView {
    /// `outside  2`: each tag with its count of open todos, counts aligned; names cut with
    /// `…` where `width` columns leave them less (the counts always show).
    public static func tags(_ tallies: [TagTally], width: Int = .max, styler: TextStyler) -> [String] {
        let names = tallies.map { TerminalText.escaped("#" + $0.tag) }
        let countWidth = tallies.map { String($0.open).count }.max() ?? 0
        let nameWidth = max(1, min(names.map { TerminalText.width($0) }.max() ?? 0, width - 2 - countWidth))
        // Narrower than a column of name and the count: cut at the edge (`cut`).
        let cuts = nameWidth + 2 + countWidth > width
        return zip(names, tallies).map { name, tally in
            guard cuts else { return styler.apply(.cyan, to: TerminalText.fitted(name, toWidth: nameWidth)) + "  " + padded(String(tally.open), countWidth) }
            return cut(TerminalText.fitted(name, toWidth: nameWidth) + "  " + padded(String(tally.open), countWidth), width)
        }
    }

    /// Projects indented under their parent, with open and done counts and percent done.
    /// Within `width` columns names give way first (cut with `…`, down to 8 columns), then
    /// Done% and Done, then names again; Open shows down to a column of name beside it (7
    /// columns while counts have up to 4 digits), and under that each line is cut at the edge.
    /// A count column is as wide as its heading or its widest count.
    public static func projects(_ tallies: [ProjectTally], width: Int = .max, styler: TextStyler) -> [String] {
        let names = tallies.map(indentedName)
        let widest = max(names.map { TerminalText.width($0) }.max() ?? 0, "Project".count)
        let open = countWidth("Open", tallies.map(\.open)), done = countWidth("Done", tallies.map(\.done))
        let columns: [(header: String, value: (ProjectTally) -> String)] = [
            ("  " + padded("Open", open), { "  " + padded(String($0.open), open) }),
            ("  " + padded("Done", done), { "  " + padded(String($0.done), done) }),
            ("  Done%", { "  " + padded("\($0.percentDone)%", 5) }),
        ]
        func countsWidth(_ shown: Int) -> Int { columns.prefix(shown).map { $0.header.count }.reduce(0, +) }
        var shown = columns.count
        while shown > 1, min(widest, 8) + countsWidth(shown) > width { shown -= 1 }
        let counts = columns.prefix(shown)
        let nameWidth = max(1, min(widest, width - countsWidth(shown)))
        // Under 8 columns even Open and a column of name do not fit (COLUMNS=6 ran each line
        // past the edge; outside probe): each line is cut there, as the summary's are.
        let header = styler.apply(.bold, to: cut(TerminalText.fitted("Project", toWidth: nameWidth) + counts.map { $0.header }.joined(), width))
        return [header] + zip(names, tallies).map { name, tally in
            cut(TerminalText.fitted(name, toWidth: nameWidth) + counts.map { $0.value(tally) }.joined(), width)
        }
    }

    /// Per project, its open count and percent done, and a bar of the percent that fills
    /// what `width` columns leave. Names give way first (cut with `…`, down to 8
    /// columns), then the bar, then names (to 7), then Done%, then names again; Open shows down to a column of name beside it,
    /// and under that each line is cut at the edge (at 12 to 16 columns every name was `…`
    /// and the lines ran past it; outside probe).
    public static func summary(_ tallies: [ProjectTally], width: Int, styler: TextStyler) -> [String] {
        let names = tallies.map(indentedName)
        let widest = max(names.map { TerminalText.width($0) }.max() ?? 0, "Project".count)
        // The columns after the name; Done% goes where it leaves a name narrower than its heading.
        let open = countWidth("Open", tallies.map(\.open))
        let keepsDone = min(widest, "Project".count) + 2 + open + "  Done%".count <= width
        let counts = "  " + padded("Open", open) + (keepsDone ? "  Done%" : "")
        // The bar wants at least 10 columns beside the counts; names keep at least 8, or
        // what the counts leave of a narrower width (at 20 columns 8 ran the line past it).
        let nameWidth = max(1, min(max(8, min(widest, width - counts.count - 2 - 10)), width - counts.count))
        let barWidth = keepsDone ? max(0, width - nameWidth - counts.count - 2) : 0
        // Plain text cut at the edge, then styled: a cut never lands inside a colour.
        func fitted(_ line: String) -> String { cut(line, width) }
        let header = fitted(TerminalText.fitted("Project", toWidth: nameWidth) + counts)
        return [styler.apply(.bold, to: header)] + zip(names, tallies).map { name, tally in
            let line = fitted(
                TerminalText.fitted(name, toWidth: nameWidth) + "  " + padded(String(tally.open), open) + (keepsDone ? "  " + padded("\(tally.percentDone)%", 5) : ""))
            return barWidth > 0 ? line + "  " + bar(percent: tally.percentDone, width: barWidth, styler: styler) : line
        }
    }

    /// `line` (plain text) cut with `…` where it is wider than `width` columns.
    private static func cut(_ line: String, _ width: Int) -> String {
        TerminalText.width(line) > width ? TerminalText.truncated(line, toWidth: max(width, 1)) : line
    }

    /// `█████░░░░░`: the done part of `width` columns filled.
    public static func bar(percent: Int, width: Int, styler: TextStyler) -> String {
        let filled = min(width, max(0, percent * width / 100))
        return styler.apply(.green, to: String(repeating: "█", count: filled)) + styler.apply(.dim, to: String(repeating: "░", count: width - filled))
    }

    /// `  garden` for `home.garden`: two spaces a level, the last part of the name.
    private static func indentedName(_ tally: ProjectTally) -> String {
        String(repeating: "  ", count: tally.depth) + TerminalText.escaped(tally.leaf)
    }

    /// The columns a count column takes: its heading's, or its widest count's when wider
    /// (a fixed 4 let 12345 open todos push their line a column past the heading and the
    /// lines above; outside probe).
    private static func countWidth(_ header: String, _ counts: [Int]) -> Int {
        max(header.count, counts.map { String($0).count }.max() ?? 0)
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
