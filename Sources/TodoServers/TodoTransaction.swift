import Foundation
import GRDB
import TodoModel

/// The writes of one commit. Every row write goes through `write(_:before:undoes:)`: it
/// gives the change the next sequence number and appends its journal entry in the same
/// transaction, so that there is no change without its entry and no entry without its
/// change, whatever kills the process.
///
/// A mutation that changes several todos calls `write` once for each; `TodoStore` hands
/// them all, in order, to the ModelServer, which broadcasts every one. A mutation decides
/// whether it fails before its first write: its writes are kept once made.
struct TodoTransaction {
    let db: Database
    let now: Date
    /// Who the mutation being applied came from.
    var author = ChangeAuthor()
    /// The step an earlier mutation began that this one's changes go on; nil: its own.
    var joining: UInt64?
    private(set) var counters: Counters
    /// The changes of the mutation being applied, in order.
    private(set) var changes: [JournalEntry] = []
    private let journal = JournalRecord.Writer()

    init(db: Database, now: Date) throws {
        self.db = db
        self.now = now
        counters = try Counters.load(db)
    }

    /// A new todo's number: never used before, never reused.
    mutating func nextNumber() -> Int {
        counters.number += 1
        return counters.number
    }

    /// Marks `number` used (a replayed todo brings its own), so that no new todo gets it.
    mutating func useNumber(_ number: Int) {
        counters.number = max(counters.number, number)
    }

    /// Writes `after` over `before` (inserts it when `before` is nil), numbers the change
    /// and journals it. `before` must be the row as this transaction read it.
    @discardableResult
    mutating func write(_ after: Todo, before: Todo?, undoes: UInt64? = nil, undoneSteps: [UInt64] = [], isRedo: Bool = false) throws -> JournalEntry {
        let (first, now, author) = (joining ?? changes.first?.seq, now, author)
        return try write(after, before: before) { seq in
            JournalEntry(seq: seq, step: first ?? seq, at: now, author: author, kind: TodoChangeKind(before: before, after: after),
                         before: before, after: after, undoes: undoes, undoneSteps: undoneSteps, isRedo: isRedo)
        }
    }

    /// Writes a change replayed from another journal: `journaled` gives its entry here,
    /// from the seq it gets (its step, time and author are the other journal's, translated).
    @discardableResult
    mutating func write(_ after: Todo, before: Todo?, journaled: (UInt64) -> JournalEntry) throws -> JournalEntry {
        if before == nil {
            try TodoRecord(after).insert(db)
        } else {
            try TodoRecord.update(after, in: db)
        }
        counters.change += 1
        let entry = journaled(UInt64(counters.change))
        try journal.append(entry, in: db)
        changes.append(entry)
        return entry
    }

    /// Makes the next change number `seq` when the journal has not passed it, or else leaves
    /// one unused when `gap`: a replay keeps the other journal's seqs, and with them the gap
    /// a purge left there, which `undo` does not step back past.
    mutating func numberNextChange(_ seq: UInt64, gap: Bool) {
        let wanted = Int64(clamping: seq) - 1
        if wanted > counters.change {
            counters.change = wanted
        } else if gap {
            counters.change += 1
        }
    }

    /// Removes deleted todos and their journal entries for good; takes one change number,
    /// journaled nowhere, so that Views see a gap and read their lists again.
    mutating func purge(deletedBefore: Date?, as mutation: TodoMutation) throws -> TodoWriteResult {
        let todos = try TodoRecord.fetchAll(
            db, sql: "SELECT * FROM todo WHERE deletedAt IS NOT NULL AND deletedAt <= ?",
            arguments: [deletedBefore?.millisecondsSince1970 ?? Int64.max]).map(\.todo)
        guard !todos.isEmpty else { return .purged(mutation, [], change: UInt64(counters.change)) }
        try TodoTransaction.remove(numbers: todos.map(\.number), in: db)
        counters.change += 1
        try PurgeMark.record(UInt64(counters.change), in: db)
        return .purged(mutation, todos, change: UInt64(counters.change))
    }

    /// Removes the todos of these numbers and their journal entries (a purge, here or
    /// through a shared store).
    static func remove(numbers: [Int], in db: Database) throws {
        for number in numbers {
            try db.execute(sql: "DELETE FROM journal WHERE number = ?", arguments: [number])
            try db.execute(sql: "DELETE FROM todo WHERE number = ?", arguments: [number])
        }
    }

    /// The todos `ref` names as this transaction sees them: at most two.
    func todos(_ ref: TodoRef) throws -> [Todo] {
        try TodoRecord.fetch(ref, in: db)
    }

    /// The changes of the mutation just applied; the next mutation starts a new step.
    mutating func takeChanges() -> [JournalEntry] {
        defer { changes = [] }
        return changes
    }

    func save() throws {
        try counters.save(db)
    }
}
