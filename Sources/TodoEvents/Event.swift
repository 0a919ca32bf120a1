import TodoModel
import TodoViewModel

/// A view event: what crosses the socket, a client's request or the daemon's answer and
/// broadcast (the product's spec is their list, docs/PROTOCOL.md). The bus carries these
/// and the daemon's own model events (`ModelEvent`) as `BusEvent`s; only these are
/// `Codable`, so the compiler keeps a model event off the socket.
public enum Event: Sendable, Equatable {
    // View requests
    case requestTodoViewModels(TodoFilter)
    case requestTodoDetail(TodoRef)
    case requestNewTodo(NewTodo)
    case requestUpdateTodoDetail(TodoDetailUpdate)
    case requestCompleteTodo(TodoRef)
    /// Completes a parent and its open subtasks in one transaction.
    case requestCompleteTodoWithChildren(TodoRef)
    case requestReopenTodo(TodoRef)
    case requestToggleComplete(TodoRef)
    case requestDeleteTodo(TodoRef)
    case requestRestoreTodo(TodoRef)
    case requestStatus
    /// A consistent copy of the database, written by the daemon in its data directory.
    case requestBackup
    /// The journal: catching up, one todo's history, the log, and undo.
    case requestChanges(ChangesRequest)
    case requestHistory(HistoryRequest)
    case requestLog(LogRequest)
    case requestUndo(TodoUndo)
    /// Takes back the newest undo still in effect; no data.
    case requestRedo
    case requestReplay(ReplayRequest)
    case requestPurge(PurgeRequest)
    /// Todos from another program, created or replaced by id, in one transaction.
    case requestImportTodos([ImportedTodo])

    // View responses
    case responseTodoViewModels(TodoViewModelList)
    /// A committed change to one todo; every View receives it.
    case responseTodoViewModel(TodoChange)
    case responseTodoDetail(TodoDetailViewModel)
    case responseStatus(DaemonStatus)
    case responseBackup(DatabaseBackup)
    case responseImportTodos(TodoImportResult)
    case responseError(TodoError)
    /// The daemon's first line to a client.
    case responseHello(ServerHello)
    /// The daemon is closing this connection; the reason says why and what to do.
    case responseGoodbye(TodoError)
    case responseChanges(ChangeList)
    case responseHistory(ChangeList)
    case responseLog(ChangeList)
    /// The changes an undo made (each is also broadcast as a `responseTodoViewModel`).
    case responseUndo(ChangeList)
    /// The changes a redo made (each is also broadcast as a `responseTodoViewModel`).
    case responseRedo(ChangeList)
    /// The changes a replay made (each is also broadcast).
    case responseReplay(ChangeList)
    case responsePurge(PurgeResult)
    /// The shared store became unreachable or reachable again; every View receives it.
    case responseSharedStore(SharedStoreStatus)

    public var kind: EventKind {
        switch self {
        case .requestTodoViewModels: .requestTodoViewModels
        case .requestTodoDetail: .requestTodoDetail
        case .requestNewTodo: .requestNewTodo
        case .requestUpdateTodoDetail: .requestUpdateTodoDetail
        case .requestCompleteTodo: .requestCompleteTodo
        case .requestCompleteTodoWithChildren: .requestCompleteTodoWithChildren
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
        case .requestChanges: .requestChanges
        case .requestHistory: .requestHistory
        case .requestLog: .requestLog
        case .requestUndo: .requestUndo
        case .requestRedo: .requestRedo
        case .responseRedo: .responseRedo
        case .requestReplay: .requestReplay
        case .responseReplay: .responseReplay
        case .requestPurge: .requestPurge
        case .responsePurge: .responsePurge
        case .responseSharedStore: .responseSharedStore
        case .responseChanges: .responseChanges
        case .responseHistory: .responseHistory
        case .responseLog: .responseLog
        case .responseUndo: .responseUndo
        case .requestImportTodos: .requestImportTodos
        case .responseImportTodos: .responseImportTodos
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
