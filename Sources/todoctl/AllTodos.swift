import TodoModel

/// Every todo that is not deleted, for the reports (`tags`, `projects`, `summary`,
/// `calendar`): the `--all` list and the waiting todos, which every list but `--waiting`
/// leaves out and which are still open.
enum AllTodos {
    static func fetch(_ connection: ConnectionOptions) throws -> [Todo] {
        try Session.run(connection) { link in
            var waiting = TodoFilter(status: .open)
            waiting.waiting = true
            return try link.list(TodoFilter(status: .all)).todos.map(\.todo) + link.list(waiting).todos.map(\.todo)
        }
    }
}
