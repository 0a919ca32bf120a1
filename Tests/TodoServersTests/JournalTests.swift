import Foundation
import Testing
import TodoModel
import TodoServers

/// The journal on real SQLite files: every row write leaves its entry, in the same
/// transaction, and older databases get one for every todo they hold.
@Suite("Journal")
struct JournalTests {
    static let now = Date(millisecondsSince1970: 1_780_000_000_000)
    static let later = Date(millisecondsSince1970: 1_780_000_060_000)

    @Test("another machine's change keeps its machine in the journal; a journal made before machines were named reads as before, naming none, and keeps them from then on")
    func machineOfAChange() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "made before"))], at: Self.now, by: [ChangeAuthor(client: 3, program: "todoctl")])
        try store.close()
        // As main's todod left it: a journal without the column.
        _ = try sqlite3(path, "ALTER TABLE journal DROP COLUMN machine; DELETE FROM grdb_migrations WHERE identifier = 'journal: machine';")
        let migrated = try TodoStore(path: path)
        #expect(try migrated.changes(after: 0, limit: 10).map(\.author) == [ChangeAuthor(client: 3, program: "todoctl")])
        let laptop = ChangeAuthor(client: 8, program: "todoctl", machine: "laptop")
        _ = try migrated.commit([.create(NewTodo(title: "made on the laptop"))], at: Self.later, by: [laptop])
        #expect(try migrated.changes(after: 0, limit: 10).map(\.author.machine) == [nil, "laptop"])
        #expect(laptop.description == "todoctl (client 8 on laptop)")
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("every write is journaled with its own seq, who made it, when, and the todo before and after")
    func everyWriteIsJournaled() throws {
        let directory = try TemporaryDirectory()
        let store = try TodoStore(path: directory.databasePath)
        let me = ChangeAuthor(client: 3, program: "todoctl")
        let other = ChangeAuthor(client: 4, program: "watch")
        _ = try store.commit([.create(NewTodo(title: "Call plumber")), .create(NewTodo(title: "Milk"))], at: Self.now, by: [me, other])
        let edit = TodoEdit(title: "Call the plumber about the boiler")
        let results = try store.commit(
            [.edit(.number(1), edit, expectedRevision: 1), .complete(.number(1)), .complete(.number(1)), .delete(.number(9))],
            at: Self.later, by: [me, other, me, me])
        #expect(results.compactMap(\.ownChange?.seq) == [3, 4])
        let history = try store.history(of: try #require(results[0].ownChange).after.id)
        #expect(history.map(\.seq) == [1, 3, 4])
        #expect(history.map(\.kind) == [.created, .updated, .completed])
        #expect(history.map(\.author) == [me, me, other])
        #expect(history.map(\.at) == [Self.now, Self.later, Self.later])
        #expect(history[1].before?.title == "Call plumber" && history[1].after.title == edit.title)
        #expect(history[1].changedFields == [.title])
        #expect(history[2].before == history[1].after)
        #expect(history[2].after.revision == 3)
        // The unchanged completion and the failed delete wrote nothing.
        #expect(try store.journalCount() == 4)
        #expect(try store.loadAll().lastChange == 4)
    }

    @Test("a commit that fails leaves neither its changes nor their entries")
    func failedCommitLeavesNoEntry() throws {
        let directory = try TemporaryDirectory()
        let store = try TodoStore(path: directory.databasePath)
        _ = try store.commit([.create(NewTodo(title: "one"))], at: Self.now)
        try sqlite3(directory.databasePath, "CREATE TRIGGER skip BEFORE UPDATE ON todo BEGIN SELECT RAISE(IGNORE); END;")
        #expect(throws: TodoStoreError.self) {
            try store.commit([.create(NewTodo(title: "two")), .complete(.number(1))], at: Self.later)
        }
        #expect(try sqlite3(directory.databasePath, "SELECT seq || ' ' || kind FROM journal") == "1 created")
    }

    @Test("a database from before the journal gets an imported created entry for every todo, after its last change")
    func existingTodosAreImported() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "one")), .create(NewTodo(title: "two"))], at: Self.now)
        _ = try store.commit([.complete(.number(2))], at: Self.later)
        try store.close()
        // As todod 0.2 left it: no journal, and GRDB's record of the first two migrations.
        try sqlite3(path, "DROP TABLE journal; DELETE FROM grdb_migrations WHERE identifier LIKE 'v3%';")
        let migrated = try TodoStore(path: path)
        let todos = try migrated.loadAll()
        #expect(todos.lastChange == 5)
        let entries = try migrated.changes(after: 0, limit: 10)
        #expect(entries.map(\.seq) == [4, 5])
        #expect(entries.allSatisfy { $0.imported && $0.kind == .created && $0.before == nil })
        #expect(entries.map(\.after) == todos.todos)
        let next = try migrated.commit([.reopen(.number(2))], at: Self.later)
        #expect(next.first?.ownChange?.seq == 6)
        #expect(try migrated.history(of: todos.todos[1].id).map(\.kind) == [.created, .reopened])
    }
}

/// Which missing change numbers were purges (`PurgeMark`): recorded where a purge happens,
/// and read from the journal's gaps in a database from before they were.
@Suite("Purges recorded")
struct PurgeMarkTests {
    static let now = Date(millisecondsSince1970: 1_780_000_000_000)

    private func undoRefusal(_ store: TodoStore) throws -> String? {
        guard case .failed(_, .nothingToUndo(let why)) = try store.commit([.undo(TodoUndo())], at: Self.now)[0] else { return nil }
        return why
    }

    @Test("a purge is recorded with its change number, and undo stops there however many changes follow; a database from before purges were recorded finds its newest gap to be one")
    func purgeRecordedAndMigrated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "gone")), .create(NewTodo(title: "kept"))], at: Self.now)
        _ = try store.commit([.delete(.number(1))], at: Self.now)
        _ = try store.commit([.purge(deletedBefore: nil)], at: Self.now)
        #expect(try sqlite3(path, "SELECT value FROM counter WHERE name = 'purge'") == "4")
        _ = try store.commit([.create(NewTodo(title: "after"))], at: Self.now)
        _ = try store.commit([.undo(TodoUndo())], at: Self.now)
        #expect(try undoRefusal(store)?.contains("a purge") == true)
        try store.close()

        // As a database journaled before this migration: no mark, the gaps alone.
        try sqlite3(path, "DELETE FROM counter WHERE name = 'purge'; DELETE FROM grdb_migrations WHERE identifier = 'journal: the newest purge recorded';")
        let reopened = try TodoStore(path: path)
        #expect(try sqlite3(path, "SELECT value FROM counter WHERE name = 'purge'") == "4")
        #expect(try undoRefusal(reopened)?.contains("a purge") == true)
        try reopened.close()
    }

    @Test("a number no journal row holds but no purge took (left by sharing) does not stop undo")
    func unusedNumberIsNoPurge() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "one"))], at: Self.now)
        try store.close()
        // Change 2 left unused, as sharing changes kept offline leaves one; change 3 made after it.
        try sqlite3(path, "UPDATE counter SET value = 2 WHERE name = 'change'")
        let reopened = try TodoStore(path: path)
        _ = try reopened.commit([.create(NewTodo(title: "two"))], at: Self.now)
        try sqlite3(path, "DELETE FROM counter WHERE name = 'purge'")
        let undone = try reopened.commit([.undo(TodoUndo())], at: Self.now)
        #expect(undone[0].ownChange?.after.title == "two")
        let again = try reopened.commit([.undo(TodoUndo())], at: Self.now)
        #expect(again[0].ownChange?.after.title == "one", "\(again)")
        try reopened.close()
    }
}
