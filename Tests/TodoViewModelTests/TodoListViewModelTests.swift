import Foundation
import Testing
import TodoModel
import TodoViewModel

/// A small world of todos and the events that change them.
enum ListWorld {
    static let a = Todo(number: 1, title: "A open high", priority: .high, createdAt: at(1), revision: 1)
    static let b = Todo(number: 2, title: "B open normal", createdAt: at(2), revision: 1)
    static let c = Todo(number: 3, title: "C open low", priority: .low, createdAt: at(3), revision: 1)
    static let d = Todo(number: 4, title: "D completed normal", createdAt: at(4), updatedAt: at(5), completedAt: at(5), revision: 2)
    static let e = Todo(number: 5, title: "E deleted", createdAt: at(5), updatedAt: at(6), deletedAt: at(6), revision: 2)
    static let g = Todo(number: 7, title: "G completed low", priority: .low, createdAt: at(6), updatedAt: at(7), completedAt: at(7), revision: 2)
    static let h = Todo(number: 8, title: "H deleted low", priority: .low, createdAt: at(7), updatedAt: at(8), deletedAt: at(8), revision: 2)
    static let all = [a, b, c, d, e, g, h]

    /// The list under `status` as a list answer current as of change 10 would give it.
    static func list(_ status: TodoFilter.Status) -> TodoListViewModel {
        let filter = TodoFilter(status: status)
        let rows = all.filter(filter.matches).sorted(by: Todo.precedesInDefaultOrder).map { TodoViewModel($0) }
        return TodoListViewModel(filter: filter, rows: rows, asOf: 10, today: today)
    }

    /// `todo` after a committed write: one revision on.
    static func written(_ todo: Todo, _ change: (inout Todo) -> Void) -> Todo {
        var next = todo
        change(&next)
        next.revision += 1
        next.updatedAt = at(20)
        return next
    }

    enum Scenario: String, CaseIterable, Sendable {
        case created, updatedInPlace, updatedWithMove, completed, reopened, deleted, restored

        var change: TodoChange {
            switch self {
            case .created:
                TodoChange(kind: .created, todo: TodoViewModel(Todo(number: 6, title: "F new", createdAt: at(10))), sequence: 11)
            case .updatedInPlace:
                TodoChange(kind: .updated, todo: TodoViewModel(written(b) { $0.title = "B renamed" }), sequence: 11)
            case .updatedWithMove:
                TodoChange(kind: .updated, todo: TodoViewModel(written(c) { $0.priority = .high }), sequence: 11)
            case .completed:
                TodoChange(kind: .completed, todo: TodoViewModel(written(b) { $0.completedAt = at(20) }), sequence: 11)
            case .reopened:
                TodoChange(kind: .reopened, todo: TodoViewModel(written(d) { $0.completedAt = nil }), sequence: 11)
            case .deleted:
                TodoChange(kind: .deleted, todo: TodoViewModel(written(b) { $0.deletedAt = at(20) }), sequence: 11)
            case .restored:
                TodoChange(kind: .restored, todo: TodoViewModel(written(e) { $0.deletedAt = nil }), sequence: 11)
            }
        }
    }

    typealias Change = TodoListViewModel.Change

    /// What each list must redraw for each event. Order in the lists:
    /// open [A, B, C]; completed [D, G]; deleted [E, H]; all [A, B, C, D, G].
    static let expectations: [(TodoFilter.Status, Scenario, Change)] = [
        // F is normal and newer than B: it goes between A and B.
        (.open, .created, .insert(at: 1)),
        (.open, .updatedInPlace, .update(at: 1)),
        // C becomes high and is newer than A: it moves to the top.
        (.open, .updatedWithMove, .move(from: 2, to: 0)),
        // A todo completed while the open list is shown leaves it.
        (.open, .completed, .delete(at: 1)),
        (.open, .reopened, .insert(at: 1)),
        (.open, .deleted, .delete(at: 1)),
        (.open, .restored, .insert(at: 1)),

        (.completed, .created, .none),
        (.completed, .updatedInPlace, .none),
        (.completed, .updatedWithMove, .none),
        // ...and enters the completed list, after D (newer).
        (.completed, .completed, .insert(at: 1)),
        (.completed, .reopened, .delete(at: 0)),
        (.completed, .deleted, .none),
        (.completed, .restored, .none),

        (.deleted, .created, .none),
        (.deleted, .updatedInPlace, .none),
        (.deleted, .updatedWithMove, .none),
        (.deleted, .completed, .none),
        (.deleted, .reopened, .none),
        (.deleted, .deleted, .insert(at: 1)),
        (.deleted, .restored, .delete(at: 0)),

        (.all, .created, .insert(at: 1)),
        (.all, .updatedInPlace, .update(at: 1)),
        (.all, .updatedWithMove, .move(from: 2, to: 0)),
        // B moves below the open ones and below D, which is newer.
        (.all, .completed, .move(from: 1, to: 3)),
        (.all, .reopened, .move(from: 3, to: 1)),
        (.all, .deleted, .delete(at: 1)),
        (.all, .restored, .insert(at: 1)),
    ]
}

@Suite("TodoListViewModel")
struct TodoListViewModelTests {
    typealias Change = TodoListViewModel.Change

    @Test("every kind of change under every filter", arguments: ListWorld.expectations)
    func changeUnderFilter(status: TodoFilter.Status, scenario: ListWorld.Scenario, expected: Change) {
        var list = ListWorld.list(status)
        let change = scenario.change
        #expect(list.incorporate(change) == expected)
        // The rows are what a fresh list answer would hold now.
        let now = ListWorld.all.filter { $0.id != change.todo.id } + [change.todo.todo]
        let fresh = now.filter(list.filter.matches).sorted(by: Todo.precedesInDefaultOrder)
        #expect(list.rows.map(\.todo) == fresh)
        #expect(list.asOf == 11)
    }

    @Test("a row updated in place, and a row whose update moves it, under every filter", arguments: [
        (TodoFilter.Status.open, 1, 2, 0), (.completed, 0, 1, 0), (.deleted, 0, 1, 0), (.all, 1, 2, 0),
    ])
    func updatesUnderFilter(status: TodoFilter.Status, inPlaceAt: Int, moveFrom: Int, moveTo: Int) throws {
        // Rows of each list: B and C are open, D and G completed, E and H deleted.
        let (inPlace, moving) = switch status {
        case .open, .all: (ListWorld.b, ListWorld.c)
        case .completed: (ListWorld.d, ListWorld.g)
        case .deleted: (ListWorld.e, ListWorld.h)
        }
        var list = ListWorld.list(status)
        #expect(list.index(of: inPlace.id) == inPlaceAt)
        let renamed = ListWorld.written(inPlace) { $0.title += " renamed" }
        #expect(list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(renamed), sequence: 11)) == .update(at: inPlaceAt))
        #expect(list.rows[inPlaceAt].todo == renamed)
        // Raised to high, the low row goes to the top of its part of the list.
        #expect(list.index(of: moving.id) == moveFrom)
        let raised = ListWorld.written(moving) { $0.priority = .high }
        #expect(list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(raised), sequence: 12)) == .move(from: moveFrom, to: moveTo))
        #expect(list.rows[moveTo].todo == raised)
        #expect(list.rows.count == ListWorld.list(status).rows.count)
    }

    @Test("the table covers every scenario under every filter")
    func tableIsComplete() {
        for status in TodoFilter.Status.allCases {
            let scenarios = ListWorld.expectations.filter { $0.0 == status }.map(\.1.rawValue)
            #expect(Set(scenarios) == Set(ListWorld.Scenario.allCases.map(\.rawValue)), "\(status)")
        }
    }

    @Test("a todo's wait is judged on the list's day, which its View moves on, not on the machine's clock")
    func waitOnTheListsDay() {
        let waiting = Todo(number: 9, title: "Call the bank", createdAt: at(1), wait: day("2026-11-25"))
        var list = TodoListViewModel(filter: TodoFilter(status: .open), rows: [TodoViewModel(waiting)], today: today)
        #expect(list.rows.isEmpty)
        list.today = day("2026-11-25")
        let woken = TodoChange(kind: .updated, todo: TodoViewModel(ListWorld.written(waiting) { $0.title = "Call the bank today" }), sequence: 11)
        #expect(list.incorporate(woken) == .insert(at: 0))
        list.today = day("2026-11-24")
        list.show(TodoFilter(status: .open))
        #expect(list.rows.isEmpty)
    }

    @Test("init filters and sorts the rows; counts open and completed")
    func initSortsAndFilters() {
        let list = TodoListViewModel(filter: TodoFilter(status: .all), rows: ListWorld.all.reversed().map { TodoViewModel($0) }, today: today)
        #expect(list.rows.map(\.number) == [1, 2, 3, 4, 7])
        #expect(list.openCount == 3)
        #expect(list.completedCount == 2)
        #expect(list.index(of: ListWorld.c.id) == 2)
        #expect(list.index(of: ListWorld.e.id) == nil)
    }

    @Test("a change with the same or an older revision is ignored")
    func staleRevision() {
        var list = ListWorld.list(.open)
        let current = list
        var stale = ListWorld.b
        stale.title = "stale copy"
        #expect(list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(stale), sequence: 11)) == .none)
        stale.revision = 0
        #expect(list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(stale), sequence: 12)) == .none)
        #expect(list.rows == current.rows)
        // Also without a sequence number (a todo taken on its own).
        #expect(list.incorporate(TodoViewModel(stale)) == .none)
    }

    @Test("a change the list is already current as of is ignored, even with a newer revision")
    func oldSequence() {
        var list = ListWorld.list(.open)
        let renamed = TodoViewModel(ListWorld.written(ListWorld.b) { $0.title = "B renamed" })
        #expect(list.incorporate(TodoChange(kind: .updated, todo: renamed, sequence: 9)) == .none)
        #expect(list.incorporate(TodoChange(kind: .updated, todo: renamed, sequence: 10)) == .none)
        #expect(list.rows[1].title == "B open normal")
        #expect(list.asOf == 10)
        #expect(list.incorporate(TodoChange(kind: .updated, todo: renamed, sequence: 11)) == .update(at: 1))
        #expect(list.rows[1].title == "B renamed")
        #expect(list.asOf == 11)
        // The asker's own "unchanged" answer carries sequence 0 and is taken on its revision.
        #expect(list.incorporate(TodoChange(kind: .unchanged, todo: renamed, sequence: 0)) == .none)
        #expect(list.asOf == 11)
    }

    @Test("a list answer reloads only when it shows something else")
    func incorporateList() {
        var list = ListWorld.list(.open)
        let same = TodoViewModelList(filter: TodoFilter(status: .open), todos: list.rows, asOf: 12)
        #expect(list.incorporate(same) == .none)
        #expect(list.asOf == 12)

        let renamed = TodoViewModel(ListWorld.written(ListWorld.b) { $0.title = "B renamed" })
        let changed = TodoViewModelList(filter: TodoFilter(status: .open), todos: [list.rows[0], renamed, list.rows[2]], asOf: 13)
        #expect(list.incorporate(changed) == .reload)
        #expect(list.rows[1].title == "B renamed")
        #expect(list.asOf == 13)

        let otherFilter = TodoViewModelList(filter: TodoFilter(status: .open, tag: "x"), todos: list.rows, asOf: 13)
        #expect(list.incorporate(otherFilter) == .reload)
        #expect(list.filter.tag == "x")

        // A list answer in another order is sorted, so it is no change.
        var fresh = ListWorld.list(.all)
        let shuffled = TodoViewModelList(filter: TodoFilter(status: .all), todos: fresh.rows.reversed(), asOf: 10)
        #expect(fresh.incorporate(shuffled) == .none)
    }

    @Test("a run of changes leaves the rows a fresh answer would give")
    func runOfChanges() {
        var list = ListWorld.list(.open)
        var truth = Dictionary(uniqueKeysWithValues: ListWorld.all.map { ($0.id, $0) })
        var sequence: UInt64 = 10
        func apply(_ todo: Todo, _ kind: TodoChange.Kind) {
            sequence += 1
            truth[todo.id] = todo
            _ = list.incorporate(TodoChange(kind: kind, todo: TodoViewModel(todo), sequence: sequence))
        }
        var f = Todo(number: 6, title: "F", due: day("2026-12-01"), createdAt: at(30))
        apply(f, .created)
        apply(ListWorld.written(ListWorld.a) { $0.completedAt = at(31) }, .completed)
        f = ListWorld.written(f) { $0.priority = .low; $0.due = nil }
        apply(f, .updated)
        apply(ListWorld.written(ListWorld.e) { $0.deletedAt = nil }, .restored)
        apply(ListWorld.written(ListWorld.d) { $0.completedAt = nil; $0.priority = .high }, .reopened)
        apply(ListWorld.written(ListWorld.c) { $0.deletedAt = at(32) }, .deleted)
        let expected = truth.values.filter(list.filter.matches).sorted(by: Todo.precedesInDefaultOrder)
        #expect(list.rows.map(\.todo) == expected)
        #expect(list.rows.map(\.number) == [4, 5, 2, 6])
        #expect(list.asOf == 16)
    }

    @Test("showing another filter keeps only the rows that match it")
    func showFilter() {
        var list = ListWorld.list(.all)
        list.show(TodoFilter(status: .completed))
        #expect(list.rows.map(\.number) == [4, 7])
        #expect(list.filter.status == .completed)
    }

    @Test("a change's kind follows from the todo before and after it; deleting wins over completing")
    func changeKinds() {
        let open = ListWorld.b
        var done = open
        done.completedAt = open.createdAt
        var deleted = done
        deleted.deletedAt = open.createdAt
        var renamed = open
        renamed.title += " renamed"
        #expect(TodoChange.Kind(TodoChangeKind(before: nil, after: open)) == .created)
        #expect(TodoChange.Kind(TodoChangeKind(before: open, after: done)) == .completed)
        #expect(TodoChange.Kind(TodoChangeKind(before: done, after: open)) == .reopened)
        #expect(TodoChange.Kind(TodoChangeKind(before: open, after: deleted)) == .deleted)
        #expect(TodoChange.Kind(TodoChangeKind(before: deleted, after: open)) == .restored)
        #expect(TodoChange.Kind(TodoChangeKind(before: open, after: renamed)) == .updated)
    }

    @Test("under +BLOCKED a new todo is not put in on a guess (one todo alone cannot say it is blocked); a listed one is updated in place, and leaves when it fails the rest of the filter")
    func blockedFilterWaitsForTheList() {
        let filter = TodoFilter(status: .open, blocked: true)
        #expect(filter.readsOtherTodos && !TodoFilter(status: .open).readsOtherTodos)
        var list = TodoListViewModel(filter: filter, rows: [TodoViewModel(ListWorld.b)], asOf: 10, today: today)
        let new = TodoChange(kind: .created, todo: TodoViewModel(Todo(number: 6, title: "F new", createdAt: at(10))), sequence: 11)
        #expect(list.incorporate(new) == .none)
        #expect(list.rows.map(\.number) == [2])
        let renamed = ListWorld.written(ListWorld.b) { $0.title = "B renamed" }
        #expect(list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(renamed), sequence: 12)) == .update(at: 0))
        let done = ListWorld.written(renamed) { $0.completedAt = at(20) }
        #expect(list.incorporate(TodoChange(kind: .completed, todo: TodoViewModel(done), sequence: 13)) == .delete(at: 0))
        #expect(list.rows.isEmpty)
    }

    @Test("a list answer that only blocks or unblocks a row reloads; a changed todo keeps its [b] while it still waits, until the next answer says")
    func blockedMarksFollowTheAnswers() {
        var cake = Todo(number: 2, title: "cake", createdAt: at(2), revision: 1)
        cake.depends = [ListWorld.a.id]
        var list = TodoListViewModel(filter: TodoFilter(status: .open), rows: [TodoViewModel(ListWorld.a), TodoViewModel(cake)], asOf: 10, today: today)
        let blocked = TodoViewModelList(filter: TodoFilter(status: .open), todos: list.rows.markingBlocked([2]), asOf: 11)
        #expect(list.incorporate(blocked) == .reload)
        #expect(list.rows.map(\.doneBox) == ["[ ]", "[b]"])
        let renamed = ListWorld.written(cake) { $0.title = "cake for two" }
        #expect(list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(renamed), sequence: 12)) == .update(at: 1))
        #expect(list.rows[1].doneBox == "[b]")
        let freed = ListWorld.written(renamed) { $0.depends = [] }
        _ = list.incorporate(TodoChange(kind: .updated, todo: TodoViewModel(freed), sequence: 13))
        #expect(list.rows[1].doneBox == "[ ]")
        let waitsAgain = ListWorld.written(freed) { $0.depends = [ListWorld.a.id] }
        _ = list.incorporate(TodoViewModelList(filter: TodoFilter(status: .open), todos: [TodoViewModel(ListWorld.a), TodoViewModel(waitsAgain)].markingBlocked([2]), asOf: 14))
        #expect(list.rows[1].doneBox == "[b]")
        // #1 completed elsewhere: the same listed todos, one no longer blocked.
        let unblocked = TodoViewModelList(filter: TodoFilter(status: .open), todos: [TodoViewModel(ListWorld.a), TodoViewModel(waitsAgain)], asOf: 15)
        #expect(list.incorporate(unblocked) == .reload)
        #expect(list.rows[1].doneBox == "[ ]")
    }
}
