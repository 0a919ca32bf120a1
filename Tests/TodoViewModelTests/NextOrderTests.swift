import Foundation
import Testing
import TodoModel
import TodoViewModel

@Suite("The order of `todoctl next`")
struct NextOrderTests {
    private let today = LocalDate("2026-11-23")!

    private func todo(_ number: Int, _ priority: Priority = .normal, due days: Int? = nil, done: Bool = false) -> TodoViewModel {
        let origin = Date(timeIntervalSince1970: 1_780_000_000)
        return TodoViewModel(Todo(
            number: number, title: "t\(number)", priority: priority, due: days.map { today.adding(days: $0) },
            createdAt: origin, completedAt: done ? origin : nil))
    }

    private func order(_ rows: [TodoViewModel]) -> [Int] {
        NextOrder.ordered(rows, today: today).map(\.number)
    }

    @Test("a blocked todo (waiting for an open one) comes after every one that is not, whatever its points; [b] marks it in a list")
    func blockedLast() {
        let rows = [todo(1, .high, due: -3), todo(2, due: 5), todo(3, .low, due: 0)].markingBlocked([1])
        #expect(order(rows) == [3, 2, 1])
        #expect(rows.map(\.doneBox) == ["[b]", "[ ]", "[ ]"])
        #expect(order([todo(1, .high, due: -3), todo(2, due: 5)]) == [1, 2])
    }

    @Test("a todo scheduled for today or before is for now and gets 5 points (normal, undated: 7); one scheduled later is not weighed")
    func scheduledWeighs() {
        let origin = Date(timeIntervalSince1970: 1_780_000_000)
        let due = TodoViewModel(Todo(number: 1, title: "due in 5 days (6)", due: today.adding(days: 5), createdAt: origin))
        let scheduled = TodoViewModel(Todo(number: 2, title: "scheduled yesterday", createdAt: origin, scheduled: today.adding(days: -1)))
        let later = TodoViewModel(Todo(number: 3, title: "scheduled tomorrow", createdAt: origin, scheduled: today.adding(days: 1)))
        #expect(NextOrder.points(scheduled.todo, today: today) == 7)
        #expect(order([due, scheduled, later]) == [2, 1])
    }

    @Test("a todo two days overdue comes before a high-priority one with no date")
    func overdueBeforeUndatedHigh() {
        #expect(order([todo(1, .high), todo(2, due: -2)]) == [2, 1])
    }

    @Test("more days overdue first; today before tomorrow before next week")
    func byDueDate() {
        #expect(order([todo(1, due: 5), todo(2, due: 0), todo(3, due: 1), todo(4, due: -1), todo(5, due: -3)]) == [5, 4, 2, 3, 1])
    }

    @Test("priority weighs against the date: high tomorrow before normal today, normal today before high in 3 days")
    func priorityAgainstDate() {
        #expect(order([todo(1, due: 0), todo(2, .high, due: 1)]) == [2, 1])
        #expect(order([todo(1, .high, due: 3), todo(2, due: 0)]) == [2, 1])
        #expect(order([todo(1, .low, due: 0), todo(2, .high)]) == [1, 2], "low today (10) before high undated (6)")
    }

    @Test("left out: done todos, and those neither dated within a week nor of high priority")
    func leftOut() {
        #expect(order([todo(1), todo(2, due: 8), todo(3, .high, due: -1, done: true), todo(4, .low, due: 7)]) == [4])
    }

    @Test("ties go to the earlier date, then the lower number")
    func ties() {
        // high undated (6) ties normal in 5 days (4 + 2): the dated one first.
        #expect(order([todo(1, .high), todo(2, due: 5)]) == [2, 1])
        #expect(order([todo(3, due: 0), todo(2, due: 0)]) == [2, 3])
    }

    @Test("the daemon's pressingOn filter keeps exactly the open todos next gives points to")
    func pressingFilterAgreesWithThePoints() {
        var rows: [TodoViewModel] = []
        for priority in [Priority.low, .normal, .high] {
            for days in [nil, -30, -8, -1, 0, 1, 6, 7, 8, 30] as [Int?] {
                rows.append(todo(rows.count + 1, priority, due: days))
                rows.append(todo(rows.count + 1, priority, due: days, done: true))
            }
        }
        let filter = TodoFilter(pressingOn: today)
        let kept = rows.filter { filter.matches($0.todo, today: today) }.map(\.number)
        let pointed = rows.filter { NextOrder.points($0.todo, today: today) != nil }.map(\.number)
        #expect(kept == pointed, "filter kept \(kept), next gives points to \(pointed)")
        #expect(pointed.count == 10 + 2 * 7, "high: the open 10; low and normal: the open 7 overdue or dated up to 7 days ahead (got \(pointed.count))")
    }
}
