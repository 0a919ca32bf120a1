import ArgumentParser
import TodoClock
import TodoModel
import TodoTerminal

struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "A month's grid with the days todos are due, and those todos.",
        discussion: """
            The current month, or the one given (2026-12). Weeks run Monday to Sunday, each \
            with its ISO week number on the left; a day with open todos due carries their count \
            (12² is two due on the 12th, ⁺ more than nine); today is in reverse video (plain \
            with NO_COLOR or through a pipe). The month's due todos follow the grid, their \
            titles cut with … to the terminal's width ($COLUMNS, else the terminal's, else 80); \
            narrower than the grid's 30 columns its week numbers go, under 28 the counts' marks \
            (due days only coloured), and under 21 the grid itself, the month's name and its \
            todos kept.
            """,
        aliases: ["cal"])

    @Argument(help: ArgumentHelp("The month, as YEAR-MONTH (2026-12); the current month without it.", valueName: "month"))
    var month: String?
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if let month, Self.parse(month) == nil {
            throw ValidationError("\(month) is not a month: write YEAR-MONTH, 2026-12, with a year from 0001 to 9999 and a month from 01 to 12")
        }
    }

    func run() async throws {
        let today = WallClock.today()
        let (year, month) = month.flatMap(Self.parse) ?? (today.year, today.month)
        let view = CalendarView(year: year, month: month, today: today, todos: try AllTodos.fetch(connection))
        Terminal.print(view.lines(width: Terminal.width, styler: Terminal.styler).joined(separator: "\n"))
    }

    /// `2026-12` as year and month, or nil.
    static func parse(_ text: String) -> (year: Int, month: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, (1...2).contains(parts[1].count),
            let year = Int(parts[0]), year >= 1, let month = Int(parts[1]), (1...12).contains(month)
        else { return nil }
        return (year, month)
    }
}
