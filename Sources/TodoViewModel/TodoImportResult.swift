import TodoModel

/// The answer to an import (`responseImportTodos`): what happened to each todo, in the
/// order they were sent. Every created or updated one was also broadcast as a change.
public struct TodoImportResult: Sendable, Equatable, Codable {
    /// What the import did to each todo, as the journal names it (`created`, `completed`,
    /// `updated`, …), or `unchanged` (already so, or todod's is newer).
    public var changes: [TodoChange]

    public init(changes: [TodoChange]) {
        self.changes = changes
    }

    /// How many todos had this outcome.
    public func count(of kind: TodoChange.Kind) -> Int {
        changes.count { $0.kind == kind }
    }
}
