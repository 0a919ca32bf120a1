/// What one committed change did to a todo: the journal's and the broadcasts' word for it.
public enum TodoChangeKind: String, Sendable, Codable, CaseIterable {
    case created, updated, completed, reopened, deleted, restored

    /// Read from the todo before and after, so that every writer (a mutation, an undo, an
    /// import) names its changes alike. Deleting and restoring win over completing.
    public init(before: Todo?, after: Todo) {
        guard let before else {
            self = .created
            return
        }
        if before.isDeleted != after.isDeleted {
            self = after.isDeleted ? .deleted : .restored
        } else if before.isCompleted != after.isCompleted {
            self = after.isCompleted ? .completed : .reopened
        } else {
            self = .updated
        }
    }
}
