import TodoModel

/// `responseReadConflicts`: the replica's conflicts, or why they could not be read.
public enum ConflictReadResult: Sendable, Equatable {
    case listed([KeptConflict])
    case failed(TodoModelError)
}

/// `responseMarkConflict`: a conflict left, or why it could not be taken or left. A taken
/// one is answered by its change's `responseTodo`.
public enum ConflictMarkResult: Sendable, Equatable {
    case left(KeptConflict)
    case failed(TodoModelError)
}
