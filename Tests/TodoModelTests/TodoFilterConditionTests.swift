import Foundation
import Testing
import TodoModel

@Suite("TodoFilter's conditions: tags, dates, and the wire form")
struct TodoFilterConditionTests {
    private static let todos = [
        Todo(number: 1, title: "Tax return", due: day("2026-11-21"), tags: ["home", "admin"], createdAt: at(0)),
        Todo(number: 2, title: "Buy milk", notes: "semi-skimmed", due: day("2026-11-24"), tags: ["home", "errands"], createdAt: at(0)),
        Todo(number: 3, title: "Call mum", priority: .high, createdAt: at(0)),
        Todo(number: 4, title: "Pay rent", due: day("2026-11-23"), tags: ["admin"], createdAt: at(0)),
    ]

    private func numbers(_ filter: TodoFilter) -> [Int] {
        Self.todos.filter(filter.matches).map(\.number)
    }

    @Test("several tags must all be on the todo")
    func allTags() {
        #expect(numbers(TodoFilter(tags: ["home", "admin"])) == [1])
        #expect(numbers(TodoFilter(tags: ["home"])) == [1, 2])
        #expect(numbers(TodoFilter(tag: "admin", tags: ["home"])) == [1])
    }

    @Test("not-tags leave out a todo with any of them")
    func notTags() {
        #expect(numbers(TodoFilter(notTags: ["admin"])) == [2, 3])
        #expect(numbers(TodoFilter(tags: ["home"], notTags: ["errands"])) == [1])
    }

    @Test("due before and after are strict, leave out undated todos, and combine")
    func dueRange() {
        #expect(numbers(TodoFilter(dueBefore: day("2026-11-23"))) == [1])
        #expect(numbers(TodoFilter(dueAfter: day("2026-11-23"))) == [2])
        #expect(numbers(TodoFilter(dueBefore: day("2026-11-25"), dueAfter: day("2026-11-21"))) == [2, 4])
        #expect(numbers(TodoFilter(dueOn: day("2026-11-23"))) == [4])
        #expect(numbers(TodoFilter(noDue: true)) == [3])
    }

    @Test("scheduled before and after are strict and leave out unscheduled todos")
    func scheduledRange() {
        let todos = [
            Todo(number: 1, title: "a", createdAt: at(0), scheduled: day("2026-11-21")),
            Todo(number: 2, title: "b", createdAt: at(0), scheduled: day("2026-11-24")),
            Todo(number: 3, title: "c", createdAt: at(0)),
        ]
        #expect(todos.filter(TodoFilter(scheduledBefore: day("2026-11-24")).matches).map(\.number) == [1])
        #expect(todos.filter(TodoFilter(scheduledAfter: day("2026-11-21")).matches).map(\.number) == [2])
        #expect(todos.filter(TodoFilter().matches).map(\.number) == [1, 2, 3])
    }

    @Test("until before and after are strict and leave out todos without an until day; hasUntil asks for one")
    func untilRange() {
        let todos = [
            Todo(number: 1, title: "a", createdAt: at(0), until: day("2026-11-21")),
            Todo(number: 2, title: "b", createdAt: at(0), until: day("2026-11-24")),
            Todo(number: 3, title: "c", createdAt: at(0), scheduled: day("2026-11-22")),
        ]
        #expect(todos.filter(TodoFilter(untilBefore: day("2026-11-24")).matches).map(\.number) == [1])
        #expect(todos.filter(TodoFilter(untilAfter: day("2026-11-21")).matches).map(\.number) == [2])
        #expect(todos.filter(TodoFilter(untilBefore: day("2026-11-30"), untilAfter: day("2026-11-21")).matches).map(\.number) == [2])
        #expect(todos.filter(TodoFilter(hasUntil: true).matches).map(\.number) == [1, 2])
        let coded = try? JSONDecoder().decode(TodoFilter.self, from: JSONEncoder().encode(TodoFilter(hasUntil: true, untilBefore: day("2026-12-01"), untilAfter: day("2026-11-01"))))
        #expect(coded == TodoFilter(hasUntil: true, untilBefore: day("2026-12-01"), untilAfter: day("2026-11-01")))
    }

    @Test("search finds text in the title or notes in any case; priority is exact")
    func searchAndPriority() {
        #expect(numbers(TodoFilter(search: "SKIMMED")) == [2])
        #expect(numbers(TodoFilter(search: "pay")) == [4])
        #expect(numbers(TodoFilter(priority: .high)) == [3])
    }

    @Test("matching without the status keeps completed and deleted todos that meet the rest")
    func ignoringStatus() {
        let done = Todo(number: 5, title: "x", tags: ["home"], createdAt: at(0), completedAt: at(1))
        #expect(!TodoFilter(tags: ["home"]).matches(done))
        #expect(TodoFilter(tags: ["home"]).matchesIgnoringStatus(done))
        #expect(!TodoFilter(tags: ["work"]).matchesIgnoringStatus(done))
    }

    @Test("the wire form: an old single tag is still read, one tag is written as tag, more as tags")
    func wireForm() throws {
        let decoder = JSONDecoder()
        let old = try decoder.decode(TodoFilter.self, from: Data(#"{"tag":"home"}"#.utf8))
        #expect(old == TodoFilter(tags: ["home"]))
        let both = try decoder.decode(TodoFilter.self, from: Data(#"{"tag":"home","tags":["admin","home"]}"#.utf8))
        #expect(both.tags == ["home", "admin"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let one = String(decoding: try encoder.encode(TodoFilter(tags: ["home"])), as: UTF8.self)
        #expect(one == #"{"status":"open","tag":"home"}"#)
        let full = TodoFilter(
            status: .all, tags: ["a", "b"], notTags: ["c"], priority: .low, search: "s",
            dueBefore: day("2026-12-01"), dueAfter: day("2026-11-01"), dueOn: day("2026-11-15"), noDue: false)
        let text = String(decoding: try encoder.encode(full), as: UTF8.self)
        #expect(text == #"{"dueAfter":"2026-11-01","dueBefore":"2026-12-01","dueOn":"2026-11-15","notTags":["c"],"priority":"low","search":"s","status":"all","tags":["a","b"]}"#)
        #expect(try decoder.decode(TodoFilter.self, from: Data(text.utf8)) == full)
        #expect(try decoder.decode(TodoFilter.self, from: Data(#"{"noDue":true}"#.utf8)).noDue)
        let pressing = TodoFilter(pressingOn: day("2026-11-26"))
        let pressingText = String(decoding: try encoder.encode(pressing), as: UTF8.self)
        #expect(pressingText == #"{"pressingOn":"2026-11-26","status":"open"}"#)
        #expect(try decoder.decode(TodoFilter.self, from: Data(pressingText.utf8)) == pressing)
    }
}

@Suite("Projects: a field of the todo, with sub-projects")
struct ProjectFilterTests {
    private func todo(_ project: String?, tags: [String] = []) -> Todo {
        Todo(number: 1, title: "t", tags: tags, createdAt: Date(timeIntervalSince1970: 0), project: project)
    }

    @Test("a project:home filter matches home and home.garden, not homework, nor a todo without a project")
    func hierarchy() {
        let filter = TodoFilter(project: "home")
        #expect(filter.matches(todo("home")))
        #expect(filter.matches(todo("home.garden")))
        #expect(!filter.matches(todo("homework")))
        #expect(!filter.matches(todo(nil, tags: ["home"])))
        #expect(TodoFilter(project: "home.garden").matches(todo("home.garden.shed")))
        #expect(!TodoFilter(project: "home.garden").matches(todo("home")), "a sub-project's filter leaves its parent out")
    }

    @Test("an empty project filter matches the todos in no project")
    func none() {
        #expect(TodoFilter(project: "").matches(todo(nil)))
        #expect(!TodoFilter(project: "").matches(todo("home")))
    }

    @Test("an older client's project:home tag filter asks for the project, sub-projects included; a tag is still a tag")
    func olderClientsTag() {
        #expect(TodoFilter(tags: ["project:home"]).matches(todo("home.garden")))
        #expect(!TodoFilter(tags: ["project:home"]).matches(todo("homework")))
        #expect(!TodoFilter(notTags: ["project:home"]).matches(todo("home.garden")))
        #expect(TodoFilter(notTags: ["project:home"]).matches(todo("work")))
        #expect(!TodoFilter(tags: ["home"]).matches(todo("home")), "a project is not a tag")
    }

    @Test("the project filter is written only when given, and read back")
    func wireForm() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(TodoFilter(project: "home.garden")), as: UTF8.self)
        #expect(text == #"{"project":"home.garden","status":"open"}"#)
        #expect(try JSONDecoder().decode(TodoFilter.self, from: Data(text.utf8)) == TodoFilter(project: "home.garden"))
        #expect(try JSONDecoder().decode(TodoFilter.self, from: Data(#"{"status":"open"}"#.utf8)).project == nil)
    }
}
