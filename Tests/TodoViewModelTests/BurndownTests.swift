import Foundation
import Testing
import TodoModel
import TodoViewModel

@Suite("Burndown's counts from the journal")
struct BurndownTests {
    private let author = ChangeAuthor(client: 1, program: "todoctl")

    private func change(
        _ seq: UInt64, _ kind: TodoChangeKind, _ number: Int, on date: String, done: Bool = false, deleted: Bool = false, tags: [String] = [],
        undoes: UInt64? = nil
    ) -> JournaledChange {
        let instant = ISO8601DateFormatter().date(from: date + "T12:00:00Z")!
        let todo = Todo(
            id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!, number: number, title: "T\(number)", notes: "",
            priority: .normal, due: nil, tags: tags, createdAt: instant, completedAt: done ? instant : nil, deletedAt: deleted ? instant : nil, revision: 1)
        return JournaledChange(JournalEntry(seq: seq, step: seq, at: instant, author: author, kind: kind, before: nil, after: todo, undoes: undoes), withBefore: false)
    }

    private var journal: [JournaledChange] {
        [
            change(1, .created, 1, on: "2026-11-28"), change(2, .created, 2, on: "2026-11-28", tags: ["home"]),
            change(3, .created, 3, on: "2026-11-30", tags: ["home"]), change(4, .completed, 1, on: "2026-11-30", done: true),
            change(5, .deleted, 2, on: "2026-12-02", deleted: true), change(6, .completed, 3, on: "2026-12-02", done: true, tags: ["home"]),
            change(7, .reopened, 3, on: "2026-12-02", tags: ["home"]),
        ]
    }

    @Test("a day without a change keeps the open count of the day before; done and added count on their day, across the month's end; done and reopened on one day is not done")
    func daily() {
        var burndown = Burndown()
        burndown.add(Array(journal.prefix(3)))
        burndown.add(Array(journal.dropFirst(3)))
        #expect(burndown.firstDay == LocalDate("2026-11-28"))
        let periods = burndown.periods(from: LocalDate("2026-11-27")!, to: LocalDate("2026-12-03")!, weekly: false)
        #expect(periods.map { "\($0.date) \($0.open) \($0.done) \($0.added)" } == [
            "2026-11-27 0 0 0", "2026-11-28 2 0 2", "2026-11-29 2 0 0", "2026-11-30 2 1 1", "2026-12-01 2 0 0", "2026-12-02 1 0 0",
            "2026-12-03 1 0 0",
        ], "\(periods)")
        let weeks = burndown.periods(from: LocalDate("2026-11-23")!, to: LocalDate("2026-12-03")!, weekly: true)
        #expect(weeks.map { "\($0.date) \($0.open) \($0.done) \($0.added)" } == ["2026-11-23 2 0 2", "2026-11-30 1 1 1"], "\(weeks)")
    }

    @Test("a filter counts only the todos that meet it, as they are after each change")
    func filtered() {
        var filter = TodoFilter()
        filter.tags = ["home"]
        var burndown = Burndown(filter: filter)
        burndown.add(journal)
        let periods = burndown.periods(from: LocalDate("2026-11-30")!, to: LocalDate("2026-12-02")!, weekly: false)
        #expect(periods.map { "\($0.date) \($0.open) \($0.done)" } == ["2026-11-30 2 0", "2026-12-01 2 0", "2026-12-02 1 0"], "\(periods)")
    }

    @Test("a completion or an addition undone on a later day counts on that day: the day it was done keeps its count")
    func undone() {
        var burndown = Burndown()
        burndown.add(journal)
        burndown.add([
            change(8, .reopened, 1, on: "2026-12-03", undoes: 4),
            change(9, .deleted, 3, on: "2026-12-03", deleted: true, tags: ["home"], undoes: 3),
        ])
        let periods = burndown.periods(from: LocalDate("2026-11-30")!, to: LocalDate("2026-12-03")!, weekly: false)
        #expect(periods.map { "\($0.date) \($0.open) \($0.done) \($0.added)" } == [
            "2026-11-30 2 1 1", "2026-12-01 2 0 0", "2026-12-02 1 0 0", "2026-12-03 1 0 0",
        ], "\(periods)")
    }
}

extension BurndownTests {
    private func counts(_ burndown: Burndown, _ first: String, _ last: String) -> [String] {
        burndown.periods(from: LocalDate(first)!, to: LocalDate(last)!, weekly: false).map { "\($0.date) \($0.open) \($0.done) \($0.added)" }
    }

    @Test("a creation undone, then redone the next day, counts as added on the day of the redo")
    func creationRedone() {
        var burndown = Burndown()
        burndown.add([
            change(1, .created, 1, on: "2026-11-28"), change(2, .deleted, 1, on: "2026-11-28", deleted: true, undoes: 1),
            change(3, .restored, 1, on: "2026-11-29", undoes: 2),
        ])
        #expect(counts(burndown, "2026-11-28", "2026-11-29") == ["2026-11-28 0 0 0", "2026-11-29 1 0 1"], "\(counts(burndown, "2026-11-28", "2026-11-29"))")
    }

    @Test("an undo on a later day leaves the days before as they were: it counts on its own day")
    func laterUndoKeepsThePast() {
        var burndown = Burndown()
        burndown.add([change(1, .created, 1, on: "2026-11-28"), change(2, .completed, 1, on: "2026-11-28", done: true)])
        let before = counts(burndown, "2026-11-28", "2026-11-28")
        burndown.add([change(3, .reopened, 1, on: "2026-11-29", undoes: 2), change(4, .deleted, 1, on: "2026-11-30", deleted: true, undoes: 1)])
        #expect(before == ["2026-11-28 0 1 1"], "\(before)")
        #expect(counts(burndown, "2026-11-28", "2026-11-30") == ["2026-11-28 0 1 1", "2026-11-29 1 0 0", "2026-11-30 0 0 0"], "\(counts(burndown, "2026-11-28", "2026-11-30"))")
    }

    @Test("done counts todos done that day, net: done, reopened and done again is one; done then reopened is none")
    func doneIsNet() {
        var burndown = Burndown()
        burndown.add([
            change(1, .created, 1, on: "2026-11-27"), change(2, .created, 2, on: "2026-11-27"),
            change(3, .completed, 1, on: "2026-11-28", done: true), change(4, .reopened, 1, on: "2026-11-28"),
            change(5, .completed, 1, on: "2026-11-28", done: true),
            change(6, .completed, 2, on: "2026-11-28", done: true), change(7, .reopened, 2, on: "2026-11-28"),
        ])
        #expect(counts(burndown, "2026-11-28", "2026-11-28") == ["2026-11-28 1 1 0"], "\(counts(burndown, "2026-11-28", "2026-11-28"))")
    }
}
