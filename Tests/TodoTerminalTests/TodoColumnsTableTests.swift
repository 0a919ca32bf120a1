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

    @Test("on a narrow terminal the title is the last column to go: the columns after and before it are left out first, and it is cut to what they leave (at 16 columns project stayed and title went; outside probe 10)", arguments: [10, 12, 16, 20, 24])
    func titleGoesLast(width: Int) throws {
        let today = LocalDate(year: 2026, month: 11, day: 27)!
        let rows = [
            todo(3, "Call the plumber", due: today.adding(days: 7), tags: ["home"], project: "home.repairs"),
            todo(17, "東京で会議の準備", due: today.adding(days: 13)),
        ].map { TodoViewModel($0, today: today) }
        let outline = TodoOutline(TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 1))
        let fitted = TodoTable.fitted(outline, columns: try TodoColumn.parse("number,project,title,due,tags"), styler: plain, width: width)
        #expect(fitted.lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(fitted.lines.joined(separator: "\n"))")
        #expect(!fitted.leftOut.contains(.title) && fitted.leftOut.contains(.tags), "\(width): \(fitted.leftOut)")
        // The project, before the title, goes whole rather than cut under its 8 columns.
        #expect(fitted.leftOut.contains(.project) == (width < 20), "\(width): \(fitted.lines.joined(separator: "\n"))")
        #expect(fitted.lines.first?.contains("Title") == true, "\(width): \(fitted.lines.joined(separator: "\n"))")
        // Each row keeps the start of its title.
        #expect(fitted.lines[1].contains("Ca") && fitted.lines[2].contains("東"), "\(width): \(fitted.lines.joined(separator: "\n"))")
        // The room of the columns left out goes to the title: 11 columns at 16, where it had 5.
        if width == 16 { #expect(fitted.lines[1] == " #3  Call the p…", "\(fitted.lines.joined(separator: "\n"))") }
    }

    @Test("a due date too wide for its column is shown short (13d, -3d), never cut in a number: `in 1…` read as in one day (outside probe 10)")
    func dueShownShort() throws {
        let today = LocalDate(year: 2026, month: 11, day: 27)!
        let rows = [
            todo(1, "Pay", due: today.adding(days: 13)), todo(2, "Tax", due: today.adding(days: -3)),
            todo(3, "Now", due: today), todo(4, "Far", due: today.adding(days: 40)),
        ].map { TodoViewModel($0, today: today) }
        let outline = TodoOutline(TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 1))
        let fitted = TodoTable.fitted(outline, columns: try TodoColumn.parse("number,title,due"), styler: plain, width: 16)
        #expect(fitted.lines == [" #  Title  Due", "#1  Pay    13d", "#2  Tax    -3d", "#3  Now    today", "#4  Far    40d"], "\(fitted.lines.joined(separator: "\n"))")
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
