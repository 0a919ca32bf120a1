import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("WatchScreen: planning's fields edited in place")
struct WatchPlanningEditTests {
    let today = LocalDate(year: 2026, month: 11, day: 23)!  // a Monday

    private func screen(_ todos: [Todo]) -> WatchScreen {
        var screen = WatchScreen(rows: 20, columns: 80, today: today)
        screen.incorporate(list(todos))
        return screen
    }

    /// Opens the prompt of `key`, replaces its text with `text` and presses Enter.
    private func enter(_ text: String, after key: Character, on screen: inout WatchScreen) -> WatchScreen.Command? {
        _ = screen.handle(.character(key))
        while case .prompting(_, let typed) = screen.mode, !typed.text.isEmpty { _ = screen.handle(.backspace) }
        for character in text { _ = screen.handle(.character(character)) }
        return screen.handle(.enter)
    }

    @Test("r takes a repeat as the edit form's every: line does: 1w from the due date, after 3d from completion, empty stops it")
    func recurrence() throws {
        var screen = screen([todo(1, "bins out", revision: 2)])
        let id = try #require(screen.selected?.id)
        #expect(enter("weekly", after: "r", on: &screen) == .edit(id, revision: 2, TodoEdit(recurrence: Recurrence("1w")), typed: TypedText(.every(id, revision: 2), "weekly")))
        #expect(enter("after 3d", after: "r", on: &screen)?.edit?.recurrence == Recurrence("3d", basis: .completion))
        var repeating = todo(1, "bins out", revision: 3)
        repeating.recurrence = Recurrence("1w")
        screen.incorporate(change(repeating, sequence: 2))
        _ = screen.handle(.character("r"))
        #expect(screen.mode == .prompting(.every(id, revision: 3), LineEditor("1w", selected: true)))
        _ = screen.handle(.escape)
        #expect(enter("", after: "r", on: &screen) == .edit(id, revision: 3, TodoEdit(clearRecurrence: true), typed: TypedText(.every(id, revision: 3), "")))
    }

    @Test("a repeat, parent or wait that does not read stays in the prompt as typed, with what to write")
    func refusedKeepsText() throws {
        var screen = screen([todo(1, "bins out")])
        let id = try #require(screen.selected?.id)
        #expect(enter("every fortnight", after: "r", on: &screen) == nil)
        #expect(screen.mode == .prompting(.every(id, revision: 1), LineEditor("every fortnight")))
        #expect(screen.message?.contains("is not a period") == true)
        _ = screen.handle(.escape)
        #expect(enter("two", after: "P", on: &screen) == nil)
        #expect(screen.mode == .prompting(.parent(id, revision: 1), LineEditor("two")))
        #expect(screen.message?.contains("is not a todo number") == true)
        _ = screen.handle(.escape)
        #expect(enter("whenever", after: "w", on: &screen) == nil)
        #expect(screen.mode == .prompting(.wait(id, revision: 1), LineEditor("whenever")))
        #expect(screen.message?.contains("is not a date") == true)
    }

    @Test("P sets the parent by number (#2 too) or, emptied, makes it a todo of its own; w waits for a day in words")
    func parentAndWait() throws {
        var screen = screen([todo(1, "tickets"), todo(2, "trip")])
        _ = screen.handle(.end)
        let id = try #require(screen.selected?.id)
        #expect(screen.selected?.number == 1)
        #expect(enter("#2", after: "P", on: &screen)?.edit == TodoEdit(parent: 2))
        var child = todo(1, "tickets", revision: 2)
        child.parent = 2
        screen.incorporate(change(child, sequence: 2))
        #expect(enter("", after: "P", on: &screen) == .edit(id, revision: 2, TodoEdit(clearParent: true), typed: TypedText(.parent(id, revision: 2), "")))
        let friday = LocalDate(year: 2026, month: 11, day: 27)!
        #expect(enter("fri", after: "w", on: &screen)?.edit == TodoEdit(wait: friday))
        // The same value again changes nothing, so nothing is sent.
        #expect(enter("2", after: "P", on: &screen) == nil)
        #expect(screen.mode == .browsing && screen.message == nil)
    }
}

extension WatchScreen.Command {
    /// The fields of an `.edit`.
    fileprivate var edit: TodoEdit? {
        if case .edit(_, _, let edit, _) = self { edit } else { nil }
    }
}
