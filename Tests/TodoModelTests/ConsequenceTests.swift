import Foundation
import Testing
import TodoModel

@Suite("What else a mutation changes")
struct ConsequenceTests {
    private let created = Date(timeIntervalSince1970: 1_780_000_000)
    private let now = Date(timeIntervalSince1970: 1_780_086_400)
    private let today = LocalDate("2026-11-22")!

    private func todo(_ number: Int, parent: Int? = nil, every: String? = nil, due: String? = nil, completed: Bool = false, deletedAt: Date? = nil) -> Todo {
        Todo(
            number: number, title: "t\(number)", due: due.flatMap { LocalDate($0) }, createdAt: created,
            completedAt: completed ? created : nil, deletedAt: deletedAt, recurrence: every.flatMap { Recurrence($0) }, parent: parent)
    }

    private func consequences(_ mutation: TodoMutation, _ before: Todo, _ related: RelatedTodos) throws -> TodoConsequences {
        let after = try #require(try mutation.applied(to: before, at: now))
        return try mutation.consequences(of: before, becoming: after, related: related, at: now, today: today)
    }

    @Test("completing a recurring todo makes its next occurrence, due one period on")
    func recurring() throws {
        let water = todo(1, every: "1w", due: "2026-11-20")
        let result = try consequences(.complete(.number(1)), water, RelatedTodos())
        #expect(result.updates.isEmpty)
        #expect(result.creations.count == 1)
        #expect(result.creations.first?.previous == 1)
        #expect(result.creations.first?.todo.due == LocalDate("2026-11-27"))
        #expect(try consequences(.complete(.number(2)), todo(2), RelatedTodos()) == TodoConsequences())
    }

    @Test("a parent with open subtasks is refused, saying --with-children; with it, they are completed too")
    func parentCompletion() throws {
        let parent = todo(1)
        let subtasks = [todo(2, parent: 1), todo(3, parent: 1, completed: true), todo(4, parent: 1, every: "daily", due: "2026-11-22")]
        #expect(throws: TodoModelError.self) { try consequences(.complete(.number(1)), parent, RelatedTodos(subtasks: subtasks)) }
        #expect(throws: TodoModelError.self) { try consequences(.toggleComplete(.number(1)), parent, RelatedTodos(subtasks: subtasks)) }
        let result = try consequences(.completeWithChildren(.number(1)), parent, RelatedTodos(subtasks: subtasks))
        #expect(result.updates.map(\.number) == [2, 4])
        #expect(result.updates.allSatisfy { $0.completedAt == now && $0.revision == 2 && $0.updatedAt == now })
        #expect(result.creations.map(\.previous) == [4])
        #expect(try consequences(.complete(.number(1)), parent, RelatedTodos(subtasks: [subtasks[1]])).updates.isEmpty)
    }

    @Test("reopening deletes the untouched next occurrence, and keeps one that was changed, the reopened todo then no longer repeating")
    func reopen() throws {
        let done = todo(1, every: "1w", due: "2026-11-20", completed: true)
        var touched = todo(3, every: "1w", due: "2026-11-27")
        touched.revision = 2
        let untouched = todo(2, every: "1w", due: "2026-11-27")
        let result = try consequences(.reopen(.number(1)), done, RelatedTodos(followers: [untouched, touched]))
        #expect(result.updates.map(\.number) == [2])
        #expect(result.updates.first?.deletedAt == now)
        #expect(result.creations.isEmpty)
        // The kept one goes on with the series: the reopened todo stops repeating.
        #expect(result.stopsRepeating)
        let alone = try consequences(.reopen(.number(1)), done, RelatedTodos(followers: [untouched]))
        #expect(!alone.stopsRepeating && alone.updates.map(\.number) == [2], "\(alone.updates)")
    }

    @Test("deleting a parent deletes its subtasks at the same instant; restoring restores just those")
    func deleteAndRestore() throws {
        let parent = todo(1)
        let earlier = Date(timeIntervalSince1970: 1_780_040_000)
        let subtasks = [todo(2, parent: 1), todo(3, parent: 1, deletedAt: earlier)]
        let deleted = try consequences(.delete(.number(1)), parent, RelatedTodos(subtasks: subtasks))
        #expect(deleted.updates.map(\.number) == [2])
        #expect(deleted.updates.first?.deletedAt == now)
        var gone = parent
        gone.deletedAt = now
        let restored = try consequences(.restore(.number(1)), gone, RelatedTodos(subtasks: deleted.updates + [subtasks[1]]))
        #expect(restored.updates.map(\.number) == [2])
        #expect(restored.updates.first?.deletedAt == nil)
    }

    @Test("a subtask is not restored while its parent is deleted")
    func orphanRestore() throws {
        let parent = todo(1, deletedAt: created)
        let subtask = todo(2, parent: 1, deletedAt: created)
        var reason = ""
        do { _ = try consequences(.restore(.number(2)), subtask, RelatedTodos(parent: parent)) } catch { reason = "\(error)" }
        #expect(reason.contains("restore #1"))
    }
}
