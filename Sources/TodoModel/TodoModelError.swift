/// Why the ModelServer could not answer a model request.
public enum TodoModelError: Error, Sendable, Codable, Equatable {
    /// No todo matches the reference.
    case notFound(TodoRef)
    /// A UUID prefix matches more than one todo.
    case ambiguous(TodoRef)
    /// The edit was based on an older revision; carries the todo as it is now.
    case conflict(current: Todo)
    /// The todo is deleted; it must be restored before it can be changed.
    case deleted(Todo)
    /// The change would break a rule that only the current todo can tell (too many tags).
    case invalid(field: String, reason: String)
    /// Undoing change `undoing` would put back `field`, which change `later` set again
    /// since; carries the todo as it is now.
    case undoConflict(field: String, undoing: UInt64, later: UInt64, current: Todo)
    /// The journal holds no change that the undo names.
    case nothingToUndo(String)
    /// No undo to take back: none in effect, or a change made since ended the redo chain.
    case nothingToRedo(String)
    /// The database refused the write (disk full, read-only, corrupt); nothing was written.
    case storage(String)
    /// The store shared with other daemons (`--store`) could not commit it or refused it;
    /// nothing was written. The reason says what happened and what to do.
    case sharedStore(String)
    /// This replica keeps no conflict with this number (`KeptConflict.n`).
    case noConflict(Int)
}
