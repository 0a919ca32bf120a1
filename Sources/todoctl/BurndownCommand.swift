import ArgumentParser
import TodoClock
import TodoModel
import TodoTerminal
import TodoViewModel

struct BurndownCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burndown", abstract: "Open todos against done ones, a bar a day (or week), from the journal.",
        discussion: """
            Each day's bar stacks the todos open at its end (█) and those done during it (▓), \
            scaled to the longest and drawn across the terminal's width ($COLUMNS, else the \
            terminal's, else 80); an axis with its scale under the bars, today marked ▶. \
            --weekly draws a bar per ISO week (Monday first; the current week's open count is \
            today's). The days run from --since to today; without it, the last 14 days (12 \
            weeks with --weekly), from the journal's first change if it is later. The filters \
            (+tag, project:NAME, -t …) count only the todos that meet them. --json prints, per \
            day (or week, dated by its Monday), date, open, done and added, for scripts.
            """)

    @OptionGroup(title: "Filter") var filter: FilterOptions
    @Flag(help: "A bar per week (Monday to Sunday) instead of per day.") var weekly = false
    // Unconditional: `--since -2w` starts with a dash. Read as log's and undo's --since are.
    @Option(parsing: .unconditional, help: ArgumentHelp("The first day drawn, the day of: \(WhenArgument.accepted).", valueName: "when"),
        transform: WhenArgument.checked)
    var since: WhenArgument?
    @OptionGroup var connection: ConnectionOptions
    @Flag(name: .shortAndLong, help: "Print each day's (or week's) date, open, done and added as JSON.") var json = false

    func validate() throws {
        try filter.refuseRefs()
        if let since, LocalDate(since.date) > WallClock.today() {
            throw ValidationError("--since \(LocalDate(since.date)) is after today: give a day up to today (2w, 2026-11-01 …)")
        }
    }

    func run() async throws {
        let today = WallClock.today()
        let counted = filter.filter(status: .all)
        var burndown = Burndown(filter: counted)
        try Session.run(connection) { client in
            try JournalPages.read(client) { burndown.add($0) }
        }
        // Without --since: the last 14 days or 12 weeks, but nothing before the journal began.
        var first = since.map { LocalDate($0.date) } ?? max(today.adding(days: weekly ? -7 * 11 : -13), burndown.firstDay ?? today)
        if weekly { first = Burndown.monday(of: first) }
        let periods = burndown.periods(from: first, to: today, weekly: weekly)
        if json { return try Terminal.printJSON(periods) }
        let view = BurndownView(periods: periods, weekly: weekly, today: today, scope: Self.scope(of: counted))
        Terminal.print(view.lines(width: Terminal.width, styler: Terminal.styler).joined(separator: "\n"))
    }

    /// The tags and projects counted, as the view names them (`#home -#later project:work`);
    /// nil when every todo is, or when only other conditions (a due date, a text) narrow it.
    static func scope(of filter: TodoFilter) -> String? {
        func word(_ tag: String) -> String { tag.hasPrefix(TodoFilter.projectTagPrefix) ? tag : "#" + tag }
        let words = filter.tags.map(word) + filter.notTags.map { "-" + word($0) }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
