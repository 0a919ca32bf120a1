import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("Watch subtasks")
struct WatchSubtaskTests {
    private func subtask(_ number: Int, _ title: String, of parent: Int, completed: Bool = false, revision: Int = 1) -> Todo {
        var child = todo(number, title, completed: completed, revision: revision)
        child.parent = parent
        return child
    }

    /// Trip (1) with two open subtasks and a done one that the open list leaves out.
    private func screen() -> WatchScreen {
        var screen = WatchScreen(rows: 12, columns: 80)
        let answer = TodoViewModelList(
            filter: TodoFilter(), todos: [todo(1, "trip"), subtask(2, "tickets", of: 1), subtask(3, "hotel", of: 1), todo(4, "tax")].map { TodoViewModel($0) },
            asOf: 1, progress: [SubtaskProgress(parent: 1, done: 1, total: 3)])
        screen.incorporate(answer)
        return screen
    }

    private func text(_ screen: WatchScreen) -> [String] {
        WatchRenderer(styler: TextStyler(colours: false)).render(screen)
    }

    @Test("subtasks show indented under their parent, which shows its progress, as todoctl list prints them")
    func outline() {
        let screen = screen()
        // Newest first; subtasks right under their parent.
        #expect(screen.entries.map(\.row.number) == [4, 1, 3, 2])
        #expect(screen.entries.map(\.depth) == [0, 0, 1, 1])
        let lines = text(screen)
        #expect(lines[2].hasSuffix("trip [1/3]"))
        #expect(lines[3].contains("]     hotel"))
        #expect(lines[4].contains("]     tickets"))
    }

    @Test("a subtask completed by any client updates its parent's progress at once; reopened, it counts back")
    func liveProgress() {
        var screen = screen()
        screen.incorporate(change(subtask(2, "tickets", of: 1, completed: true, revision: 2), .completed, sequence: 2))
        #expect(text(screen).contains { $0.contains("trip [2/3]") })
        // The done subtask the open list never showed is reopened: it was counted as done.
        screen.incorporate(change(subtask(5, "visa", of: 1, revision: 3), .reopened, sequence: 3))
        #expect(text(screen).contains { $0.contains("trip [1/3]") })
        screen.incorporate(change(subtask(6, "bags", of: 1), .created, sequence: 4))
        #expect(text(screen).contains { $0.contains("trip [1/4]") })
        // A change already seen is not counted twice.
        screen.incorporate(change(subtask(6, "bags", of: 1), .created, sequence: 4))
        #expect(text(screen).contains { $0.contains("trip [1/4]") })
    }

    @Test("a parent that leaves the filtered list stays above its listed subtasks, dimmed, as context")
    func parentBecomesContext() {
        var screen = screen()
        screen.incorporate(change(todo(1, "trip", completed: true, revision: 2), .completed, sequence: 2))
        let trip = screen.entries.first { $0.row.number == 1 }
        #expect(trip?.isContext == true)
        #expect(screen.entries.first { $0.row.number == 2 }?.depth == 1)
    }

    @Test("a subtask that arrives under a parent the list never saw asks for the whole list, which brings the parent as context")
    func unknownParent() {
        var screen = screen()
        #expect(!screen.needsContext)
        screen.incorporate(change(subtask(7, "pack", of: 9), .created, sequence: 2))
        #expect(screen.needsContext)
        let parent = todo(9, "move house", completed: true)
        screen.incorporate(
            TodoViewModelList(
                filter: TodoFilter(), todos: screen.list.rows, asOf: 2, context: [TodoViewModel(parent)],
                progress: [SubtaskProgress(parent: 1, done: 1, total: 3), SubtaskProgress(parent: 9, done: 0, total: 1)]))
        #expect(!screen.needsContext)
        #expect(screen.entries.first { $0.row.number == 9 }?.isContext == true)
        #expect(text(screen).contains { $0.contains("move house [0/1]") })
    }

    @Test("z folds the selected parent's subtasks away and back; on a subtask it folds its parent and selects it")
    func folding() {
        var screen = screen()
        for _ in 0..<2 { _ = screen.handle(.down) }
        #expect(screen.selected?.number == 3)
        _ = screen.handle(.character("z"))
        #expect(screen.selected?.number == 1)
        #expect(screen.entries.map(\.row.number).sorted() == [1, 4])
        #expect(text(screen).contains { $0.contains("trip [1/3 ▸]") })
        // Folded, the progress still follows the changes.
        screen.incorporate(change(subtask(3, "hotel", of: 1, completed: true, revision: 2), .completed, sequence: 2))
        #expect(text(screen).contains { $0.contains("trip [2/3 ▸]") })
        // Done, hotel has left the open list.
        _ = screen.handle(.character("z"))
        #expect(screen.entries.map(\.row.number) == [4, 1, 2])
        _ = screen.handle(.character("Z"))
        #expect(screen.entries.map(\.row.number) == [4, 1])
        _ = screen.handle(.character("Z"))
        #expect(screen.entries.map(\.row.number) == [4, 1, 2])
    }

    @Test("z on a todo without subtasks says so")
    func foldNothing() {
        var screen = screen()
        _ = screen.handle(.home)
        _ = screen.handle(.character("z"))
        #expect(screen.message == "#4 has no subtasks to fold")
        #expect(screen.entries.count == 4)
    }
}
