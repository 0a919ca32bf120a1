import TodoModel
import TodoViewModel

/// Everything that happens in todod is one of these, published on the one bus.
///
/// Two families: view events cross the socket (the product's spec is their list); model
/// events (`requestReadTodos`, `requestWriteTodo` and their answers) never leave the
/// daemon, so every write passes the ViewModelServer's validation.
public enum Event: Sendable, Equatable {
    // View requests
    case requestTodoViewModels(TodoFilter)
    case requestTodoDetail(TodoRef)
    case requestNewTodo(NewTodo)
    case requestUpdateTodoDetail(TodoDetailUpdate)
    case requestCompleteTodo(TodoRef)
    case requestReopenTodo(TodoRef)
    case requestToggleComplete(TodoRef)
    case requestDeleteTodo(TodoRef)
    case requestRestoreTodo(TodoRef)
    case requestStatus
    /// A consistent copy of the database, written by the daemon in its data directory.
    case requestBackup

    // View responses
    case responseTodoViewModels(TodoViewModelList)
    /// A committed change to one todo; every View receives it.
    case responseTodoViewModel(TodoChange)
    case responseTodoDetail(TodoDetailViewModel)
    case responseStatus(DaemonStatus)
    case responseBackup(DatabaseBackup)
    case responseError(TodoError)
    /// The daemon's first line to a client.
    case responseHello(ServerHello)
    /// The daemon is closing this connection; the reason says why and what to do.
    case responseGoodbye(TodoError)

    // Model events
    case requestReadTodos(TodoQuery)
    case responseTodos(TodoQueryResult)
    case requestWriteTodo(TodoMutation)
    case responseTodo(TodoWriteResult)
    case requestBackupDatabase
    case responseBackupDatabase(DatabaseBackupResult)

    public var kind: EventKind {
        switch self {
        case .requestTodoViewModels: .requestTodoViewModels
        case .requestTodoDetail: .requestTodoDetail
        case .requestNewTodo: .requestNewTodo
        case .requestUpdateTodoDetail: .requestUpdateTodoDetail
        case .requestCompleteTodo: .requestCompleteTodo
        case .requestReopenTodo: .requestReopenTodo
        case .requestToggleComplete: .requestToggleComplete
        case .requestDeleteTodo: .requestDeleteTodo
        case .requestRestoreTodo: .requestRestoreTodo
        case .requestStatus: .requestStatus
        case .requestBackup: .requestBackup
        case .responseTodoViewModels: .responseTodoViewModels
        case .responseTodoViewModel: .responseTodoViewModel
        case .responseTodoDetail: .responseTodoDetail
        case .responseStatus: .responseStatus
        case .responseBackup: .responseBackup
        case .responseError: .responseError
        case .responseHello: .responseHello
        case .responseGoodbye: .responseGoodbye
        case .requestReadTodos: .requestReadTodos
        case .responseTodos: .responseTodos
        case .requestWriteTodo: .requestWriteTodo
        case .responseTodo: .responseTodo
        case .requestBackupDatabase: .requestBackupDatabase
        case .responseBackupDatabase: .responseBackupDatabase
        }
    }
}

/// An edit of one todo's fields; with `revision`, refused with a conflict if the todo has
/// changed since that revision.
public struct TodoDetailUpdate: Sendable, Equatable, Codable {
    public var ref: TodoRef
    public var revision: Int?
    public var edit: TodoEdit

    public init(ref: TodoRef, revision: Int? = nil, edit: TodoEdit) {
        self.ref = ref
        self.revision = revision
        self.edit = edit
    }
}
