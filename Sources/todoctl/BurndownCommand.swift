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
            terminal's, else 80; at most 500); an axis with its scale under the bars, today marked ▶. \
            --weekly draws a bar per ISO week (Monday first; the current week's open count is \
            today's). The days run from --since to today; without it, the last 14 days (12 \
            weeks with --weekly); never before the journal's first change (a --since before it \
            starts there, and says so on stderr). Days not all of this year are labelled with \
            their year. The filters (+tag, project:NAME, +OVERDUE, -t …) count only the todos that meet \
            them, and head the chart as typed (only +home). --json prints, per day (or week, dated by its Monday), date, open, done and \
            added, for scripts. Under about 32 columns the labels lose their weekday (30 Nov, \
            Wk 49) and the numbers stand as open/done (5/2); narrower still they are left out, \
            the axis keeping the scale; under about 20 columns it says how many it needs and \
            exits 64. --since takes a duration in d, w, m or mo (months) and y: 1m is a month \
            back, not a minute as in log and undo.

            Each day is counted from the changes made that day alone, each todo as it was when \
            the day began against how it is at its end, so a past day never changes, except that \
            `todoctl purge` takes the todos it removes out of every day (their history goes \
            with them, for good): open, the \
            todos neither done nor deleted at the day's end; done, the todos done at its end \
            that were not done when it began (done, reopened and done again counts once; done \
            and then reopened, or undone, not at all; an undo on a later day counts on that \
            day); added, the todos created that day, or whose creation an undo took back and \
            a redo put back that day, still in effect at its end. Days are local days (TZ).
            """)

    @OptionGroup(title: "Filter") var filter: FilterOptions
    @Flag(help: "A bar per week (Monday to Sunday) instead of per day.") var weekly = false
    // Unconditional: `--since -2w` starts with a dash. Read as log's and undo's --since are,
    // but for `m`: here, by day and week, `1m` is a month (it was a minute: today alone).
    @Option(parsing: .unconditional, help: ArgumentHelp("The first day drawn, the day of: \(WhenArgument.accepted(.days)).", valueName: "when"),
        transform: WhenArgument.checkedDays)
    var since: WhenArgument?
    @OptionGroup var connection: ConnectionOptions
    @Flag(name: .shortAndLong, help: "Print each day's (or week's) date, open, done and added as JSON.") var json = false

    func validate() throws {
        // A --since after now is refused by WhenArgument, as for log and undo.
        try filter.refuseRefs()
    }

    func run() async throws {
        let today = WallClock.today()
        let counted = filter.filter(status: .all)
        var burndown = Burndown(filter: counted)
        try Session.run(connection) { client in
            try JournalPages.read(client) { burndown.add($0.changes) }
        }
        // Without --since: the last 14 days or 12 weeks. Never before the journal began:
        // `--since 0001-01-01` drew 739,989 empty days; a --since before it starts at its
        // first change, and says so.
        let began = burndown.firstDay ?? today
        var first = max(since.map { LocalDate($0.date) } ?? today.adding(days: weekly ? -7 * 11 : -13), began)
        if let since, LocalDate(since.date) < began {
            Terminal.error("the journal begins on \(began): drawn from there, not from \(LocalDate(since.date))")
        }
        if weekly { first = Burndown.monday(of: first) }
        let periods = burndown.periods(from: first, to: today, weekly: weekly)
        if json { return try Terminal.printJSON(periods) }
        // The filter as typed: +OVERDUE asks for no tag, and the chart said nothing of it.
        let view = BurndownView(periods: periods, weekly: weekly, today: today, scope: filter.typed)
        let width = Terminal.width
        guard width >= view.minimumWidth else {
            Terminal.error("burndown needs \(view.minimumWidth) columns to draw; this terminal has \(width): widen it, set COLUMNS, or use --json")
            throw ExitCode.validationFailure
        }
        Terminal.print(view.lines(width: width, styler: Terminal.styler).joined(separator: "\n"))
    }
}
