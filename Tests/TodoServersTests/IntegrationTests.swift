import EventTestSupport
import Foundation
import NIOCore
import Testing
import TodoEvents
import TodoModel
import TodoServers
import TodoViewModel

/// Both servers and the store on a real SQLite file: publish a view request, await the
/// view response.
@Suite("Servers together")
struct IntegrationTests {
    @Test("a new todo is answered with a created change: number 1, revision 1, correlation kept")
    func newTodo() async throws {
        try await withHarness { h in
            let responses = h.bus.subscribe(to: Harness.viewResponses)
            let correlation = Correlation(client: 9, request: "my-request")
            await h.core.publish(h.bus, .requestNewTodo(NewTodo(title: " Buy milk ", priority: .high, tags: ["#home"])), correlation: correlation)
            let answer = await first(from: responses)
            #expect(answer?.correlation == correlation)
            guard case .responseTodoViewModel(let change)? = answer?.view else {
                Issue.record("expected a change, got \(String(describing: answer?.view))")
                return
            }
            #expect(change.kind == .created)
            #expect(change.todo.number == 1)
            #expect(change.todo.todo.revision == 1)
            #expect(change.todo.title == "Buy milk")
            #expect(change.todo.todo.tags == ["home"])
            #expect(change.todo.priorityMark == "!")
            #expect(change.sequence == 1)
        }
    }

    @Test("the list holds the todos in the default order, current as of the last change")
    func list() async throws {
        try await withHarness { h in
            await h.create("low", priority: .low)
            await h.create("high", priority: .high)
            await h.create("normal")
            _ = await h.change(.requestCompleteTodo(.number(2)))
            let all = try #require(await h.list(TodoFilter(status: .all)))
            #expect(all.todos.map(\.title) == ["normal", "low", "high"])
            #expect(all.asOf == 4)
            #expect(all.filter == TodoFilter(status: .all))
            let open = try #require(await h.list(TodoFilter(status: .open)))
            #expect(open.todos.map(\.title) == ["normal", "low"])
            let completed = try #require(await h.list(TodoFilter(status: .completed)))
            #expect(completed.todos.map(\.title) == ["high"])
            #expect(completed.todos.first?.doneBox == "[x]")
        }
    }

    @Test("the detail of a todo, by number, by id and by id prefix")
    func detail() async throws {
        try await withHarness { h in
            let todo = try #require(await h.create("Plan trip"))
            let byNumber = try #require(await h.detail(.number(1)))
            #expect(byNumber.todo == todo)
            #expect(byNumber.stateText == "open")
            #expect(byNumber.revision == 1)
            #expect(await h.detail(.id(todo.id))?.todo == todo)
            // Eight characters, plus the dash when they are all digits (which would read as a number).
            var text = String(todo.id.uuidString.lowercased().prefix(8))
            if text.allSatisfy(\.isNumber) { text += "-" }
            let prefix = try #require(TodoRef(text))
            #expect(prefix == .idPrefix(text))
            #expect(await h.detail(prefix)?.todo == todo)
        }
    }

    @Test("complete, reopen, toggle, delete, restore and edit each give their kind of change")
    func changeKinds() async throws {
        try await withHarness { h in
            await h.create("t")
            let steps: [(Event, TodoChange.Kind)] = [
                (.requestCompleteTodo(.number(1)), .completed),
                (.requestCompleteTodo(.number(1)), .unchanged),
                (.requestReopenTodo(.number(1)), .reopened),
                (.requestToggleComplete(.number(1)), .completed),
                (.requestToggleComplete(.number(1)), .reopened),
                (.requestDeleteTodo(.number(1)), .deleted),
                (.requestRestoreTodo(.number(1)), .restored),
                (.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), revision: 7, edit: TodoEdit(title: "u"))), .updated),
            ]
            var sequence: UInt64 = 1
            var revision = 1
            for (request, kind) in steps {
                let change = try #require(await h.change(request))
                #expect(change.kind == kind, "\(request)")
                if kind == .unchanged {
                    #expect(change.sequence == 0)
                    #expect(change.todo.todo.revision == revision)
                } else {
                    sequence += 1
                    revision += 1
                    #expect(change.sequence == sequence, "\(request)")
                    #expect(change.todo.todo.revision == revision, "\(request)")
                }
            }
            let final = try #require(await h.detail(.number(1)))
            #expect(final.title == "u" && final.revision == 8 && final.stateText == "open")
            #expect(await h.onCore { $0.lastChange } == 8)
        }
    }

    @Test("a deleted todo is listed only under deleted; changing it asks to restore it first")
    func deletedTodo() async throws {
        try await withHarness { h in
            await h.create("keep")
            await h.create("drop")
            _ = await h.change(.requestDeleteTodo(.number(2)))
            #expect(await h.list(TodoFilter(status: .all))?.todos.map(\.number) == [1])
            #expect(await h.list(TodoFilter(status: .deleted))?.todos.map(\.number) == [2])
            let error = try #require(await h.error(.requestCompleteTodo(.number(2))))
            #expect(error.code == .deleted)
            #expect(error.todo?.number == 2)
            #expect(await h.detail(.number(2))?.stateText == "deleted")
        }
    }

    @Test("closing and reopening the database reads back the same todos")
    func reopen() async throws {
        let directory = try TemporaryDirectory()
        var before: TodoViewModelList?
        try await withHarness(directory) { h in
            await h.create("one", priority: .high)
            _ = await h.change(.requestNewTodo(NewTodo(
                title: "two", notes: "line 1\nline 2", priority: .low, due: LocalDate("2026-12-24"), tags: ["a", "b"])))
            await h.create("three")
            _ = await h.change(.requestCompleteTodo(.number(1)))
            _ = await h.change(.requestDeleteTodo(.number(3)))
            _ = await h.change(.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(2), revision: 1, edit: TodoEdit(addTags: ["c"]))))
            before = await h.list(TodoFilter(status: .all))
        }
        let written = try #require(before)
        #expect(written.todos.count == 2)
        try await withHarness(directory) { h in
            let after = try #require(await h.list(TodoFilter(status: .all)))
            #expect(after.todos.map(\.todo) == written.todos.map(\.todo))
            #expect(after.asOf == written.asOf)
            #expect(after.todos.first { $0.number == 2 }?.todo.tags == ["a", "b", "c"])
            #expect(await h.list(TodoFilter(status: .deleted))?.todos.map(\.title) == ["three"])
            let counts = await h.onCore { $0.counts }
            #expect(counts.open == 1 && counts.completed == 1 && counts.deleted == 1)
            // Change numbers continue where they were.
            #expect(await h.change(.requestReopenTodo(.number(1)))?.sequence == written.asOf + 1)
        }
    }

    @Test("numbers are never reused after a delete, also across a reopen")
    func numbersNeverReused() async throws {
        let directory = try TemporaryDirectory()
        try await withHarness(directory) { h in
            for title in ["a", "b", "c"] { await h.create(title) }
            _ = await h.change(.requestDeleteTodo(.number(3)))
            #expect(await h.create("d")?.number == 4)
            _ = await h.change(.requestDeleteTodo(.number(4)))
        }
        try await withHarness(directory) { h in
            #expect(await h.create("e")?.number == 5)
            #expect(await h.list(TodoFilter(status: .all))?.todos.map(\.number).sorted() == [1, 2, 5])
        }
    }
}

@Suite("Servers together: refusals")
struct RefusalTests {
    @Test("an edit based on a stale revision is a conflict carrying the current todo")
    func conflict() async throws {
        try await withHarness { h in
            await h.create("original")
            let first = try #require(await h.change(.requestUpdateTodoDetail(
                TodoDetailUpdate(ref: .number(1), revision: 1, edit: TodoEdit(title: "first edit")))))
            #expect(first.todo.todo.revision == 2)
            let error = try #require(await h.error(.requestUpdateTodoDetail(
                TodoDetailUpdate(ref: .number(1), revision: 1, edit: TodoEdit(title: "second edit")))))
            #expect(error.code == .conflict)
            #expect(error.todo?.todo.revision == 2)
            #expect(error.todo?.title == "first edit")
            #expect(await h.detail(.number(1))?.title == "first edit")
        }
    }

    @Test("a todo that does not exist is not found, for reads and writes")
    func notFound() async throws {
        try await withHarness { h in
            await h.create("only")
            for request: Event in [
                .requestTodoDetail(.number(99)), .requestCompleteTodo(.number(99)), .requestDeleteTodo(.number(99)),
                .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(99), edit: TodoEdit(title: "x"))),
                .requestToggleComplete(.id(UUID())),
            ] {
                let error = await h.error(request)
                #expect(error?.code == .notFound, "\(request)")
            }
            #expect(await h.error(.requestTodoDetail(.number(99)))?.message.contains("#99") == true)
            #expect(await h.onCore { $0.lastChange } == 1)
        }
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var name: String
        var request: Event
        var field: String
        var testDescription: String { name }
    }

    static let invalid: [Invalid] = [
        Invalid(name: "empty title", request: .requestNewTodo(NewTodo(title: "")), field: "title"),
        Invalid(name: "whitespace title", request: .requestNewTodo(NewTodo(title: " \t ")), field: "title"),
        Invalid(name: "title of 501 characters", request: .requestNewTodo(NewTodo(title: String(repeating: "x", count: 501))), field: "title"),
        Invalid(name: "multi-line title", request: .requestNewTodo(NewTodo(title: "one\ntwo")), field: "title"),
        Invalid(name: "notes over 64 KiB", request: .requestNewTodo(NewTodo(title: "t", notes: String(repeating: "n", count: 65_537))), field: "notes"),
        Invalid(name: "33 tags", request: .requestNewTodo(NewTodo(title: "t", tags: (1...33).map { "t\($0)" })), field: "tags"),
        Invalid(name: "tag with a space", request: .requestNewTodo(NewTodo(title: "t", tags: ["two words"])), field: "tags"),
        Invalid(name: "edit: emptied title",
                request: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), revision: 1, edit: TodoEdit(title: "  "))), field: "title"),
        Invalid(name: "edit: long title",
                request: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(title: String(repeating: "x", count: 501)))), field: "title"),
        Invalid(name: "edit: multi-line title",
                request: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(title: "a\r\nb"))), field: "title"),
        Invalid(name: "edit: notes over 64 KiB",
                request: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(notes: String(repeating: "é", count: 32_769)))), field: "notes"),
        Invalid(name: "edit: 33 tags",
                request: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(tags: (1...33).map { "t\($0)" }))), field: "tags"),
        Invalid(name: "edit: added tag with a space",
                request: .requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(1), edit: TodoEdit(addTags: ["a b"]))), field: "tags"),
    ]

    @Test("every validation rule refuses the request, names the field, and writes nothing", arguments: invalid)
    func validation(_ invalid: Invalid) async throws {
        try await withHarness { h in
            await h.create("existing")
            let listBefore = try #require(await h.list(TodoFilter(status: .all)))
            let countsBefore = await h.onCore { $0.counts }
            let error = try #require(await h.error(invalid.request))
            #expect(error.code == .validation)
            #expect(error.field == invalid.field)
            #expect(error.message.hasPrefix("\(invalid.field):"))
            // Requests are handled in order, so a write the invalid request caused would
            // be committed before this one: the next number and change show there was none.
            let marker = try #require(await h.change(.requestNewTodo(NewTodo(title: "marker"))))
            #expect(marker.todo.number == 2)
            #expect(marker.sequence == listBefore.asOf + 1)
            let listAfter = try #require(await h.list(TodoFilter(status: .all)))
            #expect(listAfter.todos.filter { $0.title != "marker" }.map(\.todo) == listBefore.todos.map(\.todo))
            let countsAfter = await h.onCore { $0.counts }
            #expect(countsAfter.open == countsBefore.open + 1)
            #expect(countsAfter.completed == countsBefore.completed)
        }
    }
}
