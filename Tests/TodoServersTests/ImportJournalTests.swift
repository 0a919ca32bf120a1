import Foundation
import Testing
import TodoModel
import TodoServers

/// Imports on real SQLite files go through the journal like any write: numbered,
/// journaled with their fields from other programs, checked and undone alike.
@Suite("Imports in the journal")
struct ImportJournalTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)
    static let later = Date(millisecondsSince1970: 1_780_000_060_000)

    static func imported(_ title: String, id: UUID, updatedAt: Date = then, completedAt: Date? = nil, foreign: [String: String]) -> ImportedTodo {
        ImportedTodo(id: id, title: title, createdAt: then, updatedAt: updatedAt, completedAt: completedAt, foreign: foreign)
    }

    @Test("An import is journaled with its true kind and foreign fields, todod --check agrees, and undo puts the fields back")
    func journaled() throws {
        let directory = try TemporaryDirectory()
        let store = try TodoStore(path: directory.databasePath)
        let id = UUID()
        let author = ChangeAuthor(client: 2, program: "todoctl")
        _ = try store.commit([.importTodo(Self.imported("Write report", id: id, foreign: ["taskwarrior": #"{"estimate":3}"#]))], at: Self.later, by: [author])
        let done = Self.imported("Write report", id: id, updatedAt: Self.later, completedAt: Self.later, foreign: ["taskwarrior": #"{"estimate":5}"#])
        let results = try store.commit([.importTodo(done)], at: Self.later, by: [author])
        #expect(results.first?.ownChange?.seq == 2)

        let history = try store.history(of: id)
        #expect(history.map(\.kind) == [.created, .completed])
        #expect(history.map(\.author) == [author, author])
        #expect(history[0].after.foreign == ["taskwarrior": #"{"estimate":3}"#])
        #expect(history[1].changedFields == [.completedAt, .foreign])
        #expect(try TodoStore.checkJournal(at: directory.databasePath).differences.isEmpty)

        let undone = try store.commit([.undo(TodoUndo())], at: Self.later)
        #expect(undone.first?.ownChange?.after.foreign == ["taskwarrior": #"{"estimate":3}"#])
        #expect(undone.first?.ownChange?.after.completedAt == nil)
        #expect(try TodoStore.checkJournal(at: directory.databasePath).differences.isEmpty)
    }

    @Test("A database journaled before the foreign fields existed gets them in both tables, and its history still checks")
    func journalBeforeForeignFields() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "made before"))], at: Self.then)
        try store.close()
        // As main's todod left it: a journal and a todo table without the column.
        try sqlite3(path, """
            ALTER TABLE todo DROP COLUMN foreignFields; ALTER TABLE journal DROP COLUMN foreignFields;
            DELETE FROM grdb_migrations WHERE identifier = 'interop: foreign fields';
            """)
        let migrated = try TodoStore(path: path)
        let id = UUID()
        _ = try migrated.commit([.importTodo(Self.imported("came later", id: id, foreign: ["ical": "X-APPLE-SORT-ORDER:3"]))], at: Self.later)
        #expect(try migrated.loadAll().todos.map(\.title) == ["made before", "came later"])
        #expect(try migrated.history(of: id).map(\.after.foreign) == [["ical": "X-APPLE-SORT-ORDER:3"]])
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }
}
