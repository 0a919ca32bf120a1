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

    /// `apply` as bytes: `padding` spaces and what `write` appends, styled unless empty.
    func write(_ style: Style?, padding: Int = 0, into bytes: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        guard colours, let style else {
            bytes.appendSpaces(padding)
            return write(&bytes)
        }
        let start = bytes.count
        bytes.append(contentsOf: "\u{1B}[\(style.rawValue)m".utf8)
        let text = bytes.count
        bytes.appendSpaces(padding)
        write(&bytes)
        if bytes.count == text {
            bytes.removeSubrange(start...)
        } else {
            bytes.append(contentsOf: "\u{1B}[0m".utf8)
        }
    }
}

/// Todos as table rows for people: number, done box, priority mark, title, project (when
/// a row has one), due, tags.
/// `todoctl list` prints them; `todoctl watch` draws them. Titles and tags are escaped
/// (`TerminalText`) and measured in columns.
public struct TodoTable: Sendable {
    public let rows: [TodoViewModel]
    public let styler: TextStyler
    /// Column widths are measured over these rows (all of a list, not only those shown).
    public let titleWidth: Int
    public let numberWidth: Int
    public let dueWidth: Int
    /// The widest project of the rows; 0 when none has one, and the column is left out.
    public let projectWidth: Int
    /// The widest tags of a row (`#home #errands`), in columns: a width too narrow for
    /// everything cuts every title to the same columns, so that due dates line up.
    public var tagsWidth: Int { rowTagsWidths.last ?? 0 }
    /// Each row's tags' columns, in increasing order (see `line`'s share for the tags).
    private let rowTagsWidths: [Int]
    /// The columns of the widest `+N` a row's tags may give way to (`+12`: 3); 0 without tags.
    private let countedTagsWidth: Int

    /// - Parameter titleAllowance: columns beyond the widest title, for an indent and a
    ///   subtask progress (`render(_:styler:)`).
    public init(rows: [TodoViewModel], styler: TextStyler, maximumTitleWidth: Int = 60, titleAllowance: Int = 0) {
        self.rows = rows
        self.styler = styler
        // Widths counted, not measured on texts made for it (a `#123` and a `#tag` String
        // a row, callgrind): `#` and the digits; a tag's `#` is one column and needs no escape.
        numberWidth = rows.lazy.map { 1 + Self.digits($0.number) }.max() ?? 2
        // Columns on screen, not characters: a CJK character or an emoji takes two.
        let widest = (rows.lazy.map { TerminalText.width(TerminalText.escaped($0.title)) }.max() ?? 5) + titleAllowance
        titleWidth = min(max(widest, 5), max(maximumTitleWidth, 5))
        dueWidth = rows.compactMap { $0.dueText.map(TerminalText.width) }.max() ?? 0
        projectWidth = rows.compactMap { $0.todo.project.map { TerminalText.width(TerminalText.escaped($0)) } }.max() ?? 0
        rowTagsWidths = rows.map { row in
            row.todo.tags.reduce(max(0, row.todo.tags.count - 1)) { $0 + 1 + TerminalText.width(TerminalText.escaped($1)) }
        }.sorted()
        countedTagsWidth = rows.lazy.map { $0.todo.tags.isEmpty ? 0 : 1 + Self.digits($0.todo.tags.count) }.max() ?? 0
    }

    /// The columns the tags keep beside titles cut to one width: the widest row's tags
    /// that fit in half of `shared` (what titles and tags share). Not simply the widest:
    /// one row's long tag then cut every title to 10 columns (outside probe); that row
    /// gives its tags up as `+N` instead, as any row does whose tags do not fit.
    func tagsShare(of shared: Int) -> Int {
        let half = max(shared / 2, 0)
        // The last width at most `half`, by a binary search of the sorted widths.
        var low = 0, high = rowTagsWidths.count
        while low < high {
            let middle = (low + high) / 2
            if rowTagsWidths[middle] <= half { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? rowTagsWidths[low - 1] : 0
    }

    /// The decimal digits of `number` (a minus sign counted as one).
    static func digits(_ number: Int) -> Int {
        var count = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    /// The rows' lines, each fitting `width` columns when one is given (`line(_:fittingWidth:)`).
    public func render(width: Int? = nil) -> [String] {
        rows.map { line($0, fittingWidth: width ?? .max) }
    }

    /// The rows of `outline`: subtasks indented under their parent, a parent with its
    /// progress (`[2/5]`), a parent shown only as context dimmed.
    ///
    /// With a `width` (the terminal's, known), titles take what the other columns leave of
    /// it, however long (`line(_:fittingWidth:)`); without one (a pipe), they stop at 60.
    public static func render(_ outline: TodoOutline, styler: TextStyler, width: Int? = nil) -> [String] {
        let table = TodoTable(outline, styler: styler, width: width)
        return outline.entries.map { entry in
            let (prefix, suffix) = outlineParts(entry)
            return table.line(entry.row, titlePrefix: prefix, titleSuffix: suffix, dimmed: entry.isContext, fittingWidth: width ?? .max)
        }
    }

    /// The table of `outline`'s rows: room beside the titles for an indent and a progress
    /// when it has subtasks.
    private init(_ outline: TodoOutline, styler: TextStyler, width: Int?) {
        let nested = outline.entries.contains { $0.depth > 0 || $0.progress != nil }
        self.init(rows: outline.entries.map(\.row), styler: styler, maximumTitleWidth: width ?? 60, titleAllowance: nested ? 10 : 0)
    }

    /// `render(_:styler:width:)`'s lines as one text, a newline between them: written into one
    /// buffer and made a String once. Each line made a String (its UTF-8 checked) and joined
    /// was a tenth of drawing a list of 10,000 (callgrind, `todoctl list`).
    public static func renderText(_ outline: TodoOutline, styler: TextStyler, width: Int? = nil) -> String {
        fittedText(outline, styler: styler, width: width).text
    }

    /// `renderText`'s text, and the columns `width` left out of it (the due dates, the
    /// projects, a row's tags without even `+N`): for the user to hear of, as `list
    /// --columns` says its own (at 30 to 56 columns the tags went without a word; outside probe).
    public static func fittedText(_ outline: TodoOutline, styler: TextStyler, width: Int? = nil) -> (text: String, leftOut: [TodoColumn]) {
        let table = TodoTable(outline, styler: styler, width: width)
        var text: [UInt8] = []
        // Reserved once: reserving a line's room at each line would copy the whole text each time.
        text.reserveCapacity(outline.entries.count * (table.numberWidth + table.titleWidth + table.projectWidth + table.dueWidth + table.tagsWidth + 64))
        for (index, entry) in outline.entries.enumerated() {
            if index > 0 { text.append(UInt8(ascii: "\n")) }
            let (prefix, suffix) = outlineParts(entry)
            table.write(entry.row, titlePrefix: prefix, titleSuffix: suffix, dimmed: entry.isContext, fittingWidth: width ?? .max, into: &text)
        }
        return (String(decoding: text, as: UTF8.self), width.map(table.leftOut) ?? [])
    }

    /// The columns of this table that `limit` columns leave out: the due dates or the
    /// projects where some row has one, the tags where some row's give way entirely.
    func leftOut(fitting limit: Int) -> [TodoColumn] {
        let room = layout(fitting: limit)
        var columns: [TodoColumn] = []
        if projectWidth > 0 && room.project == 0 { columns.append(.project) }
        if dueWidth > 0 && room.due == 0 { columns.append(.due) }
        // A row's tags go entirely where not even `+N` fits beside the fewest title columns (`write`).
        if countedTagsWidth > 0 && !countsFit(limit - numberWidth - 7 - 2 - (room.project == 0 ? 0 : room.project + 1) - room.due) {
            columns.append(.tags)
        }
        return columns
    }

    /// Whether the widest `+N` fits beside the fewest title columns in `shared` (what titles
    /// and tags share): if not, no row shows its `+N`, so that every title is cut alike.
    private func countsFit(_ shared: Int) -> Bool {
        shared - countedTagsWidth >= min(titleWidth, 5)
    }

    /// The columns the due date and the project take in rows `limit` columns wide (0: left
    /// out), alike in every row so that the columns line up. The due date keeps what the
    /// title's fewest columns leave; the project what the due date and the tags' `+N` leave,
    /// and at most a fifth of the width (8 columns at least): a long one took 36 of 56
    /// columns, and the tags went without a word (outside probe).
    private func layout(fitting limit: Int) -> (due: Int, project: Int) {
        guard limit != .max else { return (dueWidth, projectWidth) }
        let lead = numberWidth + 7
        let fewestTitleColumns = min(titleWidth, 5)
        let dueRoom = limit - lead - fewestTitleColumns - 2
        let due = dueRoom >= dueWidth ? dueWidth : dueRoom >= 5 ? dueRoom : 0
        let projectRoom = min(limit - lead - fewestTitleColumns - 2 - due - 1 - countedTagsWidth, max(8, limit / 5))
        let project = projectRoom >= projectWidth ? projectWidth : projectRoom >= 5 ? projectRoom : 0
        return (due, project)
    }

    /// A row's due date in `columns`: its words where they fit, else their short form
    /// (`13d`, `TodoViewModel.shortDueText`), which a cut would make misleading (`in 1…`).
    static func dueText(of row: TodoViewModel, fitting columns: Int) -> String {
        guard let text = row.dueText else { return "" }
        return TerminalText.width(text) <= columns ? text : row.shortDueText ?? text
    }

    /// What goes around an outline entry's title: its indent, and a parent's progress
    /// (`[2/5]`; `[2/5 ▸]` when `watch` folds its subtasks away).
    public static func outlineParts(_ entry: TodoOutline.Entry, folded: Bool = false) -> (prefix: String, suffix: String) {
        (String(repeating: "  ", count: entry.depth), entry.progress.map { " [\($0)\(folded ? " ▸" : "")]" } ?? "")
    }

    /// One row's line, columns padded to the table's widths; `titlePrefix` and
    /// `titleSuffix` (an indent, a progress) go around the escaped title. A table wider than
    /// `limit` columns gives up title first, every row's alike so that the due dates line
    /// up (down to 10 columns), then a row's last tags,
    /// shown as `+N`: a tag is never cut in the middle. Narrower still (below about 30
    /// columns), the due column narrows, alike in every row so that the columns stay
    /// aligned, a date that no longer fits in words shown short (`13d`), or goes when not
    /// even `today` would fit, then the `+N`; the title keeps
    /// a few columns, so that the line never runs past `limit`.
    public func line(
        _ row: TodoViewModel, titlePrefix: String = "", titleSuffix: String = "", dimmed: Bool = false, fittingWidth limit: Int = .max
    ) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(numberWidth + titleWidth + projectWidth + dueWidth + tagsWidth + 64)
        write(row, titlePrefix: titlePrefix, titleSuffix: titleSuffix, dimmed: dimmed, fittingWidth: limit, into: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// `line`'s bytes, appended to `line` (which may hold lines before it).
    func write(
        _ row: TodoViewModel, titlePrefix: String = "", titleSuffix: String = "", dimmed: Bool = false, fittingWidth limit: Int = .max,
        into line: inout [UInt8]
    ) {
        let numberColumns = 1 + Self.digits(row.number)
        let mark = row.priorityMark.isEmpty ? " " : row.priorityMark
        // Number, box and mark with their spaces before the title; due and tags after it.
        let lead = numberWidth + 7
        let shortestTitle = min(titleWidth, 10)
        let (dueColumns, projectColumns) = layout(fitting: limit)
        let due = TerminalText.fitting(Self.dueText(of: row, fitting: dueColumns), toWidth: dueColumns)
        let project = projectColumns == 0 ? nil : TerminalText.fitting(row.todo.project.map { TerminalText.escaped($0) } ?? "", toWidth: projectColumns)
        let projectTail = projectColumns == 0 ? 0 : projectColumns + 1
        var tags = row.todo.tags.map { TerminalText.escaped("#" + $0) }
        var hidden = 0
        var countsHidden = true
        func tagsText() -> String {
            // Appended, not joined: `list` draws every row, and this is called per row.
            var text = ""
            for tag in tags {
                if !text.isEmpty { text += " " }
                text += tag
            }
            if hidden > 0 && countsHidden { text += (text.isEmpty ? "+" : " +") + String(hidden) }
            return text
        }
        var tagsLine = tagsText()
        func tail() -> Int { 2 + projectTail + dueColumns + TerminalText.width(tagsLine) }
        // Every row's title the same columns, so that the due dates after it line up (rows
        // with fewer tags had wider titles: the due column wandered at 40 columns); a row
        // whose tags do not fit then gives them up, as below.
        let shared = limit - lead - 2 - projectTail - dueColumns
        // At least `shortestTitle`, but never so many that the widest `+N` has no room
        // beside it: a row with tags then cut its title 2 columns shorter than one without,
        // and the due column wandered again (outside probe 10, 40 columns).
        let countsShown = limit == .max || countsFit(shared)
        let titleRoom = countsShown ? shared - countedTagsWidth : shared
        let columnTitle = limit == .max ? titleWidth
            : max(1, min(max(min(titleWidth, shared - tagsShare(of: shared)), shortestTitle), titleRoom))
        // Without a width (a pipe), nothing is given up and nothing measured.
        if limit != .max {
            while lead + columnTitle + tail() > limit, !tags.isEmpty {
                tags.removeLast()
                hidden += 1
                tagsLine = tagsText()
            }
            if !countsShown {
                countsHidden = false
                tagsLine = tagsText()
            }
        }
        let titleColumns = max(1, min(columnTitle, limit == .max ? titleWidth : limit - lead - tail()))
        let escapedTitle = TerminalText.escaped(row.title)
        let title = TerminalText.fitting(
            titlePrefix.isEmpty && titleSuffix.isEmpty ? escapedTitle : titlePrefix + escapedTitle + titleSuffix, toWidth: titleColumns)
        // Written as bytes, padding included, and made a String once, its trailing spaces
        // dropped as bytes (a space is one byte, never part of another character): as
        // Strings, padded, styled and joined, a row's pieces were most of drawing it
        // (callgrind, `todoctl list` of 10,000).
        let start = line.count
        styler.write(.dim, padding: numberWidth - numberColumns, into: &line) { line in
            line.append(UInt8(ascii: "#"))
            line.append(contentsOf: String(row.number).utf8)
        }
        line.append(UInt8(ascii: " "))
        styler.write(row.isCompleted ? .green : nil, into: &line) { $0.append(contentsOf: row.doneBox.utf8) }
        line.append(UInt8(ascii: " "))
        styler.write(row.todo.priority == .high ? .red : .dim, into: &line) { $0.append(contentsOf: mark.utf8) }
        line.append(UInt8(ascii: " "))
        styler.write(row.isCompleted || row.isDeleted || dimmed ? .dim : nil, into: &line) { line in
            line.append(contentsOf: title.text.utf8)
            line.appendSpaces(title.padding)
        }
        line.append(UInt8(ascii: " "))
        if let project {
            styler.write(.bold, into: &line) { line in
                line.append(contentsOf: project.text.utf8)
                line.appendSpaces(project.padding)
            }
            line.append(UInt8(ascii: " "))
        }
        styler.write(row.isOverdue ? .red : .yellow, into: &line) { line in
            line.append(contentsOf: due.text.utf8)
            line.appendSpaces(due.padding)
        }
        line.append(UInt8(ascii: " "))
        styler.write(.cyan, into: &line) { $0.append(contentsOf: tagsLine.utf8) }
        while line.count > start, line.last == UInt8(ascii: " ") { line.removeLast() }
        // Narrower than the number, box and mark and a column of title (COLUMNS=5): the row
        // is cut at the edge, as watch cuts its lines (it ran past it; outside probe). Only
        // there: measuring every row of a long list would cost.
        if limit < lead + 3 {
            let row = String(decoding: line[start...], as: UTF8.self)
            line.replaceSubrange(start..., with: TerminalText.clipped(styled: row, toWidth: max(limit, 1)).utf8)
        }
    }
}

extension String {
    /// The text without the spaces it ends with. Read as bytes: a space is one byte and
    /// its own grapheme (it extends none before it), and walking back by Character asked
    /// for grapheme breaks at every step (an eighth of a `list` row's drawing, callgrind).
    public func trimmingTrailingSpaces() -> String {
        let bytes = utf8
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let before = bytes.index(before: end)
            guard bytes[before] == UInt8(ascii: " ") else { break }
            end = before
        }
        return end == bytes.endIndex ? self : String(self[..<end])
    }
}

extension [UInt8] {
    /// `count` spaces (none when `count` is 0 or less), copied from a run of them: appended
    /// from `repeatElement`, a row's padding went through the generic append a byte at a
    /// time, 850 instructions a row of `todoctl list` (callgrind).
    mutating func appendSpaces(_ count: Int) {
        var left = count
        while left > 0 {
            let run = Swift.min(left, spaceRun.count)
            append(contentsOf: spaceRun[..<run])
            left -= run
        }
    }
}

private let spaceRun = [UInt8](repeating: UInt8(ascii: " "), count: 128)
