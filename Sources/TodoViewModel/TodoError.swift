import TodoModel

/// An error answered to the request that caused it. `message` says what happened and
/// what to do; `code` is for programs.
public struct TodoError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable {
        /// A field of the request is invalid; `field` names it.
        case validation
        case notFound
        /// A UUID prefix names more than one todo.
        case ambiguous
        /// The edit was based on an older revision; `todo` is the current one.
        case conflict
        /// The todo is deleted and must be restored first; `todo` is it.
        case deleted
        /// The database could not write; nothing was written.
        case storage
        /// The frame could not be read as an event (bad JSON, unknown event, model event).
        case badRequest
        /// The frame was longer than the protocol allows; the connection is closed.
        case frameTooLong
        /// The client did not keep up with the events sent to it; the connection is closed.
        case overloaded
        /// The daemon is shutting down.
        case shuttingDown
        /// A peer of another user.
        case permissionDenied
    }

    public var code: Code
    public var message: String
    public var field: String?
    public var todo: TodoViewModel?
    /// For an undo's conflict: the later change that set the field again.
    public var seq: UInt64?

    public init(_ code: Code, _ message: String, field: String? = nil, todo: TodoViewModel? = nil, seq: UInt64? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.todo = todo
        self.seq = seq
    }

    public var description: String { message }

    public static func validation(_ field: String, _ reason: String) -> TodoError {
        TodoError(.validation, "\(field): \(reason)", field: field)
    }

    /// The view of a model error, worded for the person who asked.
    public init(_ error: TodoModelError) {
        switch error {
        case .notFound(let ref):
            self.init(.notFound, "no todo \(ref): list them with `todoctl list --all` (deleted ones with --deleted)")
        case .ambiguous(let ref):
            self.init(.ambiguous, "\(ref) matches more than one todo: give more of the id, or the number")
        case .conflict(let current):
            self.init(
                .conflict,
                "#\(current.number) was changed meanwhile (now revision \(current.revision)): look at it again and redo the edit",
                todo: TodoViewModel(current))
        case .deleted(let todo):
            self.init(.deleted, "#\(todo.number) is deleted: restore it first with `todoctl restore \(todo.number)`",
                      todo: TodoViewModel(todo))
        case .undoConflict(let field, let undoing, let later, let current):
            self.init(
                .conflict,
                "cannot undo change \(undoing): #\(current.number)'s \(field) was changed again by change \(later) (see `todoctl history \(current.number)`); undo \(later) first, or add --force to put the old \(field) back anyway",
                field: field, todo: TodoViewModel(current), seq: later)
        case .nothingToUndo(let what):
            self.init(.notFound, "nothing to undo: \(what) (see `todoctl log`)")
        case .nothingToRedo(let what):
            self.init(.notFound, "nothing to redo: \(what) (see `todoctl log`)")
        case .invalid(let field, let reason):
            self = .validation(field, reason)
        case .sharedStore(let reason):
            // The store's words say whether anything was written: usually not, but a commit cut off may have been.
            self.init(.storage, "shared store: \(reason)")
        case .storage(let reason):
            // The store's reason says what happened and what to do (a full disk, a damaged file, a broken rule).
            self.init(.storage, "the database could not write, nothing was changed: \(reason)")
        }
    }
}
