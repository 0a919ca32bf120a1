/// The name of an event's case: what subscriptions are made of, and the `"event"` field
/// on the wire.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case requestTodoViewModels, requestTodoDetail, requestNewTodo, requestUpdateTodoDetail
    case requestCompleteTodo, requestReopenTodo, requestToggleComplete, requestDeleteTodo
    case requestRestoreTodo, requestStatus, requestBackup
    case requestCompleteTodoWithChildren
    case responseTodoViewModels, responseTodoViewModel, responseTodoDetail, responseStatus, responseBackup
    case responseError, responseHello, responseGoodbye
    case requestReadTodos, responseTodos, requestWriteTodo, responseTodo
    case requestBackupDatabase, responseBackupDatabase
    case requestChanges, requestHistory, requestLog, requestUndo
    case responseChanges, responseHistory, responseLog, responseUndo
    case requestReadJournal, responseJournal
    case requestReplay, responseReplay
    case requestRedo, responseRedo
    case requestPurge, responsePurge
    case responseSharedStore
    case requestImportTodos, responseImportTodos, requestWriteTodos, responseWriteTodos

    /// Model events never cross the socket.
    public var isModelEvent: Bool {
        switch self {
        case .requestReadTodos, .responseTodos, .requestWriteTodo, .responseTodo, .requestBackupDatabase, .responseBackupDatabase,
             .requestReadJournal, .responseJournal,
             .requestWriteTodos, .responseWriteTodos: true
        default: false
        }
    }

    public var isRequest: Bool { rawValue.hasPrefix("request") }

    /// The view requests a client may send.
    public static let viewRequests: Set<EventKind> = Set(allCases.filter { $0.isRequest && !$0.isModelEvent })

    /// The view responses the daemon sends to clients.
    public static let viewResponses: Set<EventKind> = Set(allCases.filter { !$0.isRequest && !$0.isModelEvent })
}
