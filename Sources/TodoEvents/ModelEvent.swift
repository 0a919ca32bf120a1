import TodoModel
import TodoViewModel

/// A model event: the daemon's own, between the ViewModelServer and the ModelServer. The
/// ViewModelServer turns each valid view request into one of these requests and each of
/// these answers into a view response, so every write passes its validation.
///
/// Not `Codable`, and not an `Event`: the wire encodes only `Event`s, so the compiler, not
/// a check at run time, keeps these off the socket.
public enum ModelEvent: Sendable, Equatable {
    case requestReadTodos(TodoQuery)
    case responseTodos(TodoQueryResult)
    case requestWriteTodo(TodoMutation)
    case responseTodo(TodoWriteResult)
    /// Several writes that commit in one transaction, answered together in their order.
    case requestWriteTodos([TodoMutation])
    case responseWriteTodos([TodoWriteResult])
    case requestBackupDatabase
    case responseBackupDatabase(DatabaseBackupResult)
    case requestReadJournal(JournalQuery)
    case responseJournal(JournalReadResult)

    /// A model event's name: what the ModelServer and the ViewModelServer subscribe to.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case requestReadTodos, responseTodos, requestWriteTodo, responseTodo, requestWriteTodos, responseWriteTodos
        case requestBackupDatabase, responseBackupDatabase, requestReadJournal, responseJournal
    }

    public var kind: Kind {
        switch self {
        case .requestReadTodos: .requestReadTodos
        case .responseTodos: .responseTodos
        case .requestWriteTodo: .requestWriteTodo
        case .responseTodo: .responseTodo
        case .requestWriteTodos: .requestWriteTodos
        case .responseWriteTodos: .responseWriteTodos
        case .requestBackupDatabase: .requestBackupDatabase
        case .responseBackupDatabase: .responseBackupDatabase
        case .requestReadJournal: .requestReadJournal
        case .responseJournal: .responseJournal
        }
    }
}
