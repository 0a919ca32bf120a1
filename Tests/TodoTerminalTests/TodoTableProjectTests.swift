import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// `todoctl list`'s project column: between the title and the due date when a listed todo
/// has a project, absent otherwise, and given up before the due date on a narrow terminal.
@Suite("The list's project column")
struct TodoTableProjectTests {
    private let plain = TextStyler(colours: false)
    private let today = LocalDate(year: 2026, month: 11, day: 23)!

    private func lines(_ todos: [Todo], width: Int? = nil) -> [String] {
        TodoTable(rows: todos.map { TodoViewModel($0, today: today) }, styler: plain).render(width: width)
    }

    @Test("a project shows between title and due date, the rows without one keep the column blank so that due dates line up")
    func column() {
        let shown = lines([
            todo(1, "Dig beds", due: today.adding(days: 1), tags: ["outside"], project: "home.garden"),
            todo(2, "Pay rent", due: today.adding(days: 1)),
        ])
        #expect(shown == ["#1 [ ]   Dig beds home.garden tomorrow #outside", "#2 [ ]   Pay rent             tomorrow"], "\(shown)")
    }

    @Test("without a project among the rows there is no column")
    func none() {
        #expect(lines([todo(1, "Pay rent", due: today.adding(days: 1))]) == ["#1 [ ]   Pay rent tomorrow"])
    }

    @Test("on a narrow terminal the project is cut or left out before the due date is")
    func narrow() {
        let rows = [todo(1, "Dig the vegetable beds", due: today.adding(days: 1), project: "home.garden.vegetables")]
        for width in [26, 30, 40] {
            let shown = lines(rows, width: width)
            #expect(shown.allSatisfy { TerminalText.width($0) <= width } && shown[0].contains("tomorrow"), "\(width): \(shown)")
        }
    }

    /// `todos` as `todoctl list` draws them at `width`, with the columns it left out.
    private func listed(_ todos: [Todo], width: Int) -> (lines: [String], leftOut: [TodoColumn]) {
        let outline = TodoOutline(TodoViewModelList(filter: TodoFilter(), todos: todos.map { TodoViewModel($0, today: today) }, asOf: 1))
        let (text, leftOut) = TodoTable.fittedText(outline, styler: plain, width: width)
        return (text.split(separator: "\n").map(String.init), leftOut)
    }

    @Test("from 30 to 56 columns a 36-column project takes at most a fifth of the width or, under 33, is left out and named; the tags keep at least +N (outside probe: the project took 36, the tags went without a word)", arguments: Array(30...56))
    func projectBounded(width: Int) throws {
        let project = "household.renovation.kitchen.cabinet"
        let (lines, leftOut) = listed([
            todo(1, "Order the cabinet doors", due: today.adding(days: 1), tags: ["shop", "diy"], project: project),
            todo(2, "Call the carpenter", due: today.adding(days: 2), tags: ["phone"]),
        ], width: width)
        #expect(leftOut == (width < 33 ? [.project] : []), "\(width): \(leftOut) \(lines)")
        #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines)")
        let first = try #require(lines.first)
        #expect(first.hasSuffix("#shop +1") || first.hasSuffix("+2") || first.hasSuffix("#shop #diy"), "\(width): \(first)")
        #expect(lines[1].hasSuffix("#phone") || lines[1].hasSuffix("+1"), "\(width): \(lines[1])")
        guard width >= 33 else { return #expect(!first.contains("hous"), "\(width): \(first)") }
        let shownProject = try #require(first.split(separator: " ").first { $0.hasPrefix("hous") })
        #expect(TerminalText.width(shownProject) <= max(8, width / 5) && shownProject.hasSuffix("…"), "\(width): \(shownProject)")
    }

    @Test("the columns a narrow list leaves out are named, as --columns names its own: the project, then the tags, then the due date", arguments: [
        (40, [TodoColumn]()), (28, [.project]), (24, [.project, .tags]), (17, [.project, .due, .tags]),
    ])
    func leftOutNamed(width: Int, expected: [TodoColumn]) {
        let (lines, leftOut) = listed([todo(1, "Order the cabinet doors", due: today.adding(days: 1), tags: ["shop"], project: "home.kitchen")], width: width)
        #expect(leftOut == expected, "\(width): \(leftOut) \(lines)")
        #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines)")
    }
}
