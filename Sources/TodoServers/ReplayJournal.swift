import Foundation
import GRDB
import TodoModel

/// Turns a replayed change's journal fields (`step`, `undoes`, `undoneSteps`, in the other
/// journal's seqs) into this journal's, so that the copy's undo and redo walk the same steps.
/// A seq is found among the changes this replay wrote or skipped (which this journal holds)
/// or among the request's `sources`, by the todo revision it wrote; one not found (a change
/// the other log left out) is dropped, and a step whose first change is not found, or is
/// not the step this journal ends with, starts a step of its own here: a step's rows stay
/// consecutive, and an undo never takes back more than the original's would.
struct ReplayJournal {
    private let db: Database
    /// Their seq → ours.
    private var ours: [UInt64: UInt64] = [:]
    /// The step and time of this journal's last row: a step goes on only from there, and times never go back.
    private var lastStep: UInt64?
    private var lastAt: Date?

    init(sources: [ReplaySource], in db: Database) throws {
        self.db = db
        for source in sources {
            if let seq = try Self.seq(number: source.number, revision: source.revision, in: db) { ours[source.seq] = seq }
        }
        if let row = try Row.fetchOne(db, sql: "SELECT step, at FROM journal ORDER BY seq DESC LIMIT 1") {
            lastStep = UInt64(row["step"] as Int64)
            lastAt = Date(millisecondsSince1970: row["at"])
        }
    }

    /// A change this journal holds already (replayed before): later ones may name it.
    mutating func skipped(_ change: ReplayedChange) throws {
        guard ours[change.seq] == nil else { return }
        ours[change.seq] = try Self.seq(number: change.todo.number, revision: change.todo.revision, in: db)
    }

    /// The entry `change` gets here, written as change `seq`.
    func entry(_ change: ReplayedChange, seq: UInt64, before: Todo?, now: Date) -> JournalEntry {
        // A step goes on only when its first change is here and this journal's last row is of it.
        let step = change.step != change.seq ? ours[change.step].flatMap { $0 == lastStep ? $0 : nil } ?? seq : seq
        // Their time, unless it would be later than now or earlier than the last: `undo --since` reads times newest first.
        let at = max(min(change.at, now), lastAt ?? .distantPast)
        return JournalEntry(
            seq: seq, step: step, at: at, author: change.author, kind: TodoChangeKind(before: before, after: change.todo),
            before: before, after: change.todo, imported: change.imported, undoes: change.undoes.flatMap { ours[$0] },
            undoneSteps: change.undoneSteps.compactMap { ours[$0] }, isRedo: change.isRedo)
    }

    mutating func wrote(_ entry: JournalEntry, for change: ReplayedChange) {
        ours[change.seq] = entry.seq
        lastStep = entry.step
        lastAt = entry.at
    }

    /// Our seq of the change that wrote revision `revision` of todo `number`.
    private static func seq(number: Int, revision: Int, in db: Database) throws -> UInt64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT seq FROM journal WHERE number = ? AND revision = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [number, revision]).map(UInt64.init)
    }
}
