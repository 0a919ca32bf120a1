import Foundation
import Testing
import TodoModel
import TodoServers

/// The planning fields an import carries: a recurrence, and a parent named by its id.
@Suite("Imported planning fields")
struct ImportPlanningTests {
    @Test("A parent named by id becomes the subtask link once todod has it; one it cannot take is left out, todod's kept")
    func parent() throws {
        let directory = try TemporaryDirectory()
        let store = try TodoStore(path: directory.databasePath)
        let then = ImportJournalTests.then
        let parentID = UUID(), childID = UUID(), orphanID = UUID()
        let weekly = Recurrence(count: 1, unit: .week)
        _ = try store.commit([
            .importTodo(ImportedTodo(id: parentID, title: "Garden", createdAt: then)),
            .importTodo(ImportedTodo(id: childID, title: "Mow", createdAt: then, recurrence: weekly, parentID: parentID)),
            .importTodo(ImportedTodo(id: orphanID, title: "Orphan", createdAt: then, parentID: UUID())),
        ], at: then)
        let todos = Dictionary(try store.loadAll().todos.map { ($0.id, $0) }) { first, _ in first }
        #expect(todos[childID]?.parent == todos[parentID]?.number)
        #expect(todos[childID]?.recurrence == weekly)
        #expect(todos[orphanID]?.parent == nil)
        // A later import that says nothing of either keeps them; one naming a subtask as parent is refused that link.
        _ = try store.commit([
            .importTodo(ImportedTodo(id: childID, title: "Mow the lawn", createdAt: then, updatedAt: ImportJournalTests.later)),
            .importTodo(ImportedTodo(id: orphanID, title: "Orphan", createdAt: then, updatedAt: ImportJournalTests.later, parentID: childID)),
        ], at: ImportJournalTests.later)
        let after = Dictionary(try store.loadAll().todos.map { ($0.id, $0) }) { first, _ in first }
        #expect(after[childID]?.title == "Mow the lawn")
        #expect(after[childID]?.parent == todos[parentID]?.number)
        #expect(after[childID]?.recurrence == weekly)
        #expect(after[orphanID]?.parent == nil)
        #expect(try TodoStore.checkJournal(at: directory.databasePath).differences.isEmpty)
    }
}
