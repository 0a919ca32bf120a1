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
    /// The steps this change's step took back, when it is an undo or a redo (on each of its
    /// entries): what `undo` and `redo` step past. Empty in a journal older than redo, which
    /// then goes by `undoes`.
    public var undoneSteps: [UInt64]
    /// The step took back an undo: `todoctl redo`, or an undo of an undo.
    public var isRedo: Bool
    /// Committed on this machine alone, the shared store being away (why, in the store's
    /// words): it is shared once the store is back (`todod --store`). Said in the write's
    /// answer; not journaled.
    public var unshared: String?

    public init(seq: UInt64, step: UInt64, at: Date, author: ChangeAuthor, kind: TodoChangeKind, before: Todo?, after: Todo,
                imported: Bool = false, undoes: UInt64? = nil, undoneSteps: [UInt64] = [], isRedo: Bool = false) {
        self.seq = seq
        self.step = step
        self.at = at
        self.author = author
        self.kind = kind
        self.before = before
        self.after = after
        self.imported = imported
        self.undoes = undoes
        self.undoneSteps = undoneSteps
        self.isRedo = isRedo
    }

    /// The fields this change set, in the order people read a todo.
    public var changedFields: [TodoField] {
        guard let before else { return [] }
        return TodoField.allCases.filter { !$0.isEqual(in: before, and: after) }
    }
}

extension JournalEntry {
    enum CodingKeys: String, CodingKey {
        case seq, step, at, author, kind, before, after, imported, undoes, undoneSteps, isRedo
    }

    // A shared store's entries written before redo have neither `undoneSteps` nor `isRedo`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seq: try c.decode(UInt64.self, forKey: .seq), step: try c.decode(UInt64.self, forKey: .step), at: try c.decode(Date.self, forKey: .at),
            author: try c.decode(ChangeAuthor.self, forKey: .author), kind: try c.decode(TodoChangeKind.self, forKey: .kind),
            before: try c.decodeIfPresent(Todo.self, forKey: .before), after: try c.decode(Todo.self, forKey: .after),
            imported: try c.decode(Bool.self, forKey: .imported), undoes: try c.decodeIfPresent(UInt64.self, forKey: .undoes),
            undoneSteps: try c.decodeIfPresent([UInt64].self, forKey: .undoneSteps) ?? [],
            isRedo: try c.decodeIfPresent(Bool.self, forKey: .isRedo) ?? false)
    }

    // A change (not an undo or redo) is stored as it was before redo: a shared store keeps
    // one JSON object per change, and a 100,000-todo import would carry the defaults 100,000 times.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seq, forKey: .seq)
        try c.encode(step, forKey: .step)
        try c.encode(at, forKey: .at)
        try c.encode(author, forKey: .author)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(before, forKey: .before)
        try c.encode(after, forKey: .after)
        try c.encode(imported, forKey: .imported)
        try c.encodeIfPresent(undoes, forKey: .undoes)
        if !undoneSteps.isEmpty { try c.encode(undoneSteps, forKey: .undoneSteps) }
        if isRedo { try c.encode(isRedo, forKey: .isRedo) }
    }
}

extension TodoWriteResult {
    /// The same answer, its changes marked committed on this machine alone (`JournalEntry.unshared`), since the store is away for `reason`.
    public func unshared(because reason: String) -> TodoWriteResult {
        guard case .written(let mutation, var changes) = self else { return self }
        for index in changes.indices { changes[index].unshared = reason }
        return .written(mutation, changes)
    }
}
