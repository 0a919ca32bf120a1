import Foundation

/// Which todos wait for an open one (Taskwarrior's `+BLOCKED`) and which an open one waits
/// for (`+BLOCKING`), derived from every todo's `depends` at once: nothing is stored, so
/// completing a dependency unblocks the todos waiting for it.
public struct Dependencies: Sendable {
    /// The open, live todos.
    private var open: Set<UUID> = []
    /// The todos an open, live todo waits for.
    private var waitedFor: Set<UUID> = []
    /// Every todo's id by its number, for a filter's `dependsOn`.
    private var ids: [Int: UUID] = [:]

    public init(_ todos: some Sequence<Todo>) {
        for todo in todos {
            ids[todo.number] = todo.id
            guard !todo.isCompleted && !todo.isDeleted else { continue }
            open.insert(todo.id)
            waitedFor.formUnion(todo.depends)
        }
    }

    /// Open and waiting for a todo still open.
    public func isBlocked(_ todo: Todo) -> Bool {
        !todo.isCompleted && !todo.isDeleted && todo.depends.contains(where: open.contains)
    }

    /// Open, and an open todo waits for it.
    public func isBlocking(_ todo: Todo) -> Bool {
        open.contains(todo.id) && waitedFor.contains(todo.id)
    }

    /// Whether `todo` meets `filter`'s conditions on dependencies (`+BLOCKED`, `-BLOCKED`,
    /// `+BLOCKING`, `-BLOCKING`, `+READY`'s not blocked, `depends:12`), which
    /// `TodoFilter.matches` leaves to this: one todo alone cannot tell.
    public func matches(_ todo: Todo, _ filter: TodoFilter) -> Bool {
        if let blocked = filter.blocked, isBlocked(todo) != blocked { return false }
        if filter.ready, isBlocked(todo) { return false }
        // A number no todo has is waited for by none.
        if !filter.dependsOn.allSatisfy({ ids[$0].map(todo.depends.contains) == true }) { return false }
        if let blocking = filter.blocking, isBlocking(todo) != blocking { return false }
        return true
    }
}
