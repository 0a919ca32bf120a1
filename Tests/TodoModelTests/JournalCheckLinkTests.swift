import Foundation
import Testing
@testable import TodoModel

/// What `todod --check` sees besides the journal: the number counter and the links
/// between todos, which a change behind todod's back breaks while every entry stays whole.
@Suite("The check of counters and links")
struct JournalCheckLinkTests {
    static let t0 = Date(millisecondsSince1970: 1_780_000_000_000)

    @Test("a number counter below the highest number is named, with the number to set")
    func counterBelowHighest() {
        let table = [Todo(number: 1, title: "a", createdAt: Self.t0), Todo(number: 3, title: "b", createdAt: Self.t0)]
        let problems = JournalCheck.links(table, lastNumber: 1)
        #expect(problems.count == 1 && problems[0].contains("the number counter says 1 but #3 exists"), "\(problems)")
        #expect(problems.first?.contains("SET value = 3") == true, "\(problems)")
        #expect(JournalCheck.links(table, lastNumber: 3).isEmpty, "\(JournalCheck.links(table, lastNumber: 3))")
    }

    @Test("a live subtask of a missing todo, a todo its own parent, and a previous occurrence made later are named")
    func danglingLinks() {
        let table = [
            Todo(number: 1, title: "orphan", createdAt: Self.t0, parent: 7),
            Todo(number: 2, title: "its own parent", createdAt: Self.t0, parent: 2),
            Todo(number: 3, title: "repeats a later one", createdAt: Self.t0, previous: 5),
        ]
        let problems = JournalCheck.links(table, lastNumber: 9)
        #expect(problems == [
            "#1 is a subtask of #7, which does not exist",
            "#2 is a subtask of #2, which is itself",
            "#3 repeats #5, which was not made before it",
        ], "\(problems)")
    }

    @Test("what a purge leaves is not a problem: a deleted subtask of a purged todo, an occurrence whose previous one was purged")
    func purgedLinksAreFine() {
        let table = [
            Todo(number: 4, title: "deleted subtask", createdAt: Self.t0, deletedAt: Self.t0, parent: 1),
            Todo(number: 5, title: "next occurrence", createdAt: Self.t0, previous: 2),
        ]
        let problems = JournalCheck.links(table, lastNumber: 5)
        #expect(problems.isEmpty, "\(problems)")
    }
}
