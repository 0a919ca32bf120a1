import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// Which listed todos are blocked (waiting for an open todo): that is derived from other
/// todos, which a list's rows do not carry, so the daemon is asked for `+BLOCKED` once more,
/// and only when a listed open todo waits for any: most lists cost no second round trip.
/// `list` asks on its connection, watch on its client; both mark the rows here.
enum BlockedRows {
    /// `list` with its blocked rows marked (`TodoViewModel.isBlocked`).
    static func marked(_ list: TodoViewModelList, _ client: TodoConnection) throws(TodoClientError) -> TodoViewModelList {
        guard list.todos.waitsForAny else { return list }
        return marking(list, blocked: try client.list(question))
    }

    /// The same for watch, whose client answers asynchronously.
    static func marked(_ list: TodoViewModelList, _ client: TodoClient) async throws(TodoClientError) -> TodoViewModelList {
        guard list.todos.waitsForAny else { return list }
        guard case .responseTodoViewModels(let blocked) = try await client.request(.requestTodoViewModels(question)) else {
            throw .protocolViolation("expected an answer to \(EventKind.requestTodoViewModels.rawValue) for the blocked todos")
        }
        return marking(list, blocked: blocked)
    }

    /// Every blocked todo, as rows: the numbers are all that is read.
    private static let question = TodoFilter(status: .open, blocked: true, rows: true)

    private static func marking(_ list: TodoViewModelList, blocked: TodoViewModelList) -> TodoViewModelList {
        var marked = list
        marked.todos = list.todos.markingBlocked(Set(blocked.todos.map(\.number)))
        return marked
    }
}
