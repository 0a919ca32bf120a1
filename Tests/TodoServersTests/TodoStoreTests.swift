import Foundation
import Testing
import TodoModel
import TodoServers

/// The store on real SQLite files, checked from outside with the `sqlite3` shell.
@Suite("Store")
struct TodoStoreTests {
    static let now = Date(millisecondsSince1970: 1_780_000_000_000)

    /// A store at `directory`'s database with the given titles committed.
    func store(in directory: TemporaryDirectory, titles: [String]) throws -> TodoStore {
        let store = try TodoStore(path: directory.databasePath)
        _ = try store.commit(titles.map { .create(NewTodo(title: $0)) }, at: Self.now)
        return store
    }

    /// Copies the database file alone (no -wal, no -shm) and lists its titles.
    func titlesInFileAlone(_ path: String, directory: TemporaryDirectory) throws -> String {
        let copy = directory.url.appendingPathComponent("copy-\(UUID().uuidString.prefix(8)).sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return try sqlite3(copy, "SELECT title FROM todo ORDER BY number")
    }

    @Test("after close, the database file alone holds every todo, and no -wal is left")
    func closeCheckpoints() throws {
        let directory = try TemporaryDirectory()
        let store = try store(in: directory, titles: ["one", "two"])
        try store.close()
        #expect(try titlesInFileAlone(directory.databasePath, directory: directory) == "one\ntwo")
        #expect(!FileManager.default.fileExists(atPath: directory.databasePath + "-wal"))
    }

    @Test("a checkpoint while open empties the -wal into the file")
    func checkpointWhileOpen() throws {
        let directory = try TemporaryDirectory()
        let store = try store(in: directory, titles: ["kept"])
        try store.checkpoint()
        let wal = try FileManager.default.attributesOfItem(atPath: directory.databasePath + "-wal")
        #expect(wal[.size] as? Int == 0)
        #expect(try titlesInFileAlone(directory.databasePath, directory: directory) == "kept")
        _ = try store.commit([.create(NewTodo(title: "after"))], at: Self.now)
    }

    @Test("a backup while open is one whole file; an existing file is refused unless overwrite is asked")
    func backup() throws {
        let directory = try TemporaryDirectory()
        let store = try store(in: directory, titles: ["one", "two"])
        let target = directory.url.appendingPathComponent("backup.sqlite").path
        try store.backup(to: target)
        #expect(try sqlite3(target, "SELECT title FROM todo ORDER BY number") == "one\ntwo")
        #expect(try sqlite3(target, "PRAGMA journal_mode") == "delete")
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"))

        _ = try store.commit([.create(NewTodo(title: "three"))], at: Self.now)
        #expect(throws: TodoStoreError.self) { try store.backup(to: target) }
        #expect(try sqlite3(target, "SELECT count(*) FROM todo") == "2")
        try store.backup(to: target, overwrite: true)
        #expect(try sqlite3(target, "SELECT count(*) FROM todo") == "3")
        // The copy is a todod database: a store opens it.
        #expect(try TodoStore(path: target).loadAll().todos.map(\.title) == ["one", "two", "three"])
    }

    @Test("another program's SQLite database is refused, saying so, and left byte for byte as it was")
    func foreignDatabaseIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.databasePath
        try sqlite3(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: TodoStoreError.self) { try TodoStore(path: path) }
        #expect(error.message.contains("another program's SQLite database"))
        #expect(error.message.contains("notes"))
        #expect(error.message.contains("--database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test("a file that is not SQLite is refused and left alone")
    func notSQLiteIsRefused() throws {
        let directory = try TemporaryDirectory()
        try Data("my shopping list\n".utf8).write(to: URL(fileURLWithPath: directory.databasePath))
        let error = try #require(throws: TodoStoreError.self) { try TodoStore(path: directory.databasePath) }
        #expect(error.message.contains("not an SQLite database"))
        #expect(try String(contentsOfFile: directory.databasePath, encoding: .utf8) == "my shopping list\n")
        // Cut short inside SQLite's 100-byte header.
        let truncated = directory.url.appendingPathComponent("truncated.sqlite")
        try Data("SQLite format 3\0 and no more".utf8).write(to: truncated)
        #expect(throws: TodoStoreError.self) { try TodoStore(path: truncated.path) }
    }

    @Test("a new database, an empty SQLite file and a todod 0.1.0 database are all taken and marked as todod's")
    func databasesAreMarked() throws {
        let directory = try TemporaryDirectory()
        let new = directory.databasePath
        try store(in: directory, titles: ["new"]).close()
        #expect(try sqlite3(new, "PRAGMA application_id") == "1416578159")

        let empty = directory.url.appendingPathComponent("empty.sqlite").path
        try sqlite3(empty, "PRAGMA user_version = 0; VACUUM;")
        try TodoStore(path: empty).close()
        #expect(try sqlite3(empty, "PRAGMA application_id") == "1416578159")

        // What todod 0.1.0 left: its tables and GRDB's record of the first migration, no mark.
        let old = directory.url.appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: new, toPath: old)
        try sqlite3(old, "PRAGMA application_id = 0; DROP TABLE journal; DROP TABLE replica; DROP TABLE pending; DROP TABLE conflict; DELETE FROM grdb_migrations WHERE identifier != 'v1: todos and counters';"
            + "DROP INDEX todo_parent; DROP INDEX todo_previous; ALTER TABLE todo DROP COLUMN recurrence; ALTER TABLE todo DROP COLUMN parent;"
            + "ALTER TABLE todo DROP COLUMN wait; ALTER TABLE todo DROP COLUMN previous; ALTER TABLE todo DROP COLUMN foreignFields; ALTER TABLE todo DROP COLUMN annotations; ALTER TABLE todo DROP COLUMN project;"
            + "ALTER TABLE todo DROP COLUMN started; ALTER TABLE todo DROP COLUMN depends; ALTER TABLE todo DROP COLUMN scheduled; ALTER TABLE todo DROP COLUMN until;"
            + "ALTER TABLE todo DROP COLUMN dueTime; ALTER TABLE todo DROP COLUMN waitTime; ALTER TABLE todo DROP COLUMN scheduledTime;")
        let reopened = try TodoStore(path: old)
        #expect(try reopened.loadAll().todos.map(\.title) == ["new"])
        try reopened.close()
        #expect(try sqlite3(old, "PRAGMA application_id") == "1416578159")
    }

    @Test("an update that changes no row fails the whole commit with a storage error and writes nothing")
    func updateMustChangeOneRow() throws {
        let directory = try TemporaryDirectory()
        let store = try store(in: directory, titles: ["one"])
        // Another program's trigger silently skips every update of the row.
        try sqlite3(directory.databasePath, "CREATE TRIGGER skip BEFORE UPDATE ON todo BEGIN SELECT RAISE(IGNORE); END;")
        let error = try #require(throws: TodoStoreError.self) {
            try store.commit([.create(NewTodo(title: "two")), .complete(.number(1))], at: Self.now)
        }
        #expect(error.message.contains("changed no row"))
        #expect(try store.loadAll().todos.map(\.title) == ["one"])
    }

    @Test("a reference names the same todo in a write as in a read: a UUID prefix, any case")
    func referenceResolvesOnce() throws {
        let directory = try TemporaryDirectory()
        let store = try store(in: directory, titles: ["one"])
        let todo = try #require(try store.loadAll().todos.first)
        let prefix = try #require(TodoRef(String(todo.id.uuidString.uppercased().prefix(8))))
        #expect(prefix.matches(todo))
        let results = try store.commit([.complete(prefix)], at: Self.now)
        guard let written = try #require(results.first).ownChange?.after else {
            Issue.record("expected a write, got \(results)")
            return
        }
        #expect(written.id == todo.id && written.isCompleted)
    }
}
