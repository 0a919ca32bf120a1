/// The name of a view event's case: the `"event"` field on the wire, and with
/// `ModelEvent.Kind` what subscriptions are made of.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case requestTodoViewModels, requestTodoDetail, requestNewTodo, requestUpdateTodoDetail
    case requestCompleteTodo, requestReopenTodo, requestToggleComplete, requestDeleteTodo
    case requestRestoreTodo, requestStatus, requestBackup
    case requestCompleteTodoWithChildren
    case responseTodoViewModels, responseTodoViewModel, responseTodoDetail, responseStatus, responseBackup
    case responseError, responseHello, responseGoodbye
    case requestChanges, requestHistory, requestLog, requestUndo
    case responseChanges, responseHistory, responseLog, responseUndo
    case requestReplay, responseReplay
    case requestRedo, responseRedo
    case requestPurge, responsePurge
    case responseSharedStore
    case requestImportTodos, responseImportTodos

    public var isRequest: Bool { rawValue.hasPrefix("request") }

    /// The view requests a client may send.
    public static let viewRequests: Set<EventKind> = Set(allCases.filter(\.isRequest))

    /// The view responses the daemon sends to clients.
    public static let viewResponses: Set<EventKind> = Set(allCases.filter { !$0.isRequest })
}
