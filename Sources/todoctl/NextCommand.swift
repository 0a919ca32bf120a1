import ArgumentParser
import TodoClock
import TodoModel
import TodoTerminal
import TodoViewModel

struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "What to do now: overdue, due soon and high-priority todos, most pressing first.",
        discussion: """
            Shows the open todos that are overdue, due within \(NextOrder.soonDays) days, of high \
            priority, or scheduled for today or before (scheduled:DATE). Each gets points: for its due date 10 for today plus 1 for each day \
            overdue (at most 7 more), and 9 less the days until it in the week ahead (tomorrow 8, \
            in 7 days 2); for its priority high 6, normal 2, low 0; 5 once its scheduled day has come. Most points first; on a tie, \
            the earlier due date and time (one due today at 10:00 before one due today at 17:00, and both \
            before one due today without a time: by the day's end), then the lower number. A blocked todo (waiting for an open one: \
            depends:N) comes after every todo that is not. So a todo two days overdue (14) comes \
            before a high-priority one with no date (6), and a high one due tomorrow (14) before \
            a normal one due today (12). The filter options of `list` narrow it further. Rows \
            fit the terminal's width as `list`'s do ($COLUMNS, else the terminal's); piped \
            without COLUMNS, titles stop at 60 columns. An applied context (todoctl context) \
            narrows it too, and the first line names it (not with --json).
            """,
        aliases: ["today"])

    @OptionGroup(title: "Filter") var filter: FilterOptions
    // As list's: `next --limit 1` was read as a filter word and refused as naming todo #1.
    @Option(parsing: .unconditional, help: ArgumentHelp("Show only the first N todos, the most pressing.", valueName: "N")) var limit: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        try filter.refuseRefs()
        if let limit, limit < 1 { throw ValidationError("--limit \(limit): give 1 or more todos to show") }
    }

    func run() async throws {
        try Self.next(filter.filter(status: .open), socketPath: connection.socketPath, json: output.json, limit: limit)
    }

    static func next(_ filter: TodoFilter, socketPath: String, json: Bool, limit: Int? = nil) throws {
        let today = WallClock.today()
        // Here, not in run(): the quick `todoctl next` (QuickCommand) applies it too.
        let context = try AppliedContext.current()
        var filter = try context?.narrowing(filter) ?? filter
        // The daemon sends only what is pressing on the user's day, not the whole list.
        filter.pressingOn = today
        // Rows, as list's table reads them (`ListCommand.list`); --json prints every field.
        filter.rows = !json
        let list = try ListCommand.read(filter, socketPath: socketPath)
        let ordered = NextOrder.ordered(list.todos, today: today)
        let rows = Array(ordered.prefix(limit ?? .max))
        if json { return try Terminal.printJSON(rows.map(JSONRow.init)) }
        if let context { Terminal.print(Terminal.styled(context.label, .dim)) }
        if rows.isEmpty { return Terminal.print("nothing due within \(NextOrder.soonDays) days, overdue or of high priority") }
        let more = ordered.count - rows.count
        // As list's rows: titles take what the terminal's width leaves (COLUMNS=30 printed 71 columns).
        let width = Terminal.knownWidth
        let table = TodoTable(rows: rows, styler: Terminal.styler, maximumTitleWidth: width ?? 60).render(width: width)
        let lines = table + (more > 0 ? [Terminal.styled("… and \(more) more", .dim)] : [])
        Terminal.print(lines.joined(separator: "\n"))
    }
}
