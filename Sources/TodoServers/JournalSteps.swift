import Foundation
import GRDB
import TodoModel

/// The journal's steps, newest first by their newest row, as `UndoWalk` reads them: a
/// cursor over the rows, so a walk reads only as far back as it goes. A step's rows are
/// consecutive when it is one transaction; one that went on across requests
/// (`TodoStore.joinable`) may have another client's changes between them, so a step is
/// read whole where its newest row is, and its older rows are passed over when the cursor
/// reaches them. A purge may have removed some rows, so a step is read from whichever of
/// its rows are left.
struct JournalSteps {
    private let db: Database
    private let rows: RowCursor
    /// The first row of the next step, read while looking for the end of this one.
    private var pending: Values?
    /// Steps read whole with older rows still ahead of the cursor, which it passes over.
    private var readAhead: Set<UInt64> = []

    private struct Values {
        var seq: UInt64
        var step: UInt64
        var at: Date
        var undoes: UInt64?
        var undoneSteps: [UInt64]
        var isRedo: Bool

        init(_ row: Row) {
            seq = UInt64(row["seq"] as Int64)
            step = UInt64(row["step"] as Int64)
            at = Date(millisecondsSince1970: row["at"])
            undoes = (row["undoes"] as Int64?).map(UInt64.init)
            undoneSteps = JournalRecord.steps(row["undoneSteps"])
            isRedo = row["isRedo"]
        }
    }

    /// Every step, or only `step` (its rows come at or after its first seq: SQLite reads a range).
    init(in db: Database, only step: UInt64? = nil) throws {
        self.db = db
        let columns = "SELECT seq, step, at, undoes, undoneSteps, isRedo FROM journal"
        if let step {
            rows = try Row.fetchCursor(db, sql: "\(columns) WHERE seq >= ? AND step = ? ORDER BY seq DESC", arguments: [Int64(step), Int64(step)])
        } else {
            rows = try Row.fetchCursor(db, sql: "\(columns) ORDER BY seq DESC")
        }
    }

    /// The next older step; nil past the oldest.
    mutating func next() throws -> UndoWalk.Step? {
        var found = try pending ?? rows.next().map(Values.init)
        pending = nil
        while let values = found, readAhead.contains(values.step) { found = try rows.next().map(Values.init) }
        guard let first = found else { return nil }
        var undoneSteps = Set<UInt64>()
        var legacyUndoes = Set<UInt64>()
        var isRedo = false
        func add(_ values: Values) {
            undoneSteps.formUnion(values.undoneSteps)
            if let undoes = values.undoes { legacyUndoes.insert(undoes) }
            isRedo = isRedo || values.isRedo
        }
        add(first)
        var oldest = first.seq
        while let row = try rows.next() {
            let values = Values(row)
            guard values.step == first.step else {
                pending = values
                break
            }
            oldest = values.seq
            add(values)
        }
        // Rows of it before another step's: read now, at its newest row, and passed over later.
        var whole = true
        if oldest > first.step, pending != nil {
            let older = try Row.fetchAll(
                db, sql: "SELECT seq, step, at, undoes, undoneSteps, isRedo FROM journal WHERE seq >= ? AND seq < ? AND step = ? ORDER BY seq",
                arguments: [Int64(first.step), Int64(oldest), Int64(first.step)]
            ).map(Values.init)
            older.forEach(add)
            if let lowest = older.first?.seq {
                oldest = lowest
                readAhead.insert(first.step)
                whole = try Int64.fetchOne(db, sql: "SELECT count(*) FROM journal WHERE seq BETWEEN ? AND ?", arguments: [Int64(oldest), Int64(first.seq)])
                    == Int64(first.seq - oldest + 1)
            }
        }
        // An undo journaled before redo names only the change it took back, first of its step.
        if undoneSteps.isEmpty, !legacyUndoes.isEmpty {
            for seq in legacyUndoes {
                guard let row = try Row.fetchOne(db, sql: "SELECT step, undoes FROM journal WHERE seq = ?", arguments: [Int64(seq)]) else { continue }
                undoneSteps.insert(UInt64(row["step"] as Int64))
                // Then an undo of an undo was a redo.
                if (row["undoes"] as Int64?) != nil { isRedo = true }
            }
        }
        return UndoWalk.Step(step: first.step, at: first.at, undoneSteps: undoneSteps.sorted(), isRedo: isRedo, seqs: oldest...first.seq, whole: whole)
    }
}
