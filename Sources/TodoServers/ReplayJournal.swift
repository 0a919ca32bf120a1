import Foundation
import GRDB
import TodoModel

/// Turns a replayed change's journal fields (`step`, `undoes`, `undoneSteps`, in the other
/// journal's seqs) into this journal's, so that the copy's undo and redo walk the same steps.
/// A seq is found among the changes this replay wrote or skipped (which this journal holds)
/// or among the request's `sources`, by the todo revision it wrote; one not found (a change
/// the other log left out) is dropped, and a step whose first change is not found here as a
/// step's first, or that an undo or redo here came after, starts a step of its own here
/// (as `TodoStore.joinable` rules for a client): an undo never takes back more than the
/// original's would. A step that went on around another client's change there does here too.
struct ReplayJournal {
    private let db: Database
    /// Their seq → ours.
    private var ours: [UInt64: UInt64] = [:]
    /// Our seqs that began a step here.
    private var stepStarts: Set<UInt64> = []
    /// This journal's last undo or redo row and its step: no other step from before it goes on.
    private var lastUndo: (seq: UInt64, step: UInt64) = (0, 0)
    /// The time of this journal's last row: times never go back.
    private var lastAt: Date?

    init(sources: [ReplaySource], in db: Database) throws {
        self.db = db
        for source in sources {
            if let seq = try note(number: source.number, revision: source.revision) { ours[source.seq] = seq }
        }
        if let row = try Row.fetchOne(db, sql: "SELECT at FROM journal ORDER BY seq DESC LIMIT 1") {
            lastAt = Date(millisecondsSince1970: row["at"])
        }
        if let row = try Row.fetchOne(
            db, sql: "SELECT seq, step FROM journal WHERE undoes IS NOT NULL OR undoneSteps IS NOT NULL ORDER BY seq DESC LIMIT 1") {
            lastUndo = (UInt64(row["seq"] as Int64), UInt64(row["step"] as Int64))
        }
    }

    /// A change this journal holds already (replayed before): later ones may name it.
    mutating func skipped(_ change: ReplayedChange) throws {
        guard ours[change.seq] == nil else { return }
        ours[change.seq] = try note(number: change.todo.number, revision: change.todo.revision)
    }

    /// The entry `change` gets here, written as change `seq`.
    func entry(_ change: ReplayedChange, seq: UInt64, before: Todo?, now: Date) -> JournalEntry {
        // A step goes on when its first change began a step here and no undo or redo (but its own) came since.
        let step = change.step != change.seq
            ? ours[change.step].flatMap { stepStarts.contains($0) && ($0 > lastUndo.seq || $0 == lastUndo.step) ? $0 : nil } ?? seq : seq
        // Their time, unless it would be later than now or earlier than the last: `undo --since` reads times newest first.
        let at = max(min(change.at, now), lastAt ?? .distantPast)
        return JournalEntry(
            seq: seq, step: step, at: at, author: change.author, kind: TodoChangeKind(before: before, after: change.todo),
            before: before, after: change.todo, imported: change.imported, undoes: change.undoes.flatMap { ours[$0] },
            undoneSteps: change.undoneSteps.compactMap { ours[$0] }, isRedo: change.isRedo)
    }

    mutating func wrote(_ entry: JournalEntry, for change: ReplayedChange) {
        ours[change.seq] = entry.seq
        if entry.step == entry.seq { stepStarts.insert(entry.seq) }
        if entry.undoes != nil || !entry.undoneSteps.isEmpty { lastUndo = (entry.seq, entry.step) }
        lastAt = entry.at
    }

    /// Our seq of the change that wrote revision `revision` of todo `number`, noting whether it began a step.
    private mutating func note(number: Int, revision: Int) throws -> UInt64? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, step FROM journal WHERE number = ? AND revision = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [number, revision]) else { return nil }
        let (seq, step) = (UInt64(row["seq"] as Int64), UInt64(row["step"] as Int64))
        if seq == step { stepStarts.insert(seq) }
        return seq
    }
}
