import Foundation
import TodoModel

/// The list a View shows: rows in the default order, limited to one filter.
///
/// Views feed it every event they receive and apply the `Change` it returns (the
/// article's table view insert / delete / reload row animations), so that a View redraws
/// only what changed.
public struct TodoListViewModel: Sendable, Equatable {
    /// What a View must redraw after an event.
    public enum Change: Sendable, Equatable {
        case none
        /// Everything may have changed.
        case reload
        case insert(at: Int)
        case delete(at: Int)
        case update(at: Int)
        /// The row at `from` changed and now stands at `to` (indices after the move).
        case move(from: Int, to: Int)
    }

    public private(set) var filter: TodoFilter
    public private(set) var rows: [TodoViewModel]
    /// The change sequence number the rows are current as of.
    public private(set) var asOf: UInt64
    /// The day a todo's wait is judged on (a todo waiting until after it is not listed unless
    /// the filter asks for waiting ones): the View's, which its owner moves on at midnight.
    /// Passed in, as every day this layer uses: it reads no clock.
    public var today: LocalDate

    public init(filter: TodoFilter = TodoFilter(), rows: [TodoViewModel] = [], asOf: UInt64 = 0, today: LocalDate) {
        self.filter = filter
        self.rows = rows.filter { filter.matches($0.todo, today: today) }.sorted { Todo.precedesInDefaultOrder($0.todo, $1.todo) }
        self.asOf = asOf
        self.today = today
    }

    public var openCount: Int { rows.count { !$0.isCompleted } }
    public var completedCount: Int { rows.count { $0.isCompleted } }

    public func index(of id: UUID) -> Int? {
        rows.firstIndex { $0.id == id }
    }

    /// Takes a whole list answer: `.reload` unless it shows exactly what is shown now.
    public mutating func incorporate(_ list: TodoViewModelList) -> Change {
        let next = TodoListViewModel(filter: list.filter, rows: list.todos, asOf: list.asOf, today: today)
        // The blocked marks too: completing a dependency elsewhere changes no listed todo,
        // only whether its waiter shows `[b]`.
        guard next.filter != filter || next.rows.map(\.todo) != rows.map(\.todo) || next.rows.map(\.isBlocked) != rows.map(\.isBlocked) else {
            asOf = max(asOf, list.asOf)
            return .none
        }
        self = next
        return .reload
    }

    /// Takes one changed todo and says where the list changed. A change this list has
    /// already seen (same or older revision) is ignored.
    public mutating func incorporate(_ change: TodoChange) -> Change {
        guard change.sequence > asOf || change.sequence == 0 else { return .none }
        asOf = max(asOf, change.sequence)
        return incorporate(change.todo)
    }

    /// Takes one todo as it is now and says where the list changed.
    public mutating func incorporate(_ todo: TodoViewModel) -> Change {
        let existing = index(of: todo.id)
        if let existing, rows[existing].todo.revision >= todo.todo.revision { return .none }
        // A changed todo comes unmarked: it stays `[b]` while it is open and waits for any,
        // until the list the View asks for again says whether it still is.
        var todo = todo
        if let existing, rows[existing].isBlocked, !todo.isCompleted, !todo.isDeleted, !todo.todo.depends.isEmpty { todo.isBlocked = true }
        let belongs = filter.matches(todo.todo, today: today)
        switch (existing, belongs) {
        case (nil, false):
            return .none
        // One todo alone does not say whether it is blocked or blocking: it comes in with the
        // list the View asks for again (`TodoFilter.readsOtherTodos`), not on this guess. A todo
        // that fails the rest of the filter leaves at once, as always.
        case (nil, true) where filter.readsOtherTodos:
            return .none
        case (nil, true):
            let at = insertionIndex(for: todo.todo)
            rows.insert(todo, at: at)
            return .insert(at: at)
        case (let from?, false):
            rows.remove(at: from)
            return .delete(at: from)
        case (let from?, true):
            rows.remove(at: from)
            let to = insertionIndex(for: todo.todo)
            rows.insert(todo, at: to)
            return from == to ? .update(at: to) : .move(from: from, to: to)
        }
    }

    /// Changes the filter; the View then asks for the list under the new one.
    public mutating func show(_ newFilter: TodoFilter) {
        filter = newFilter
        rows = rows.filter { newFilter.matches($0.todo, today: today) }
    }

    // Binary search: rows are always in the default order.
    private func insertionIndex(for todo: Todo) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if Todo.precedesInDefaultOrder(rows[mid].todo, todo) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
