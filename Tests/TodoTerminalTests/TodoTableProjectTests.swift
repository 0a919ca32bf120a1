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
}
