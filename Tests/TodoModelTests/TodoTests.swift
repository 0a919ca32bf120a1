import Foundation
import Testing
import TodoModel

/// An instant `minutes` after a fixed origin, in whole milliseconds.
func at(_ minutes: Int) -> Date {
    Date(millisecondsSince1970: 1_780_000_000_000 + Int64(minutes) * 60_000)
}

func day(_ text: String) -> LocalDate {
    guard let date = LocalDate(text) else { preconditionFailure("bad test date \(text)") }
    return date
}

@Suite("Todo")
struct TodoTests {
    private func sorted(_ todos: [Todo]) -> [Int] {
        todos.sorted(by: Todo.precedesInDefaultOrder).map(\.number)
    }

    @Test("open todos come before completed ones, whatever their priority")
    func openBeforeCompleted() {
        let completedHigh = Todo(number: 1, title: "a", priority: .high, createdAt: at(0), completedAt: at(1))
        let openLow = Todo(number: 2, title: "b", priority: .low, createdAt: at(0))
        #expect(sorted([completedHigh, openLow]) == [2, 1])
        #expect(Todo.precedesInDefaultOrder(openLow, completedHigh))
        #expect(!Todo.precedesInDefaultOrder(completedHigh, openLow))
    }

    @Test("high priority first, then normal, then low")
    func priorityOrder() {
        let low = Todo(number: 1, title: "a", priority: .low, createdAt: at(3))
        let normal = Todo(number: 2, title: "b", priority: .normal, createdAt: at(2))
        let high = Todo(number: 3, title: "c", priority: .high, createdAt: at(1))
        #expect(sorted([low, normal, high]) == [3, 2, 1])
        #expect(sorted([normal, high, low]) == [3, 2, 1])
    }

    @Test("earlier due date first, undated last")
    func dueOrder() {
        let undated = Todo(number: 1, title: "a", createdAt: at(9))
        let later = Todo(number: 2, title: "b", due: day("2026-12-01"), createdAt: at(0))
        let sooner = Todo(number: 3, title: "c", due: day("2026-11-01"), createdAt: at(0))
        #expect(sorted([undated, later, sooner]) == [3, 2, 1])
    }

    @Test("newest first when all else is equal, number breaks exact ties")
    func newestFirst() {
        let old = Todo(number: 1, title: "a", createdAt: at(0))
        let new = Todo(number: 2, title: "b", createdAt: at(5))
        let twinA = Todo(number: 3, title: "c", createdAt: at(7))
        let twinB = Todo(number: 4, title: "d", createdAt: at(7))
        #expect(sorted([old, new, twinA, twinB]) == [4, 3, 2, 1])
    }

    @Test("the whole default order on a mixed list")
    func wholeOrder() {
        let todos = [
            Todo(number: 1, title: "done high", priority: .high, createdAt: at(0), completedAt: at(1)),
            Todo(number: 2, title: "open low", priority: .low, createdAt: at(2)),
            Todo(number: 3, title: "open high undated", priority: .high, createdAt: at(3)),
            Todo(number: 4, title: "open high due", priority: .high, due: day("2026-05-01"), createdAt: at(1)),
            Todo(number: 5, title: "open normal", createdAt: at(4)),
            Todo(number: 6, title: "open normal older", createdAt: at(1)),
            Todo(number: 7, title: "done low", priority: .low, createdAt: at(9), completedAt: at(9)),
        ]
        #expect(sorted(todos) == [4, 3, 5, 6, 2, 1, 7])
        #expect(sorted(todos.reversed()) == [4, 3, 5, 6, 2, 1, 7])
    }

    @Test("== compares every field, identity is the id")
    func equalityAndIdentity() {
        let todo = Todo(number: 1, title: "a", createdAt: at(0))
        var edited = todo
        edited.title = "b"
        #expect(todo != edited)
        #expect(todo.isSameTodo(as: edited))
        let twin = Todo(number: 1, title: "a", createdAt: at(0))
        #expect(!todo.isSameTodo(as: twin))
        #expect(todo.updatedAt == todo.createdAt)
        #expect(todo.revision == 1)
    }

    @Test("JSON round trip gives an equal todo")
    func jsonRoundTrip() throws {
        let todo = Todo(
            number: 42, title: "Pay rent", notes: "line 1\nline 2 ✓", priority: .high, due: day("2026-12-24"),
            tags: ["home", "money"], createdAt: at(0), updatedAt: at(3), completedAt: at(2), deletedAt: at(3), revision: 5)
        let data = try JSONEncoder().encode(todo)
        #expect(try JSONDecoder().decode(Todo.self, from: data) == todo)

        let plain = Todo(number: 1, title: "x", createdAt: Date())
        #expect(try JSONDecoder().decode(Todo.self, from: try JSONEncoder().encode(plain)) == plain)
    }

    @Test("milliseconds since 1970 round trip")
    func milliseconds() {
        let date = Date(millisecondsSince1970: 1_780_000_000_123)
        #expect(date.millisecondsSince1970 == 1_780_000_000_123)
        #expect(date.roundedToMilliseconds == date)
        let fine = Date(timeIntervalSince1970: 1_780_000_000.123_4)
        #expect(fine.roundedToMilliseconds.millisecondsSince1970 == 1_780_000_000_123)
        let later = Date(timeIntervalSince1970: 1_780_000_000.123_6)
        #expect(later.roundedToMilliseconds.millisecondsSince1970 == 1_780_000_000_124)
    }

    @Test("priorities are ordered and cycle")
    func priorities() {
        #expect(Priority.low < .normal && Priority.normal < .high)
        #expect(Priority.low.next == .normal && Priority.normal.next == .high && Priority.high.next == .low)
    }
}

@Suite("TodoFilter")
struct TodoFilterTests {
    let open = Todo(number: 1, title: "Buy milk", notes: "semi-skimmed", tags: ["home"], createdAt: at(0))
    let completed = Todo(number: 2, title: "File taxes", priority: .high, tags: ["money"], createdAt: at(0), completedAt: at(1))
    let deletedOpen = Todo(number: 3, title: "Old idea", createdAt: at(0), deletedAt: at(1))
    let deletedCompleted = Todo(number: 4, title: "Old chore", createdAt: at(0), completedAt: at(1), deletedAt: at(2))

    private func numbers(_ filter: TodoFilter) -> [Int] {
        [open, completed, deletedOpen, deletedCompleted].filter(filter.matches).map(\.number)
    }

    @Test("open: live and not completed")
    func openStatus() { #expect(numbers(TodoFilter(status: .open)) == [1]) }

    @Test("completed: live and completed")
    func completedStatus() { #expect(numbers(TodoFilter(status: .completed)) == [2]) }

    @Test("deleted: only deleted ones, completed or not")
    func deletedStatus() { #expect(numbers(TodoFilter(status: .deleted)) == [3, 4]) }

    @Test("all: every live todo, no deleted ones")
    func allStatus() { #expect(numbers(TodoFilter(status: .all)) == [1, 2]) }

    @Test("tag and priority narrow the list")
    func tagAndPriority() {
        #expect(numbers(TodoFilter(status: .all, tag: "home")) == [1])
        #expect(numbers(TodoFilter(status: .all, tag: "nope")) == [])
        #expect(numbers(TodoFilter(status: .all, priority: .high)) == [2])
        #expect(numbers(TodoFilter(status: .all, priority: .normal)) == [1])
        #expect(numbers(TodoFilter(status: .open, priority: .high)) == [])
    }

    @Test("search finds text in the title or the notes, ignoring case")
    func search() {
        #expect(numbers(TodoFilter(status: .all, search: "MILK")) == [1])
        #expect(numbers(TodoFilter(status: .all, search: "skimmed")) == [1])
        #expect(numbers(TodoFilter(status: .all, search: "tax")) == [2])
        #expect(numbers(TodoFilter(status: .all, search: "zebra")) == [])
        #expect(numbers(TodoFilter(status: .all, search: "")) == [1, 2])
        #expect(numbers(TodoFilter(status: .deleted, search: "chore")) == [4])
    }

    @Test("a filter decoded from {} shows open todos; statuses cycle")
    func decodingDefaultsAndCycle() throws {
        #expect(try JSONDecoder().decode(TodoFilter.self, from: Data("{}".utf8)) == TodoFilter())
        #expect(TodoFilter().status == .open)
        let filter = TodoFilter(status: .deleted, tag: "a", priority: .low, search: "b")
        #expect(try JSONDecoder().decode(TodoFilter.self, from: try JSONEncoder().encode(filter)) == filter)
        var status = TodoFilter.Status.open
        var seen: [TodoFilter.Status] = []
        for _ in 0..<4 { seen.append(status); status = status.next }
        #expect(Set(seen) == Set(TodoFilter.Status.allCases) && status == .open)
    }
}
