import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("The list table in the columns --columns chooses")
struct TodoColumnsTableTests {
    private let plain = TextStyler(colours: false)

    @Test("columns as wide as their widest cell in columns on screen (wide characters count two), subtasks indented under their parent")
    func wideAndNested() throws {
        var child = todo(3, "東京で会議", priority: .high)
        child.parent = 1
        var done = todo(4, "Book room", completed: true)
        done.parent = 1
        let rows = [todo(1, "Plan trip", tags: ["fun"], project: "travel.japan"), todo(12, "Pay rent", priority: .low), child, done]
        let outline = TodoOutline(list(rows, filter: TodoFilter(status: .all)))
        let lines = TodoTable.render(outline, columns: try TodoColumn.parse("number,title,project,priority"), styler: plain)
        #expect(lines == [
            "  #  Title         Project       !",
            " #1  Plan trip     travel.japan",
            " #3    東京で会議                !",
            " #4    Book room",
            "#12  Pay rent                    ·",
        ], "\(lines.joined(separator: "\n"))")
    }

    @Test("a long project's name is cut with … (down to 8 columns) before the columns after it are left out (at 40 columns title and due went; outside probe)")
    func longProjectGivesWay() throws {
        let rows = [todo(7, "Pay the rent", due: LocalDate(year: 2026, month: 12, day: 31)!, project: "a.very.long.project.name.indeed"), todo(8, "東京で会議")]
        let fitted = TodoTable.fitted(TodoOutline(list(rows)), columns: try TodoColumn.parse("number,project,title,due"), styler: plain, width: 40)
        #expect(fitted.leftOut == [], "\(fitted)")
        #expect(fitted.lines == [
            " #  Project            Title  Due",
            "#7  a.very.long.proj…  Pay …  2026-12-31",
            "#8                     東京…",
        ], "\(fitted.lines.joined(separator: "\n"))")
    }

    @Test("a title longer than 60 columns is cut with …; an unknown column is refused with the nearest and the list")
    func longTitleAndRefusal() throws {
        let long = String(repeating: "会議", count: 40)
        let lines = TodoTable.render(TodoOutline(list([todo(1, long)])), columns: [.title, .state], styler: plain)
        // 29 characters of two columns and `…`: a 30th would pass 60.
        #expect(lines.dropFirst().first.map { TerminalText.width($0) } == 59 + 2 + 4, "\(lines)")
        #expect(lines.dropFirst().first?.hasSuffix("…  open") == true, "\(lines)")
        #expect {
            try TodoColumn.parse("number,prioirty")
        } throws: { error in
            let text = (error as? TodoColumn.UnknownColumn)?.description ?? ""
            return text.contains("unknown column 'prioirty'") && text.contains("did you mean priority?") && text.contains(TodoColumn.nameList)
        }
        #expect(throws: TodoColumn.UnknownColumn.self) { try TodoColumn.parse("number,") }
    }
}
