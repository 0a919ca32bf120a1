import TodoModel
import TodoViewModel

/// A view event: what crosses the socket, a client's request or the daemon's answer and
/// broadcast (the product's spec is their list, docs/PROTOCOL.md). The bus carries these
/// and the daemon's own model events (`ModelEvent`) as `BusEvent`s; only these are
/// `Codable`, so the compiler keeps a model event off the socket.
public enum Event: Sendable, Equatable {
    // The one list of view events: `EventKind`, `Event.kind` and Event's `Codable` conformance
    // are generated from these case lines at build time (Plugins/EventListPlugin), in this order
    // (`EventKind.allCases`'s). Each is `case name` or `case name(OneType)`; a request whose
    // `data` may be left out carries a payload that is `EmptyPayloadDecodable`.

    // Todos
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
    /// Completes a parent and its open subtasks in one transaction.
    case requestCompleteTodoWithChildren(TodoRef)
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

    // The journal: catching up, one todo's history, the log, and undo
    case requestChanges(ChangesRequest)
    case requestHistory(HistoryRequest)
    case requestLog(LogRequest)
    case requestUndo(TodoUndo)
    case responseChanges(ChangeList)
    case responseHistory(ChangeList)
    case responseLog(ChangeList)
    /// The changes an undo made (each is also broadcast as a `responseTodoViewModel`).
    case responseUndo(ChangeList)
    case requestReplay(ReplayRequest)
    /// The changes a replay made (each is also broadcast).
    case responseReplay(ChangeList)
    /// Takes back the newest undo still in effect; no data.
    case requestRedo
    /// The changes a redo made (each is also broadcast as a `responseTodoViewModel`).
    case responseRedo(ChangeList)
    case requestPurge(PurgeRequest)
    case responsePurge(PurgeResult)

    // The shared store, and other programs' todos
    /// The shared store became unreachable or reachable again; every View receives it.
    case responseSharedStore(SharedStoreStatus)
    /// Todos from another program, created or replaced by id, in one transaction.
    case requestImportTodos([ImportedTodo])
    case responseImportTodos(TodoImportResult)
    /// The fields changed both here, while the store was away, and on another machine.
    case requestConflicts(ConflictsRequest)
    case responseConflicts(ConflictList)
    /// Takes or leaves one; a take is answered by its change (`responseTodoViewModel`).
    case requestSettleConflict(ConflictSettlement)
    /// The conflict left: the store's value stays.
    case responseSettleConflict(ConflictViewModel)
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
