import ArgumentParser
import TodoClock
import TodoModel
import TodoTerminal
import TodoViewModel

struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "A month's grid with the days todos are due, and those todos.",
        discussion: """
            The current month, or the one given (feb, feb 2027, 2027-02). Weeks run Monday to Sunday, each \
            with its ISO week number on the left; a day with open todos due carries their count \
            (12² is two due on the 12th, ⁺ more than nine); today is in reverse video, or in \
            brackets ([23], [23²] with two due, and [Mo 23] in the list) with NO_COLOR or through a pipe, \
            where each day of today's month takes a column more, so that the brackets touch no day \
            beside them (27² [28]  29). The month's due todos follow the grid, a day's \
            timed ones first with their times (Tu  1  #4 15:00 Call dentist), their titles cut with … to the terminal's width ($COLUMNS, else the terminal's, else 80); \
            narrower than the grid's 30 columns (38 with brackets) its week numbers go, under 28 \
            (35) the counts' marks (due days only coloured), and under 21 (28) the grid itself, \
            the month's name and its todos kept.
            """,
        aliases: ["cal"])

    @Argument(help: ArgumentHelp("The month: \(Self.accepted); the current month without it.", valueName: "month"))
    var month: [String] = []
    @OptionGroup var connection: ConnectionOptions

    /// The forms of the month, for `--help` and the error.
    static let accepted = "its name or first three letters (feb, February: the next one, this month included), with a year (feb 2027, 2027 feb), or YEAR-MONTH (2027-02)"

    func validate() throws {
        guard !month.isEmpty else { return }
        if case .failure(let problem) = Self.parse(month, today: WallClock.today()) { throw ValidationError(problem.description) }
    }

    func run() async throws {
        let today = WallClock.today()
        let asked = month.isEmpty ? nil : try? Self.parse(month, today: today).get()
        let (year, month) = asked ?? (today.year, today.month)
        let view = CalendarView(year: year, month: month, today: today, todos: try AllTodos.fetch(connection))
        Terminal.print(view.lines(width: Terminal.width, styler: Terminal.styler).joined(separator: "\n"))
    }

    /// Why the words name no month, with the forms.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The year and month the words name: `2026-12`, `feb` (the next from `today`'s month on), `feb 2027`,
    /// `2027 feb`; `calendar feb` was refused as no YEAR-MONTH (outside probe).
    static func parse(_ words: [String], today: LocalDate) -> Result<(year: Int, month: Int), Problem> {
        let typed = words.joined(separator: " ")
        let pieces = words.flatMap { $0.split(separator: " ").map(String.init) }
        let years = "a year from 0001 to 9999"
        func refused(_ why: String) -> Result<(year: Int, month: Int), Problem> {
            .failure(Problem(description: "\(typed) is not a month: \(why)give \(accepted), with \(years) and a month from 01 to 12"))
        }
        // 2026-12
        if pieces.count == 1, pieces[0].contains("-") {
            let parts = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, (1...2).contains(parts[1].count),
                let year = Int(parts[0]), year >= 1, let month = Int(parts[1]), (1...12).contains(month)
            else { return refused("") }
            return .success((year, month))
        }
        // feb, feb 2027, 2027 feb
        guard (1...2).contains(pieces.count) else { return refused("") }
        let named = pieces.compactMap(DueDateParser.month(named:))
        let numbers = pieces.filter { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard named.count == 1, let month = named.first else {
            if let word = pieces.first(where: { !$0.allSatisfy(\.isNumber) }), let meant = DueDateParser.monthMeant(by: word) {
                return refused("did you mean \(meant)? ")
            }
            if pieces.count == 1, let year = Int(pieces[0]), pieces[0].count == 4, year >= 1 {
                return refused("\(typed) is a year alone; ")
            }
            return refused("")
        }
        // A month alone is the next one so named, this one included: `calendar feb` in
        // November looks ahead, as `due:feb 2` does.
        guard pieces.count == 2 else { return .success((month >= today.month ? today.year : today.year + 1, month)) }
        guard numbers.count == 1, numbers[0].count == 4, let year = Int(numbers[0]), year >= 1 else { return refused("") }
        return .success((year, month))
    }
}
