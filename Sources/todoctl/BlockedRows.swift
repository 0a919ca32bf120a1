import TodoClient
import TodoModel
import TodoViewModel

/// Which listed todos are blocked (waiting for an open todo): that is derived from other
/// todos, which a list's rows do not carry, so the daemon is asked for `+BLOCKED` once more,
/// and only when a listed open todo waits for any: most lists cost no second round trip.
enum BlockedRows {
    /// `list` with its blocked rows marked (`TodoViewModel.isBlocked`).
    static func marked(_ list: TodoViewModelList, _ client: TodoConnection) throws(TodoClientError) -> TodoViewModelList {
        guard list.todos.waitsForAny else { return list }
        let blocked = try client.list(TodoFilter(status: .open, blocked: true, rows: true))
        var marked = list
        marked.todos = list.todos.markingBlocked(Set(blocked.todos.map(\.number)))
        return marked
    }
}
