import Foundation
import Testing
import TodoModel

/// Undo and the journal check, worked out from journal entries alone.
@Suite("Journal undo and check")
struct JournalUndoTests {
    static let t0 = Date(millisecondsSince1970: 1_780_000_000_000)
    static let now = Date(millisecondsSince1970: 1_780_000_900_000)
    static let created = Todo(number: 1, title: "Call plumber", notes: "boiler", createdAt: t0)

    /// A journal of one todo: created, then each edit in turn, one change per edit.
    static func journal(_ edits: [(inout Todo) -> Void]) -> [JournalEntry] {
        var entries = [JournalEntry(seq: 1, step: 1, at: t0, author: ChangeAuthor(), kind: .created, before: nil, after: created)]
        var todo = created
        for (index, edit) in edits.enumerated() {
            let before = todo
            edit(&todo)
            todo.revision += 1
            let seq = UInt64(index + 2)
            entries.append(JournalEntry(seq: seq, step: seq, at: t0, author: ChangeAuthor(), kind: TodoChangeKind(before: before, after: todo),
                                        before: before, after: todo))
        }
        return entries
    }

    static func undo(_ seqs: [UInt64], in journal: [JournalEntry], force: Bool = false) throws(TodoModelError) -> [JournalUndo.Write] {
        let current = journal.last!.after
        return try JournalUndo.writes(
            undoing: journal.filter { seqs.contains($0.seq) }, history: journal, current: [current.id: current], at: now, force: force)
    }

    @Test("undoing an edit of the title puts the old title back and leaves a later edit of the notes alone")
    func fieldByField() throws {
        let journal = Self.journal([{ $0.title = "Call the plumber" }, { $0.notes = "boiler and sink" }])
        let writes = try Self.undo([2], in: journal)
        #expect(writes.count == 1)
        #expect(writes.first?.after.title == "Call plumber")
        #expect(writes.first?.after.notes == "boiler and sink")
        #expect(writes.first?.after.revision == 4 && writes.first?.after.updatedAt == Self.now && writes.first?.undoes == 2)
    }

    @Test("undoing a change whose field changed again is a conflict naming the later change, unless forced")
    func conflict() throws {
        let journal = Self.journal([{ $0.title = "Call the plumber" }, { $0.title = "Call Bob" }])
        #expect(throws: TodoModelError.undoConflict(field: "title", undoing: 2, later: 3, current: journal[2].after)) {
            try Self.undo([2], in: journal)
        }
        #expect(try Self.undo([2], in: journal, force: true).first?.after.title == "Call plumber")
        // Undone together, newest first, there is no clash.
        #expect(try Self.undo([2, 3], in: journal).first?.after.title == "Call plumber")
    }

    @Test("undoing a create deletes softly, a delete restores, a completion reopens")
    func kinds() throws {
        let journal = Self.journal([{ $0.completedAt = Self.t0 }, { $0.deletedAt = Self.t0 }])
        let restored = try #require(try Self.undo([3], in: journal).first)
        #expect(restored.after.deletedAt == nil && TodoChangeKind(before: restored.before, after: restored.after) == .restored)
        let reopened = try #require(try Self.undo([2], in: journal).first)
        #expect(reopened.after.completedAt == nil && reopened.after.isDeleted)
        let deleted = try #require(try Self.undo([1], in: Self.journal([])).first)
        #expect(deleted.after.deletedAt == Self.now && TodoChangeKind(before: deleted.before, after: deleted.after) == .deleted)
    }

    @Test("an entry keeps the steps its undo or redo took back through JSON; a change's JSON is as it was before redo")
    func stepsThroughJSON() throws {
        let journal = Self.journal([{ $0.title = "x" }])
        var undo = journal[1]
        undo.undoneSteps = [2, 5]
        undo.isRedo = true
        let decoded = try JSONDecoder().decode(JournalEntry.self, from: JSONEncoder().encode(undo))
        #expect(decoded == undo)
        let change = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(journal[1])) as? [String: Any])
        #expect(change["undoneSteps"] == nil && change["isRedo"] == nil, "\(change)")
        #expect(try JSONDecoder().decode(JournalEntry.self, from: JSONEncoder().encode(journal[1])) == journal[1])
    }

    @Test("an undo that would change nothing writes nothing")
    func nothingToDo() throws {
        let journal = Self.journal([{ $0.title = "x" }, { $0.title = "Call plumber" }])
        #expect(try Self.undo([2, 3], in: journal).isEmpty)
    }

    @Test("the check rebuilds the table from the journal and names each difference")
    func check() {
        let journal = Self.journal([{ $0.title = "Call the plumber" }, { $0.completedAt = Self.t0 }])
        let table = [journal.last!.after]
        #expect(JournalCheck.differences(journal: journal, table: table, lastChange: 3).isEmpty)
        var edited = table[0]
        edited.title = "changed behind todod's back"
        #expect(JournalCheck.differences(journal: journal, table: [edited], lastChange: 3) == ["#1 differs: title differs"])
        #expect(JournalCheck.differences(journal: Array(journal.prefix(2)), table: table, lastChange: 3).first?.contains("revision 3 in the table, 2 in the journal") == true)
        let stranger = Todo(number: 2, title: "no history", createdAt: Self.t0)
        #expect(JournalCheck.differences(journal: journal, table: table + [stranger], lastChange: 3).first?.contains("has no change in the journal") == true)
        #expect(JournalCheck.differences(journal: journal, table: [], lastChange: 3).first?.contains("not in the table") == true)
        #expect(JournalCheck.differences(journal: journal, table: table, lastChange: 2).first?.contains("change counter") == true)
        var mislabelled = journal
        mislabelled[2].kind = .updated
        #expect(JournalCheck.differences(journal: mislabelled, table: table, lastChange: 3).first?.contains("journaled as updated") == true)
    }
}
