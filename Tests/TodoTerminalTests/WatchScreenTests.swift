import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("WatchScreen")
struct WatchScreenTests {
    private func screen(_ todos: [Todo], rows: Int = 10) -> WatchScreen {
        var screen = WatchScreen(rows: rows, columns: 80)
        screen.incorporate(list(todos))
        return screen
    }

    @Test("the selection stays on the same todo when rows above it come and go")
    func selectionFollowsTodo() {
        var screen = screen([todo(1, "one"), todo(2, "two"), todo(3, "three")])
        _ = screen.handle(.down)
        let chosen = screen.selected?.id
        #expect(screen.selectedIndex == 1)
        // Newest first: a new todo lands above the selection.
        screen.incorporate(change(todo(4, "four"), .created, sequence: 2))
        #expect(screen.selected?.id == chosen)
        #expect(screen.selectedIndex == 2)
        // The row above it completes and leaves the open list.
        screen.incorporate(change(todo(4, "four", completed: true, revision: 2), .completed, sequence: 3))
        #expect(screen.selected?.id == chosen)
        #expect(screen.selectedIndex == 1)
    }

    @Test("when the selected todo leaves the list, the row at its place is selected")
    func selectionWhenTodoLeaves() {
        var screen = screen([todo(1, "one"), todo(2, "two"), todo(3, "three")])
        _ = screen.handle(.down)
        let next = screen.list.rows[2].id
        screen.incorporate(change(todo(2, "two", completed: true, revision: 2), .completed, sequence: 2))
        #expect(screen.selected?.id == next)
    }

    @Test("x asks for the state the screen showed the other way: done for an open todo, open for a done one, so that two windows pressing x on a todo at once both leave it done (outside probe: the second reopened it)")
    func xAsksForTheOtherState() throws {
        var open = screen([todo(1, "one")])
        #expect(open.handle(.character("x")) == .toggle(try #require(open.selected).id, done: true))
        var done = WatchScreen(rows: 10, columns: 80)
        done.incorporate(list([todo(1, "one", completed: true, revision: 2)], filter: TodoFilter(status: .all)))
        #expect(done.handle(.character("x")) == .toggle(try #require(done.selected).id, done: false))
    }

    @Test("keys ask for the right requests, on the selected todo")
    func keysMakeCommands() throws {
        var screen = screen([todo(1, "one", priority: .low), todo(2, "two")])
        let selected = try #require(screen.selected)
        #expect(screen.handle(.character("x")) == .toggle(selected.id, done: true))
        #expect(screen.handle(.character(" ")) == .toggle(selected.id, done: true))
        #expect(screen.handle(.character("d")) == .delete(selected.id))
        _ = screen.handle(.character("j"))
        #expect(screen.handle(.character("p")) == .edit(screen.selected!.id, revision: nil, TodoEdit(priority: .normal), typed: nil))
        #expect(screen.handle(.character("q")) == .quit)
        #expect(screen.handle(.controlC) == .quit)
    }

    @Test("u restores only in the deleted list; elsewhere it says how to get there")
    func restoreNeedsDeletedFilter() {
        var screen = screen([todo(1, "one")])
        #expect(screen.handle(.character("u")) == nil)
        #expect(screen.message?.contains("deleted list") == true)
    }

    @Test("a types a title on the bottom line; Enter sends it, Escape drops it")
    func addPrompt() {
        var screen = screen([])
        #expect(screen.handle(.character("a")) == nil)
        for character in "Buy milk" { _ = screen.handle(.character(character)) }
        _ = screen.handle(.backspace)
        #expect(screen.mode == .prompting(.add, LineEditor("Buy mil")))
        #expect(screen.handle(.enter) == .add(NewTodo(title: "Buy mil"), typed: TypedText(.add, "Buy mil")))
        #expect(screen.mode == .browsing)
        _ = screen.handle(.character("a"))
        _ = screen.handle(.character("z"))
        _ = screen.handle(.escape)
        #expect(screen.mode == .browsing)
    }

    @Test("a refused add gives back what was typed, with the reason on the status line")
    func failedAddKeepsText() {
        var screen = screen([])
        screen.failed(.add(NewTodo(title: "   "), typed: TypedText(.add, "   ")), message: "title: a todo needs a title; it is empty")
        #expect(screen.mode == .prompting(.add, LineEditor("   ")))
        #expect(screen.message == "title: a todo needs a title; it is empty")
    }

    @Test("e edits the selected title at its revision; a conflict keeps the edit")
    func editTitle() throws {
        var screen = screen([todo(1, "draft", revision: 3)])
        _ = screen.handle(.character("e"))
        // End keeps the selected old title to add to.
        _ = screen.handle(.end)
        _ = screen.handle(.character("!"))
        let command = screen.handle(.enter)
        let id = try #require(screen.selected?.id)
        #expect(command == .edit(id, revision: 3, TodoEdit(title: "draft!"), typed: TypedText(.title(id, revision: 3), "draft!")))
        screen.failed(command!, message: "conflict")
        #expect(screen.mode == .prompting(.title(id, revision: 3), LineEditor("draft!")))
    }

    @Test("f cycles the filter and asks for the list under it")
    func filterCycles() {
        var screen = screen([todo(1, "one")])
        #expect(screen.handle(.character("f")) == .reload(TodoFilter(status: .all)))
        #expect(screen.list.filter.status == .all)
        #expect(screen.handle(.character("f")) == .reload(TodoFilter(status: .completed)))
        #expect(screen.list.rows.isEmpty)
    }

    @Test("the view scrolls to keep the selection visible")
    func scrolling() {
        var screen = screen((1...50).map { todo($0, "todo \($0)") }, rows: 10)
        for _ in 0..<20 { _ = screen.handle(.down) }
        #expect(screen.selectedIndex == 20)
        #expect(screen.scrollOffset == 20 - screen.visibleRows + 1)
        _ = screen.handle(.home)
        #expect(screen.scrollOffset == 0)
        _ = screen.handle(.end)
        #expect(screen.selectedIndex == 49)
        screen.resize(rows: 30, columns: 80)
        #expect(screen.scrollOffset == 50 - screen.visibleRows)
    }
}
