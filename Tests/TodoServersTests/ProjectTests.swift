import Foundation
import Testing
import TodoModel
import TodoServers

/// Projects on real SQLite files: stored, journaled as a field of their own and undone, and
/// moved out of the `project:NAME` tags that stood in for them in databases made before.
@Suite("Projects in the store")
struct ProjectTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)
    static let later = Date(millisecondsSince1970: 1_780_000_060_123)

    @Test("A project is stored, journaled as the project field, and undo takes it back")
    func storedAndUndone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Mow the lawn", project: "home.garden"))], at: Self.then)
        _ = try store.commit([.edit(.number(1), TodoEdit(project: "work"), expectedRevision: nil)], at: Self.later)
        #expect(try store.loadAll().todos.first?.project == "work")
        let id = try #require(try store.loadAll().todos.first?.id)
        #expect(try store.history(of: id).map(\.changedFields) == [[], [.project]])
        let undone = try store.commit([.undo(TodoUndo())], at: Self.later)
        #expect(undone.first?.ownChange?.after.project == "home.garden")
        _ = try store.commit([.edit(.number(1), TodoEdit(clearProject: true), expectedRevision: nil)], at: Self.later)
        try store.close()
        let reopened = try TodoStore(path: path)
        #expect(try reopened.loadAll().todos.first?.project == nil)
        try reopened.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("A database from before projects were a field has each todo's project:NAME tag moved into its project, in its history too, and no other tag lost")
    func databaseFromBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        // As todod wrote them then: the project a tag among the others (the store takes tags as given).
        _ = try store.commit([
            .create(NewTodo(title: "Mow the lawn", tags: ["outside", "project:home.garden", "weekend"])),
            .create(NewTodo(title: "Two projects", tags: ["project:a", "x", "project:b"])),
            .create(NewTodo(title: "None", tags: ["Project:Home", "project:", "projects"])),
        ], at: Self.then)
        _ = try store.commit([.edit(.number(1), TodoEdit(title: "Mow the lawn short"), expectedRevision: nil)], at: Self.later)
        try store.close()
        try sqlite3(path, """
            ALTER TABLE todo DROP COLUMN project; ALTER TABLE journal DROP COLUMN project;
            DELETE FROM grdb_migrations WHERE identifier = 'project';
            """)

        let migrated = try TodoStore(path: path)
        let todos = try migrated.loadAll().todos
        #expect(todos.map(\.project) == ["home.garden", "b", nil])
        #expect(todos.map(\.tags) == [["outside", "weekend"], ["project:a", "x"], ["Project:Home", "project:", "projects"]])
        let history = try migrated.history(of: todos[0].id)
        #expect(history.map(\.after.project) == ["home.garden", "home.garden"])
        #expect(history.map(\.changedFields) == [[], [.title]], "the migration is no change of the todo's")
        // Undoing the edit after the migration touches the title alone.
        let undone = try migrated.commit([.undo(TodoUndo())], at: Self.later)
        #expect(undone.first?.ownChange?.after.title == "Mow the lawn")
        #expect(undone.first?.ownChange?.after.project == "home.garden")
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }
}
