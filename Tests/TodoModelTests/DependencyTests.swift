import Foundation
import Testing
import TodoModel

/// What a todo waits for (`depends`): refused on itself, an unknown or deleted todo and a
/// cycle; blocked and blocking derived from the todos as they are, merged as a set when shared.
@Suite("Dependencies between todos")
struct DependencyTests {
    static let t0 = Date(millisecondsSince1970: 1_780_000_000_000)

    /// #1 Buy flour, #2 Buy eggs, #3 Bake cake (waits for #1 and #2), #4 Eat cake (waits for #3), #5 deleted.
    static let todos: [Todo] = {
        let flour = Todo(number: 1, title: "Buy flour", createdAt: t0)
        let eggs = Todo(number: 2, title: "Buy eggs", createdAt: t0)
        let bake = Todo(number: 3, title: "Bake cake", createdAt: t0, depends: [flour.id, eggs.id])
        let eat = Todo(number: 4, title: "Eat cake", createdAt: t0, depends: [bake.id])
        let gone = Todo(number: 5, title: "Old", createdAt: t0, deletedAt: t0)
        return [flour, eggs, bake, eat, gone]
    }()

    private func resolve(
        _ number: Int?, clear: Bool = false, added: [Int] = [], removed: [Int] = [], in todos: [Todo] = todos
    ) throws -> Result<[UUID], TodoModelError> {
        let todo = number.flatMap { number in todos.first { $0.number == number } }
        return try DependencyRule.resolve(
            todo: todo, current: todo?.depends ?? [], clear: clear, added: added, removed: removed,
            byNumber: { number in todos.first { $0.number == number } }, byID: { id in todos.first { $0.id == id } })
    }

    private func reason(_ result: Result<[UUID], TodoModelError>) -> String? {
        guard case .failure(.invalid("depends", let reason)) = result else { return nil }
        return reason
    }

    private func id(_ number: Int) -> UUID { Self.todos[number - 1].id }

    @Test("numbers become the ids of the todos, sorted and each once; -N takes one away and clear drops them first")
    func resolvesNumbers() throws {
        #expect(try resolve(nil, added: [2, 1, 2]).get() == Todo.dependencySet([id(1), id(2)]))
        #expect(try resolve(3, removed: [1]).get() == [id(2)])
        #expect(try resolve(3, clear: true, added: [1]).get() == [id(1)])
        #expect(try resolve(3, clear: true).get() == [])
    }

    @Test("a todo cannot wait for itself, an unknown todo or a deleted one: each refusal says what to do")
    func refusals() throws {
        #expect(reason(try resolve(3, added: [3])) == "#3 cannot wait for itself: name the other todos it waits for (depends:3,5)")
        #expect(reason(try resolve(nil, added: [99])) == "there is no todo #99: " + RuleAdvice.nameAnExistingTodo)
        #expect(reason(try resolve(1, added: [5])) == "#5 is deleted: " + RuleAdvice.restoreOrNameAnother)
    }

    @Test("a cycle is refused, however far round, naming the way round and the dependency to take away")
    func cycles() throws {
        #expect(reason(try resolve(1, added: [3])) == "#3 already waits for #1 (#1 → #3 → #1), and a todo cannot wait for one that waits for it: take one dependency away first (edit 3 depends:-1)")
        #expect(reason(try resolve(1, added: [4])) == "#4 already waits for #1 (#1 → #4 → #3 → #1), and a todo cannot wait for one that waits for it: take one dependency away first (edit 3 depends:-1)")
        // Two todos waiting for the same one is no cycle.
        #expect(try resolve(4, added: [1]).get() == Todo.dependencySet([id(3), id(1)]))
    }

    @Test("blocked while a dependency is open; completing it unblocks, with nothing stored; blocking while an open todo waits for it")
    func blockedDerived() {
        var todos = Self.todos
        var dependencies = Dependencies(todos)
        #expect(todos.filter(dependencies.isBlocked).map(\.number) == [3, 4])
        #expect(todos.filter(dependencies.isBlocking).map(\.number) == [1, 2, 3])
        todos[0].completedAt = Self.t0
        todos[1].completedAt = Self.t0
        dependencies = Dependencies(todos)
        #expect(todos.filter(dependencies.isBlocked).map(\.number) == [4])
        #expect(todos.filter(dependencies.isBlocking).map(\.number) == [3])
        #expect(todos.filter { dependencies.matches($0, TodoFilter(blocked: false)) }.map(\.number) == [1, 2, 3, 5])
        #expect(todos.filter { dependencies.matches($0, TodoFilter(blocking: true)) }.map(\.number) == [3])
    }

    @Test("depends:N finds the todos waiting for each todo named, whatever its state; +READY is open, not blocked, not waiting and not scheduled after today")
    func waitingForAndReady() {
        var todos = Self.todos
        let today = LocalDate(year: 2026, month: 11, day: 23)!
        todos[1].completedAt = Self.t0
        var later = Todo(number: 6, title: "Plan party", createdAt: Self.t0)
        later.scheduled = today.adding(days: 1)
        var now = Todo(number: 7, title: "Sweep", createdAt: Self.t0)
        now.scheduled = today
        var waiting = Todo(number: 8, title: "Wait", createdAt: Self.t0)
        waiting.wait = today.adding(days: 3)
        todos += [later, now, waiting]
        let dependencies = Dependencies(todos)
        func listed(_ filter: TodoFilter) -> [Int] {
            todos.filter { filter.matches($0, today: today) && dependencies.matches($0, filter) }.map(\.number)
        }
        #expect(listed(TodoFilter(dependsOn: [2])) == [3])
        #expect(listed(TodoFilter(dependsOn: [1, 2])) == [3])
        #expect(listed(TodoFilter(dependsOn: [3])) == [4])
        #expect(listed(TodoFilter(dependsOn: [99])) == [])
        #expect(listed(TodoFilter(ready: true)) == [1, 7])
        #expect(listed(TodoFilter(hasScheduled: true)) == [6, 7])
        #expect(TodoFilter(ready: true).readsOtherTodos && TodoFilter(dependsOn: [1]).readsOtherTodos && !TodoFilter(hasScheduled: true).readsOtherTodos)
    }

    @Test("dependencies added and taken away on two machines are all kept, as tags are, not a conflict")
    func offlineMerge() {
        let base = Self.todos[3]
        var local = base
        local.depends = base.depends + [id(1)]
        local.revision += 1
        var theirs = base
        theirs.depends = [id(2)]
        theirs.revision += 1
        let outcome = OfflineRebase.rebase(before: base, after: local, onto: theirs)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.todo?.depends == Todo.dependencySet([id(1), id(2)]))
    }

    @Test("depends goes out as lowercase ids only when there are any, and reads back; a row carries it too")
    func coding() throws {
        let bake = Self.todos[2]
        let json = String(decoding: try JSONEncoder().encode(bake), as: UTF8.self)
        #expect(json.contains("\"depends\":[\"\(bake.depends[0].uuidString.lowercased())\""))
        #expect(try JSONDecoder().decode(Todo.self, from: Data(json.utf8)) == bake)
        #expect(!String(decoding: try JSONEncoder().encode(Self.todos[0]), as: UTF8.self).contains("depends"))
        #expect(bake.row.depends == bake.depends)
    }
}
