import Foundation

/// A change of another database's journal to replay (a line of its `todoctl log --json`):
/// the todo it wrote, and what undo and redo go by there, in that journal's numbering
/// (`seq`, `step`, `undoes`, `undoneSteps`), which the replay turns into this one's, so that
/// the copy's `undo` takes back what the original's would (a step, not a whole request).
public struct ReplayedChange: Sendable, Codable, Equatable {
    public var todo: Todo
    public var seq: UInt64
    public var step: UInt64
    public var at: Date
    public var author: ChangeAuthor
    public var imported: Bool
    public var undoes: UInt64?
    public var undoneSteps: [UInt64]
    public var isRedo: Bool

    public init(todo: Todo, seq: UInt64, step: UInt64, at: Date, author: ChangeAuthor, imported: Bool = false,
                undoes: UInt64? = nil, undoneSteps: [UInt64] = [], isRedo: Bool = false) {
        self.todo = todo
        self.seq = seq
        self.step = step
        self.at = at
        self.author = author
        self.imported = imported
        self.undoes = undoes
        self.undoneSteps = undoneSteps
        self.isRedo = isRedo
    }

    public init(_ entry: JournalEntry) {
        self.init(todo: entry.after, seq: entry.seq, step: entry.step, at: entry.at, author: entry.author, imported: entry.imported,
                  undoes: entry.undoes, undoneSteps: entry.undoneSteps, isRedo: entry.isRedo)
    }
}

/// A change of another journal that a replay names but does not carry (a step begun in an
/// earlier request, a change an undo took back): by its seq there and the todo revision it
/// wrote, which this database holds too once it was replayed.
public struct ReplaySource: Sendable, Codable, Equatable {
    public var seq: UInt64
    public var number: Int
    public var revision: Int

    public init(seq: UInt64, number: Int, revision: Int) {
        self.seq = seq
        self.number = number
        self.revision = revision
    }
}
