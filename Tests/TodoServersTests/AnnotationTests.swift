import Foundation
import Testing
import TodoModel
import TodoServers

/// Annotations on real SQLite files: kept in their order with their times, journaled as a
/// change of their own field, undone, and added to databases made before they existed.
@Suite("Annotations in the store")
struct AnnotationTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)
    static let later = Date(millisecondsSince1970: 1_780_000_060_123)
    static let last = Date(millisecondsSince1970: 1_780_000_120_456)

    static func annotate(_ text: String) -> TodoMutation { .edit(.number(1), TodoEdit(annotate: text), expectedRevision: nil) }

    @Test("Annotations are stored in order with their times, a denotate is journaled as their change, and undo puts the line back")
    func storedAndUndone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Fix the sink"))], at: Self.then)
        _ = try store.commit([Self.annotate("called the plumber")], at: Self.later)
        _ = try store.commit([Self.annotate("plumber comes friday")], at: Self.last)
        let both = [
            Annotation(entry: Self.later, description: "called the plumber"), Annotation(entry: Self.last, description: "plumber comes friday"),
        ]
        #expect(try store.loadAll().todos.first?.annotations == both)

        _ = try store.commit([.edit(.number(1), TodoEdit(denotate: "called"), expectedRevision: nil)], at: Self.last)
        #expect(try store.loadAll().todos.first?.annotations == [both[1]])
        let id = try #require(try store.loadAll().todos.first?.id)
        #expect(try store.history(of: id).map(\.changedFields) == [[], [.annotations], [.annotations], [.annotations]])

        let undone = try store.commit([.undo(TodoUndo())], at: Self.last)
        #expect(undone.first?.ownChange?.after.annotations == both)
        try store.close()
        // Read back from the file by a new store: the times to the millisecond.
        let reopened = try TodoStore(path: path)
        #expect(try reopened.loadAll().todos.first?.annotations == both)
        try reopened.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("A database made before annotations opens with none on every todo, and then keeps them")
    func databaseFromBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "made before"))], at: Self.then)
        try store.close()
        // As main's todod left it: a journal and a todo table without the column.
        try sqlite3(path, """
            ALTER TABLE todo DROP COLUMN annotations; ALTER TABLE journal DROP COLUMN annotations;
            DELETE FROM grdb_migrations WHERE identifier = 'annotations';
            """)
        let migrated = try TodoStore(path: path)
        #expect(try migrated.loadAll().todos.map(\.annotations) == [[]])
        _ = try migrated.commit([Self.annotate("still here")], at: Self.later)
        #expect(try migrated.loadAll().todos.first?.annotations == [Annotation(entry: Self.later, description: "still here")])
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }
}
