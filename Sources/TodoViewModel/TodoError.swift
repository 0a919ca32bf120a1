import TodoModel

/// An error answered to the request that caused it. `message` says what happened and
/// what to do; `code` is for programs.
public struct TodoError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// Which error it is, for programs: a string on the wire. The ViewModel's own are below;
    /// a string, not an enum, so that the wire adds the codes of the connection itself (a
    /// line too long, a client that does not read, a daemon shutting down, another user:
    /// TodoWire's `TodoError.Code+Wire.swift`), which this layer does not know. A client
    /// reads a code it does not know as it is.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// A field of the request is invalid; `field` names it.
        public static let validation = Code(rawValue: "validation")
        public static let notFound = Code(rawValue: "notFound")
        /// A UUID prefix names more than one todo.
        public static let ambiguous = Code(rawValue: "ambiguous")
        /// The edit was based on an older revision; `todo` is the current one.
        public static let conflict = Code(rawValue: "conflict")
        /// The todo is deleted and must be restored first; `todo` is it.
        public static let deleted = Code(rawValue: "deleted")
        /// The database could not write; nothing was written.
        public static let storage = Code(rawValue: "storage")
        /// The request could not be read as an event (bad JSON, unknown event, model event),
        /// or is not one the ViewModelServer answers.
        public static let badRequest = Code(rawValue: "badRequest")
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

    /// The steps the messages below advise, in words any View can follow: no program's
    /// command or flag, which this layer does not know. A View that has a command for one
    /// names it instead (todoctl: `TodoError+Commands.swift`), as watch names its keys.
    public enum Advice {
        /// After "no todo REF: ".
        public static let listEveryTodo = "list every todo, the deleted ones too, to find it"
        /// After "no conflict N on this machine: ".
        public static let listConflicts = "list the conflicts to find its number"
        /// After "#N is deleted: ".
        public static let restoreFirst = "restore it first"

        /// After an undo's conflict with the later change `later`, which set `field` again.
        public static func undoLaterFirst(_ later: UInt64, field: String) -> String {
            "undo \(later) first, or force the undo to put the old \(field) back anyway"
        }
    }

    /// The view of a model error, worded for the person who asked.
    public init(_ error: TodoModelError) {
        switch error {
        case .notFound(let ref):
            self.init(.notFound, "no todo \(ref): \(Advice.listEveryTodo)")
        case .ambiguous(let ref):
            self.init(.ambiguous, "\(ref) matches more than one todo: give more of the id, or the number")
        case .conflict(let current):
            self.init(
                .conflict,
                "#\(current.number) was changed meanwhile (now revision \(current.revision)): look at it again and redo the edit",
                todo: TodoViewModel(current))
        case .deleted(let todo):
            self.init(.deleted, "#\(todo.number) is deleted: \(Advice.restoreFirst)",
                      todo: TodoViewModel(todo))
        case .undoConflict(let field, let undoing, let later, let current):
            self.init(
                .conflict,
                "cannot undo change \(undoing): #\(current.number)'s \(field) was changed again by change \(later); \(Advice.undoLaterFirst(later, field: field))",
                field: field, todo: TodoViewModel(current), seq: later)
        case .nothingToUndo(let what):
            self.init(.notFound, "nothing to undo: \(what)")
        case .noConflict(let n):
            self.init(.notFound, "no conflict \(n) on this machine: \(Advice.listConflicts)")
        case .nothingToRedo(let what):
            self.init(.notFound, "nothing to redo: \(what)")
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
