import Foundation

/// One committed change to one todo, as the journal keeps it: the row's state before
/// and after, who made it and when. Each has its own `seq`, the place in the commit order
/// that clients see; `step` is the `seq` of the first change its mutation made, so that
/// the changes of one mutation (an undo of several, a completion that also creates the
/// next occurrence) are undone together.
public struct JournalEntry: Sendable, Codable, Equatable {
    public var seq: UInt64
    public var step: UInt64
    public var at: Date
    public var author: ChangeAuthor
    public var kind: TodoChangeKind
    /// nil for a creation.
    public var before: Todo?
    public var after: Todo
    /// Written by the migration that started the journal: the todo existed before it.
    public var imported: Bool
    /// The change this one undid, when it is an undo.
    public var undoes: UInt64?

    public init(seq: UInt64, step: UInt64, at: Date, author: ChangeAuthor, kind: TodoChangeKind, before: Todo?, after: Todo,
                imported: Bool = false, undoes: UInt64? = nil) {
        self.seq = seq
        self.step = step
        self.at = at
        self.author = author
        self.kind = kind
        self.before = before
        self.after = after
        self.imported = imported
        self.undoes = undoes
    }

    /// The fields this change set, in the order people read a todo.
    public var changedFields: [TodoField] {
        guard let before else { return [] }
        return TodoField.allCases.filter { !$0.isEqual(in: before, and: after) }
    }
}
