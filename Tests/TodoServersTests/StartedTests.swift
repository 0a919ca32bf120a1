import Foundation
import Testing
import TodoModel
import TodoServers

/// A todo's start on real SQLite files: stored at the time of the write, journaled as the
/// started field, stopped by done, undone like any field; a database from before opens.
@Suite("Started todos in the store")
struct StartedTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)
    static let later = Date(millisecondsSince1970: 1_780_000_060_123)

    @Test("A start is stored at the write's time and journaled as started; a second start keeps the first; done stops it; undo starts it again; --check sees no difference")
    func storedStoppedAndUndone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Write the report"))], at: Self.then)
        _ = try store.commit([.edit(.number(1), TodoEdit(active: true), expectedRevision: nil)], at: Self.then)
        _ = try store.commit([.edit(.number(1), TodoEdit(active: true), expectedRevision: nil)], at: Self.later)
        #expect(try store.loadAll().todos.first?.started == Self.then)
        _ = try store.commit([.complete(.number(1))], at: Self.later)
        #expect(try store.loadAll().todos.first?.started == nil)
        let id = try #require(try store.loadAll().todos.first?.id)
        #expect(try store.history(of: id).map(\.changedFields) == [[], [.started], [.completedAt, .started]])
        let undone = try store.commit([.undo(TodoUndo())], at: Self.later)
        #expect(undone.first?.ownChange?.after.started == Self.then)
        try store.close()
        let reopened = try TodoStore(path: path)
        #expect(try reopened.loadAll().todos.first?.started == Self.then)
        try reopened.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("A database from before todos could be started opens with none started, its history whole")
    func databaseFromBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Write the report"))], at: Self.then)
        try store.close()
        try sqlite3(path, """
            ALTER TABLE todo DROP COLUMN started; ALTER TABLE journal DROP COLUMN started;
            DELETE FROM grdb_migrations WHERE identifier = 'started';
            """)
        let migrated = try TodoStore(path: path)
        #expect(try migrated.loadAll().todos.map(\.started) == [nil])
        _ = try migrated.commit([.edit(.number(1), TodoEdit(active: true), expectedRevision: nil)], at: Self.later)
        #expect(try migrated.loadAll().todos.first?.started == Self.later)
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }
}
