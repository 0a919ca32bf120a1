import Foundation
import Testing
import TodoModel
import TodoServers

/// Times of day on real SQLite files: stored beside their days as minutes since midnight,
/// journaled with them, undone with them; a database from before times opens as it was.
@Suite("Times of day in the store")
struct TimeOfDayStoreTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)
    static let later = Date(millisecondsSince1970: 1_780_000_060_123)
    let fifteen = TimeOfDay(hour: 15, minute: 0)!
    let nineThirty = TimeOfDay(hour: 9, minute: 30)!

    @Test("Times of day are stored beside their days and journaled as the due, wait and scheduled fields; a new day without a time is due all day, and undo puts the time back; --check sees no difference")
    func storedJournaledAndUndone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(
            title: "Call the bank", due: LocalDate("2026-12-24"), wait: LocalDate("2026-12-23"), scheduled: LocalDate("2026-12-24"),
            dueTime: fifteen, waitTime: nineThirty, scheduledTime: TimeOfDay(minutes: 0)))], at: Self.then)
        let made = try #require(try store.loadAll().todos.first)
        #expect(made.dueTime == fifteen && made.waitTime == nineThirty && made.scheduledTime == TimeOfDay(minutes: 0))
        #expect(try sqlite3(path, "SELECT due, dueTime, wait, waitTime, scheduledTime FROM todo") == "2026-12-24|900|2026-12-23|570|0")

        _ = try store.commit([.edit(.number(1), TodoEdit(due: LocalDate("2026-12-24")), expectedRevision: nil)], at: Self.later)
        #expect(try store.loadAll().todos.first?.dueTime == nil)
        #expect(try store.history(of: made.id).map(\.changedFields) == [[], [.due]])
        let undone = try store.commit([.undo(TodoUndo())], at: Self.later)
        #expect(undone.first?.ownChange?.after.dueTime == fifteen)
        try store.close()

        let reopened = try TodoStore(path: path)
        let todo = try #require(try reopened.loadAll().todos.first)
        #expect(todo.dueTime == fifteen && todo.waitTime == nineThirty && todo.scheduledTime == TimeOfDay(minutes: 0))
        #expect(try reopened.history(of: made.id).first?.after.waitTime == nineThirty)
        try reopened.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("A database from before times of day opens with its todos and history as they were, due all day; a time can then be set")
    func databaseFromBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "Pay the rent", due: LocalDate("2026-12-01")))], at: Self.then)
        try store.close()
        try sqlite3(path, """
            ALTER TABLE todo DROP COLUMN dueTime; ALTER TABLE todo DROP COLUMN waitTime; ALTER TABLE todo DROP COLUMN scheduledTime;
            ALTER TABLE journal DROP COLUMN dueTime; ALTER TABLE journal DROP COLUMN waitTime; ALTER TABLE journal DROP COLUMN scheduledTime;
            DELETE FROM grdb_migrations WHERE identifier = 'times of day';
            """)
        let migrated = try TodoStore(path: path)
        let todo = try #require(try migrated.loadAll().todos.first)
        #expect(todo.due == LocalDate("2026-12-01") && todo.dueTime == nil)
        #expect(try migrated.history(of: todo.id).map(\.after.due) == [LocalDate("2026-12-01")])
        _ = try migrated.commit(
            [.edit(.number(1), TodoEdit(due: LocalDate("2026-12-01"), dueTime: fifteen), expectedRevision: nil)], at: Self.later)
        #expect(try migrated.loadAll().todos.first?.dueTime == fifteen)
        try migrated.close()
        #expect(try TodoStore.checkJournal(at: path).differences.isEmpty)
    }

    @Test("A time of day the table holds out of range is refused with the column it is in")
    func badMinutes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        let store = try TodoStore(path: path)
        _ = try store.commit([.create(NewTodo(title: "t", due: LocalDate("2026-12-01"), dueTime: fifteen))], at: Self.then)
        try store.close()
        try sqlite3(path, "UPDATE todo SET dueTime = 1440")
        let error = try #require(throws: TodoStoreError.self) { try TodoStore(path: path).loadAll() }
        #expect(error.message.contains("dueTime") && error.message.contains("1440"), "\(error.message)")
    }
}
