import TodoModel
import TodoViewModel

/// A model event: the daemon's own, between the ViewModelServer and the ModelServer. The
/// ViewModelServer turns each valid view request into one of these requests and each of
/// these answers into a view response, so every write passes its validation.
///
/// Not `Codable`, and not an `Event`: the wire encodes only `Event`s, so the compiler, not
/// a check at run time, keeps these off the socket.
public enum ModelEvent: Sendable, Equatable {
    // The one list of model events: `ModelEvent.Kind` and `ModelEvent.kind` are generated from
    // these case lines at build time (Plugins/EventListPlugin). Each is `case name` or
    // `case name(OneType)`.
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
    case requestReadConflicts(ConflictsRequest)
    case responseReadConflicts(ConflictReadResult)
    /// Takes (by an ordinary write, `requestWriteTodo`, answered by its `responseTodo`) or leaves one.
    case requestMarkConflict(ConflictSettlement)
    case responseMarkConflict(ConflictMarkResult)
}

/// `ModelEvent.Kind` itself, a model event's name (what the ModelServer's participants and the
/// ViewModelServer subscribe to), is generated; what is said of the names is here.
extension ModelEvent.Kind {
    public var isRequest: Bool { rawValue.hasPrefix("request") }

    /// The model servers' answers, which the ViewModelServer turns into view responses.
    public static let responses: Set<ModelEvent.Kind> = Set(allCases.filter { !$0.isRequest })
}
