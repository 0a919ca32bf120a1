import ArgumentParser
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List todos: open ones unless told otherwise.",
        discussion: """
            --sort orders the list by keys, each ascending or, with - before it, descending: \
            --sort due,-priority puts the earliest due first and, on the same day, high priority \
            first. Ties go by number. A todo without a due date or a project comes after those \
            with one, in either direction. Subtasks stay under their parent: the parents are \
            sorted, and each parent's subtasks under it by the same keys. --limit N shows the \
            first N todos and says how many more there are (with --json, only the first N). \
            --columns number,project,title,due shows those columns, in that order, under a \
            heading; --json ignores it (it prints every field), and a column named twice is \
            refused. Rows fit the terminal's width ($COLUMNS, else the terminal's; at most 500): \
            titles take what the other columns leave, cut with …; with --columns, the last \
            columns are then cut (tags between tags, the rest counted as +N), or left out when \
            under 3 columns, the title last of all (the columns before it go whole, and it is cut \
            to what they leave). Without --columns, titles give way down to 10 columns, then a row's \
            last tags (counted as +N), the projects (which take at most a fifth of the width), \
            the due dates. A due date that no longer fits in words is shown short: today, 13d (in \
            13 days), -3d (3 days overdue). A column left out, with --columns or without, is named by a line on \
            stderr, with the --columns that fits: fewer columns, each but the title shown whole (no project \
            cut with …, no short due date, no +N); under about 12 columns each row is cut at the edge. Piped without COLUMNS, \
            titles stop at 60 columns. An applied context (todoctl context) narrows the list too, and the \
            first line names it (not with --json).
            """,
        aliases: ["ls"])

    enum Status: String, EnumerableFlag {
        case open, all, completed, deleted

        static func help(for value: Status) -> ArgumentHelp? {
            switch value {
            case .open: "Open todos (the default)."
            case .all: "Open and completed todos."
            case .completed: "Completed todos."
            case .deleted: "Deleted todos (restore them with `todoctl restore`)."
            }
        }

        static func name(for value: Status) -> NameSpecification {
            value == .all ? [.customShort("a"), .long] : .long
        }
    }

    // A list of them, so that two (`-a --deleted`) are refused in `validate` with words for
    // it: as one exclusive flag ArgumentParser said "Value to be set with flag … had already been set".
    @Flag var statuses: [Status] = []
    var status: Status { statuses.last ?? .open }
    @OptionGroup(title: "Filter") var filter: FilterOptions
    @Flag(help: "Only todos waiting for a later day or a later time today (--wait), which the other lists leave out; without --columns, a Wait column says when each comes back (tomorrow 08:00, in 3 h, 2026-12-24).") var waiting = false
    // Unconditional: the keys may start with a dash (`--sort -due`), which would read as an option.
    // Kept as given, each time, so that a second --sort or --limit is refused: the last
    // silently won, where add and edit refuse a field given twice (outside probe 10).
    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Sort by these keys, comma-separated, - before one for descending: \(TodoSort.keyList).", valueName: "keys"))
    var sorts: [String] = []
    // Unconditional: `--limit -1` said "Missing value"; now it says what --limit takes.
    @Option(name: .customLong("limit"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Show only the first N todos.", valueName: "N"))
    var limits: [Int] = []
    var sort: String? { sorts.last }
    var limit: Int? { limits.last }
    @Option(help: ArgumentHelp("Show these columns, comma-separated, in this order: \(TodoColumn.nameList). --json ignores it.", valueName: "columns"))
    var columns: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if Set(statuses).count > 1 {
            throw ValidationError("""
                \(statuses.map { $0 == .all ? "--all" : "--\($0.rawValue)" }.joined(separator: " and ")) are different lists: give one \
                (--all is the open and the completed todos; --deleted, only the deleted ones)
                """)
        }
        try filter.refuseRefs()
        if sorts.count > 1 {
            throw ValidationError("--sort is given \(sorts.count) times (\(sorts.joined(separator: "; "))): give it once, its keys comma-separated (--sort \(sorts.joined(separator: ",")))")
        }
        if limits.count > 1 {
            throw ValidationError("--limit is given \(limits.count) times (\(limits.map(String.init).joined(separator: ", "))): give it once")
        }
        if let sort {
            do { _ = try TodoSort(sort) } catch { throw ValidationError(error.description) }
        }
        if let columns {
            do { _ = try TodoColumn.parse(columns) } catch { throw ValidationError(error.description) }
        }
        if let limit, limit < 1 { throw ValidationError("--limit \(limit): give 1 or more todos to show") }
    }

    func run() async throws {
        var filter = filter.filter(status: TodoFilter.Status(rawValue: status.rawValue) ?? .open)
        filter.waiting = filter.waiting || waiting
        let order = try sort.map { try TodoSort($0) }
        let chosen = try columns.map { try TodoColumn.parse($0) }
        try Self.list(filter, status: status, socketPath: connection.socketPath, json: output.json, order: order, limit: limit, columns: chosen)
    }

    /// The todos `filter` lists, blocked ones marked; when this machine's copy was never filled
    /// from its store, says so on stderr (`next` reads them so too), whether or not the list is
    /// empty: a todo added here offline made it non-empty, and the note went (outside probe 11, F13).
    static func read(_ filter: TodoFilter, socketPath: String) throws -> TodoViewModelList {
        let (list, unfilled) = try Session.run(socketPath: socketPath) { client in
            (try BlockedRows.marked(try client.list(filter), client), SharedStoreStatus.unfilledNote(asking: client))
        }
        if let unfilled { Terminal.error(unfilled) }
        return list
    }

    static func list(
        _ filter: TodoFilter, status: Status, socketPath: String, json: Bool, order: TodoSort? = nil, limit: Int? = nil,
        columns: [TodoColumn]? = nil
    ) throws {
        // Here, not in run(): the quick `todoctl list` (QuickCommand) applies it too.
        let context = try AppliedContext.current()
        let filter = try context?.narrowing(filter) ?? filter
        // Rows, not whole todos, unless what is printed needs what a row leaves out (every
        // field for --json; the id and updated columns, the updated sort): a row is a third
        // of a todo's bytes, and reading whole todos was most of the CPU of a long list.
        var asked = filter
        asked.rows = !json && !(columns ?? []).contains { $0 == .id || $0 == .updated } && !(order?.terms.contains { $0.key == .updated } ?? false)
        LargeAnswerHeap.prepare()
        let list = try read(asked, socketPath: socketPath)
        if let context, !json { Terminal.print(Terminal.styled(Self.fitted(context.label), .dim)) }
        if list.todos.isEmpty, !json {
            return Terminal.print("no \(status == .all ? "" : status.rawValue + " ")\(filter.waiting ? "waiting " : "")todos")
        }
        // The waiting todos with when each comes back, which the default table has no column for.
        let columns = columns ?? (filter.waiting ? Self.waitingColumns(list.todos) : nil)
        var outline = TodoOutline(list, order: order)
        var more = 0
        if let limit { (outline, more) = outline.limited(to: limit) }
        // The table's todos in the table's order, subtasks under their parent: sorted apart,
        // --limit 2 --json gave a subtask where the table showed its parent. A parent shown
        // only as context is no listed todo, and stays out as before.
        if json { return try Terminal.printJSON(outline.entries.filter { !$0.isContext }.map { JSONRow(row: $0.row) }) }
        // One write for the whole table: a flush per line cost 10,000 system calls for 10,000 todos.
        let (table, leftOut) = columns.map { TodoTable.fitted(outline, columns: $0, styler: Terminal.styler, width: Terminal.knownWidth) }
            .map { ($0.lines.joined(separator: "\n"), $0.leftOut) }
            ?? TodoTable.fittedText(outline, styler: Terminal.styler, width: Terminal.knownWidth)
        Terminal.print(table + (more > 0 ? "\n" + Terminal.styled(Self.fitted("… and \(more) more"), .dim) : ""))
        KeptUntilExit.keep(list, outline, table)
        // Said, not just done, by the default table as by --columns: at 40 columns the
        // project column went without a word, and the tags too without --columns (outside probe).
        if let width = Terminal.knownWidth, !leftOut.isEmpty {
            let fewer = Self.fewer(outline, chosen: columns, leftOut: leftOut, width: width)
            Terminal.error("""
                \(Self.listed(leftOut.map(\.rawValue))) did not fit in \(width) columns and \(leftOut.count == 1 ? "was" : "were") left out: \
                widen the terminal (or COLUMNS), or choose fewer columns: --columns \(fewer.map(\.rawValue).joined(separator: ","))
                """)
        }
    }

    /// The `--columns` to suggest when `leftOut` did not fit in `width`: those chosen that
    /// fit, or by default number and title with those left out; then, one at a time from
    /// the last, less each that `width` still leaves out or cuts, until all but the title
    /// fit whole. The default's suggestion named the very columns that did not fit, and
    /// more than were shown; then, at 16 columns, a project that fitted only cut to `home.re…`
    /// (outside probe 10).
    private static func fewer(_ outline: TodoOutline, chosen: [TodoColumn]?, leftOut: [TodoColumn], width: Int) -> [TodoColumn] {
        var fewer = chosen.map { $0.filter { !leftOut.contains($0) } } ?? [.number, .title] + leftOut
        while fewer.count > 1 {
            let fitted = TodoTable.fitted(outline, columns: fewer, styler: Terminal.styler, width: width)
            guard let last = fewer.last(where: { fitted.leftOut.contains($0) || fitted.cut.contains($0) }) else { break }
            fewer.removeAll { $0 == last }
        }
        return fewer
    }

    /// The columns of `list --waiting` without --columns: the default table's that some row
    /// fills, and the wait after the due date (it had no day or time of waiting at all: outside probe 12).
    private static func waitingColumns(_ rows: [TodoViewModel]) -> [TodoColumn] {
        let filled: (TodoColumn) -> Bool = { column in rows.contains { !column.text(for: $0).isEmpty } }
        return [.number, .priority, .title, .project, .due, .wait, .tags].filter { [.number, .title, .wait].contains($0) || filled($0) }
    }

        /// `line` cut at the terminal's edge, as the rows are (COLUMNS=5 ran lines past it; outside probe).
    private static func fitted(_ line: String) -> String {
        Terminal.knownWidth.map { TerminalText.truncated(line, toWidth: $0) } ?? line
    }

    /// `due`, `due and tags`, `project, due and tags`.
    private static func listed(_ names: [String]) -> String {
        names.count < 3 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
