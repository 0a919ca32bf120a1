import TodoModel
import TodoViewModel

/// An event is coded as `{"event": "<kind>", "data": <its associated value>}`; an event
/// without a value has no `data`.
extension Event: Codable {
    enum CodingKeys: String, CodingKey {
        case event, data
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func data<T: Decodable>(_ type: T.Type = T.self) throws -> T { try c.decode(T.self, forKey: .data) }
        switch try c.decode(EventKind.self, forKey: .event) {
        case .requestTodoViewModels: self = .requestTodoViewModels(try c.decodeIfPresent(TodoFilter.self, forKey: .data) ?? TodoFilter())
        case .requestTodoDetail: self = .requestTodoDetail(try data())
        case .requestNewTodo: self = .requestNewTodo(try data())
        case .requestUpdateTodoDetail: self = .requestUpdateTodoDetail(try data())
        case .requestCompleteTodo: self = .requestCompleteTodo(try data())
        case .requestReopenTodo: self = .requestReopenTodo(try data())
        case .requestCompleteTodoWithChildren: self = .requestCompleteTodoWithChildren(try data())
        case .requestToggleComplete: self = .requestToggleComplete(try data())
        case .requestDeleteTodo: self = .requestDeleteTodo(try data())
        case .requestRestoreTodo: self = .requestRestoreTodo(try data())
        case .requestStatus: self = .requestStatus
        case .requestBackup: self = .requestBackup
        case .responseBackup: self = .responseBackup(try data())
        case .responseTodoViewModels: self = .responseTodoViewModels(try data())
        case .responseTodoViewModel: self = .responseTodoViewModel(try data())
        case .responseTodoDetail: self = .responseTodoDetail(try data())
        case .responseStatus: self = .responseStatus(try data())
        case .responseError: self = .responseError(try data())
        case .responseHello: self = .responseHello(try data())
        case .responseGoodbye: self = .responseGoodbye(try data())
        case .requestChanges: self = .requestChanges(try data())
        case .requestHistory: self = .requestHistory(try data())
        case .requestLog: self = .requestLog(try c.decodeIfPresent(LogRequest.self, forKey: .data) ?? LogRequest())
        case .requestUndo: self = .requestUndo(try c.decodeIfPresent(TodoUndo.self, forKey: .data) ?? TodoUndo())
        case .responseChanges: self = .responseChanges(try data())
        case .responseHistory: self = .responseHistory(try data())
        case .responseLog: self = .responseLog(try data())
        case .responseUndo: self = .responseUndo(try data())
        case .requestRedo: self = .requestRedo
        case .responseRedo: self = .responseRedo(try data())
        case .requestReplay: self = .requestReplay(try data())
        case .responseReplay: self = .responseReplay(try data())
        case .requestPurge: self = .requestPurge(try c.decodeIfPresent(PurgeRequest.self, forKey: .data) ?? PurgeRequest())
        case .responsePurge: self = .responsePurge(try data())
        case .responseSharedStore: self = .responseSharedStore(try data())
        case .requestImportTodos: self = .requestImportTodos(try data())
        case .responseImportTodos: self = .responseImportTodos(try data())
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .event)
        switch self {
        case .requestStatus, .requestBackup, .requestRedo: break
        case .responseBackup(let value): try c.encode(value, forKey: .data)
        case .requestTodoViewModels(let value): try c.encode(value, forKey: .data)
        case .requestTodoDetail(let value), .requestCompleteTodo(let value), .requestReopenTodo(let value),
            .requestToggleComplete(let value), .requestDeleteTodo(let value), .requestRestoreTodo(let value),
            .requestCompleteTodoWithChildren(let value):
            try c.encode(value, forKey: .data)
        case .requestNewTodo(let value): try c.encode(value, forKey: .data)
        case .requestUpdateTodoDetail(let value): try c.encode(value, forKey: .data)
        case .responseTodoViewModels(let value): try c.encode(value, forKey: .data)
        case .responseTodoViewModel(let value): try c.encode(value, forKey: .data)
        case .responseTodoDetail(let value): try c.encode(value, forKey: .data)
        case .responseStatus(let value): try c.encode(value, forKey: .data)
        case .responseError(let value), .responseGoodbye(let value): try c.encode(value, forKey: .data)
        case .responseHello(let value): try c.encode(value, forKey: .data)
        case .requestChanges(let value): try c.encode(value, forKey: .data)
        case .requestHistory(let value): try c.encode(value, forKey: .data)
        case .requestLog(let value): try c.encode(value, forKey: .data)
        case .requestUndo(let value): try c.encode(value, forKey: .data)
        case .requestReplay(let value): try c.encode(value, forKey: .data)
        case .requestPurge(let value): try c.encode(value, forKey: .data)
        case .responsePurge(let value): try c.encode(value, forKey: .data)
        case .responseSharedStore(let value): try c.encode(value, forKey: .data)
        case .responseChanges(let value), .responseHistory(let value), .responseLog(let value), .responseUndo(let value),
            .responseRedo(let value), .responseReplay(let value):
            try c.encode(value, forKey: .data)
        case .requestImportTodos(let value): try c.encode(value, forKey: .data)
        case .responseImportTodos(let value): try c.encode(value, forKey: .data)
        }
    }
}
