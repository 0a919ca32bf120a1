import EventTestSupport
import Foundation
import Testing
import TodoEvents
import TodoModel
import TodoServers
import TodoViewModel

/// Recurrence, subtasks and waiting through both servers and a real SQLite file.
@Suite("Servers together: planning")
struct PlanningTests {
    private func new(_ title: String, parent: Int? = nil, wait: LocalDate? = nil, every: String? = nil, due: LocalDate? = nil) -> Event {
        .requestNewTodo(NewTodo(title: title, due: due, recurrence: every.flatMap { Recurrence($0) }, parent: parent, wait: wait))
    }

    @Test("the planning fields are stored, survive a restart and are read back")
    func stored() async throws {
        let directory = try TemporaryDirectory()
        let due = LocalDate("2026-01-31")!
        try await withHarness(directory) { h in
            _ = await h.change(new("Pay rent", every: "monthly", due: due))
            _ = await h.change(new("Find the invoice", parent: 1, wait: LocalDate("2026-01-20")))
        }
        try await withHarness(directory) { h in
            let rent = try #require(await h.detail(.number(1)))
            #expect(rent.todo.recurrence == Recurrence(count: 1, unit: .month, basis: .due, dayOfMonth: 31))
            #expect(rent.subtasks.map(\.number) == [2])
            #expect(rent.progress == SubtaskProgress(parent: 1, done: 0, total: 1))
            let invoice = try #require(await h.detail(.number(2)))
            #expect(invoice.todo.parent == 1 && invoice.todo.wait == LocalDate("2026-01-20"))
            #expect(invoice.parentTodo?.title == "Pay rent")
        }
    }

    @Test("a parent must exist, be a todo of its own and not be the todo itself; nothing is written when refused")
    func parentRules() async throws {
        try await withHarness { h in
            await h.create("Paint the house")
            _ = await h.change(new("Buy paint", parent: 1))
            #expect(await h.error(new("Sand", parent: 9))?.message.contains("no todo #9") == true)
            #expect(await h.error(new("Sand", parent: 2))?.message.hasSuffix(RuleAdvice.parentInstead(1)) == true)
            let own = TodoDetailUpdate(ref: .number(1), edit: TodoEdit(parent: 1))
            #expect(await h.error(.requestUpdateTodoDetail(own))?.message.contains("its own parent") == true)
            await h.create("Garden")
            let nested = TodoDetailUpdate(ref: .number(1), edit: TodoEdit(parent: 3))
            #expect(await h.error(.requestUpdateTodoDetail(nested))?.message.contains("subtasks of its own") == true)
            #expect(await h.error(new("Zero", parent: 0))?.code == .validation)
            #expect(await h.list()?.todos.map(\.number).sorted() == [1, 2, 3])
            let moved = await h.change(.requestUpdateTodoDetail(TodoDetailUpdate(ref: .number(2), edit: TodoEdit(clearParent: true))))
            #expect(moved?.todo.todo.parent == nil)
        }
    }

    @Test("a list carries its parents' progress, and the parent of a subtask it selects as context")
    func listContext() async throws {
        try await withHarness { h in
            await h.create("Paint the house")
            _ = await h.change(new("Buy paint", parent: 1))
            _ = await h.change(new("Sand the walls", parent: 1))
            _ = await h.change(.requestCompleteTodo(.number(2)))
            let open = try #require(await h.list(TodoFilter()))
            #expect(open.progress(of: 1) == SubtaskProgress(parent: 1, done: 1, total: 2))
            #expect(open.context.isEmpty)
            let sand = try #require(await h.list(TodoFilter(search: "sand")))
            #expect(sand.todos.map(\.number) == [3])
            #expect(sand.context.map(\.number) == [1])
            #expect(TodoOutline(sand).entries.map { "\($0.row.number):\($0.depth):\($0.isContext)" } == ["1:0:true", "3:1:false"])
        }
    }

    @Test("a parent whose subtasks are all deleted carries no progress, open or deleted: [0/0] says nothing")
    func noProgressWithoutLiveSubtasks() async throws {
        try await withHarness { h in
            await h.create("Trip")
            _ = await h.change(new("Book train", parent: 1))
            _ = await h.change(new("Pack", parent: 1))
            _ = await h.change(.requestDeleteTodo(.number(2)))
            _ = await h.change(.requestDeleteTodo(.number(3)))
            for filter in [TodoFilter(), TodoFilter(status: .all), TodoFilter(status: .deleted)] {
                let list = try #require(await h.list(filter))
                #expect(list.progress.isEmpty, "\(filter): \(list.progress)")
            }
        }
    }

    @Test("a todo waiting for a later day is listed only with `waiting`")
    func waiting() async throws {
        try await withHarness { h in
            await h.create("Now")
            _ = await h.change(new("Later", wait: LocalDate(Date()).adding(days: 3)))
            _ = await h.change(new("Was waiting", wait: LocalDate(Date()).adding(days: -1)))
            #expect(await h.list(TodoFilter())?.todos.map(\.title).sorted() == ["Now", "Was waiting"])
            #expect(await h.list(TodoFilter(waiting: true))?.todos.map(\.title) == ["Later"])
            let stop = TodoDetailUpdate(ref: .number(2), edit: TodoEdit(clearWait: true))
            _ = await h.change(.requestUpdateTodoDetail(stop))
            #expect(await h.list(TodoFilter())?.todos.count == 3)
        }
    }

    @Test("when its day comes, the waiting ends with a change every View receives; open todos only")
    func endWaiting() async throws {
        try await withHarness { h in
            let tomorrow = LocalDate(Date()).adding(days: 1)
            _ = await h.change(new("Call the bank", wait: tomorrow))
            _ = await h.change(new("Later still", wait: tomorrow.adding(days: 1)))
            _ = await h.change(new("Done already", wait: tomorrow))
            _ = await h.change(.requestCompleteTodo(.number(3)))
            let changes = h.bus.subscribe(to: [.responseTodoViewModel])
            #expect(await h.onCore { $0.endWaiting(on: tomorrow) } == 1)
            let woken = await first(from: changes)
            guard case .responseTodoViewModel(let change)? = woken?.view else {
                Issue.record("no change: \(String(describing: woken))")
                return
            }
            #expect(change.todo.number == 1 && change.todo.todo.wait == nil && change.kind == .updated)
            #expect(woken?.correlation == nil)
            #expect(await h.list(TodoFilter())?.todos.map(\.number) == [1])
        }
    }

    @Test("once its until day has passed an open todo is deleted with a change every View receives, and an undo brings it back with its until; done ones and those still in their day are left; the day is in the SQLite file")
    func expire() async throws {
        let directory = try TemporaryDirectory()
        let today = LocalDate("2026-11-23")!
        try await withHarness(directory) { h in
            _ = await h.change(.requestNewTodo(NewTodo(title: "Renew passport", until: today.adding(days: -1))))
            _ = await h.change(.requestNewTodo(NewTodo(title: "Last day today", until: today)))
            _ = await h.change(.requestNewTodo(NewTodo(title: "Done in time", until: today.adding(days: -3))))
            _ = await h.change(.requestCompleteTodo(.number(3)))
            #expect(try h.store.loadAll().todos.first { $0.number == 2 }?.until == today)
            let changes = h.bus.subscribe(to: [.responseTodoViewModel])
            #expect(await h.onCore { $0.expire(on: today) } == 1)
            let expired = await first(from: changes)
            guard case .responseTodoViewModel(let change)? = expired?.view else {
                Issue.record("no change: \(String(describing: expired))")
                return
            }
            #expect(change.todo.number == 1 && change.kind == .deleted)
            #expect(await h.list(TodoFilter())?.todos.map(\.number) == [2])
            // A delete as any other: journaled, so undo restores it.
            let undone = h.bus.subscribe(to: [.responseUndo])
            await h.core.publish(h.bus, .requestUndo(TodoUndo()), correlation: h.nextCorrelation())
            #expect(await first(from: undone) != nil)
            let restored = try #require(await h.detail(.number(1)))
            #expect(!restored.todo.isDeleted && restored.todo.until == today.adding(days: -1))
        }
    }

    @Test("the journal keeps the planning fields: each todo's last entry is the todo as stored")
    func journaled() async throws {
        let directory = try TemporaryDirectory()
        try await withHarness(directory) { h in
            _ = await h.change(new("Pay rent", every: "monthly", due: LocalDate("2026-01-31")))
            _ = await h.change(new("Find the invoice", parent: 1, wait: LocalDate("2026-01-20")))
            _ = await h.change(.requestCompleteTodoWithChildren(.number(1)))
            let (todos, _) = try h.store.loadAll()
            #expect(todos.count == 3)
            #expect(todos.contains { $0.previous == 1 && $0.recurrence?.dayOfMonth == 31 && $0.due == LocalDate("2026-02-28") })
            for todo in todos {
                #expect(try h.store.history(of: todo.id).last?.after == todo)
            }
        }
        #expect(try TodoStore.checkJournal(at: directory.databasePath).differences == [])
    }
}
