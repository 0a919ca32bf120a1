import Foundation
import Testing
import TodoModel
import TodoServers

/// What a todo waits for on real SQLite files: numbers resolved to ids at the write, journaled
/// as the depends field, refused whole when the rule says no, undone like any field; a
/// database from before opens.
@Suite("Dependencies in the store")
struct DependsStoreTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)

    private func failure(_ results: [TodoWriteResult]) -> TodoModelError? {
        guard case .failed(_, let error)? = results.first else { return nil }
        return error
    }

    @Test("depends:1,2 is stored as the two ids and journaled as depends; a cycle and an unknown todo are refused and write nothing; undo takes the dependency back; --check sees no difference")
    func storedRefusedAndUndone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Buy flour")), .create(NewTodo(title: "Buy eggs"))], at: Self.then)
        _ = try store.commit([.create(NewTodo(title: "Bake cake", depends: [1, 2]))], at: Self.then)
        let todos = try store.loadAll().todos.sorted { $0.number < $1.number }
        #expect(todos[2].depends == Todo.dependencySet([todos[0].id, todos[1].id]))

        let cycle = try store.commit([.edit(.number(1), TodoEdit(addDepends: [3]), expectedRevision: nil)], at: Self.then)
        #expect(failure(cycle) == .invalid(field: "depends", reason: "#3 already waits for #1 (#1 → #3 → #1), and a todo cannot wait for one that waits for it: take one dependency away first (edit 3 depends:-1)"))
        let unknown = try store.commit([.create(NewTodo(title: "Eat cake", depends: [9]))], at: Self.then)
        #expect(failure(unknown) == .invalid(field: "depends", reason: "there is no todo #9: " + RuleAdvice.nameAnExistingTodo))
        #expect(try store.loadAll().todos.count == 3)

        _ = try store.commit([.edit(.number(3), TodoEdit(removeDepends: [1]), expectedRevision: nil)], at: Self.then)
        #expect(try store.loadAll().todos.first { $0.number == 3 }?.depends == [todos[1].id])
        #expect(try store.history(of: todos[2].id).map(\.changedFields) == [[], [.depends]])
        _ = try store.commit([.undo(TodoUndo())], at: Self.then)
        try store.close()
        let reopened = try TodoStore(path: path)
        #expect(try reopened.loadAll().todos.first { $0.number == 3 }?.depends == todos[2].depends)
        try reopened.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("A database from before dependencies opens with none, and takes them")
    func databaseFromBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Buy flour")), .create(NewTodo(title: "Bake cake"))], at: Self.then)
        try store.close()
        try sqlite3(path, """
            ALTER TABLE todo DROP COLUMN depends; ALTER TABLE journal DROP COLUMN depends;
            DELETE FROM grdb_migrations WHERE identifier = 'depends';
            """)
        let migrated = try TodoStore(path: path)
        #expect(try migrated.loadAll().todos.map(\.depends) == [[], []])
        _ = try migrated.commit([.edit(.number(2), TodoEdit(addDepends: [1]), expectedRevision: nil)], at: Self.then)
        #expect(try migrated.loadAll().todos.first { $0.number == 2 }?.depends.count == 1)
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }
}
