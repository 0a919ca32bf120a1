import Foundation
import GRDB
import TodoModel

/// The SQLite database: one file in WAL mode with `synchronous=FULL`, so that a
/// committed write survives a power cut. The ModelServer is its only writer.
///
/// The file is marked as todod's (`PRAGMA application_id`, see `DatabaseFile`): an
/// existing file is opened only when it is empty or todod's own.
public final class TodoStore: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Opens (creating when missing) the database at `path` and migrates it.
    /// - Parameter maximumPageCount: caps the file's size in pages; tests use it to make
    ///   the disk "full".
    /// - Throws: `TodoStoreError` (before writing anything) when the file is another
    ///   program's, not SQLite, or not writable; SQLite's errors otherwise.
    public init(path: String, maximumPageCount: Int? = nil) throws {
        try TodoStore.check(path)
        self.path = path
        var configuration = Configuration()
        configuration.label = "todod"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            if let maximumPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maximumPageCount)") }
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try TodoStore.migrator.migrate(pool)
    }

    /// Throws, saying what to do, unless a `TodoStore` may open `path`: it is missing,
    /// an empty database, or todod's, and writable. Reads only; writes nothing.
    public static func check(_ path: String) throws(TodoStoreError) {
        try DatabaseFile.check(path)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(DatabaseFile.firstMigration) { db in
            try db.execute(sql: """
                CREATE TABLE todo (
                    id TEXT PRIMARY KEY NOT NULL,
                    number INTEGER NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    notes TEXT NOT NULL DEFAULT '',
                    priority TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high')),
                    due TEXT,
                    tags TEXT NOT NULL DEFAULT '[]',
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL,
                    completedAt INTEGER,
                    deletedAt INTEGER,
                    revision INTEGER NOT NULL
                );
                -- Numbers and change sequence numbers only grow: never reused, also after deletes.
                CREATE TABLE counter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
                INSERT INTO counter (name, value) VALUES ('number', 0), ('change', 0);
                """)
        }
        // Marks new databases and those made by todod 0.1.0, which were not marked.
        migrator.registerMigration("v2: application id") { db in
            try db.execute(sql: "PRAGMA application_id = \(DatabaseFile.applicationID)")
        }
        return migrator
    }

    /// Every todo, deleted ones included, and the last committed change's sequence number.
    /// The reading connection is closed afterwards: the ModelServer never reads again, and
    /// SQLite's page cache for it would stay in memory for nothing.
    public func loadAll() throws -> (todos: [Todo], lastChange: UInt64) {
        defer { pool.releaseMemory() }
        return try pool.read { db in
            // A row at a time (a cursor, not an array of rows): the rows' memory is reused,
            // so the todos' strings are not left scattered among freed rows.
            var todos: [Todo] = []
            todos.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0)
            let records = try TodoRecord.fetchCursor(db, sql: "SELECT * FROM todo ORDER BY number")
            while let record = try records.next() { todos.append(record.todo) }
            return (todos, UInt64(try Counters.load(db).change))
        }
    }

    /// Applies the mutations in order, in one transaction, and returns once it is durable.
    /// It blocks the calling thread for the disk: call it from the storage thread.
    ///
    /// A mutation that cannot apply (unknown todo, stale revision) is answered as failed
    /// and the others still commit; an error from SQLite, or an update that changed no
    /// row, fails them all and writes nothing.
    public func commit(_ mutations: [TodoMutation], at now: Date) throws -> [TodoWriteResult] {
        try pool.write { db in
            var counters = try Counters.load(db)
            let results = try mutations.map { mutation in
                try TodoStore.apply(mutation, in: db, at: now, counters: &counters)
            }
            try counters.save(db)
            return results
        }
    }

    private static func apply(_ mutation: TodoMutation, in db: Database, at now: Date, counters: inout Counters) throws -> TodoWriteResult {
        if case .create(let new) = mutation {
            counters.number += 1
            let todo = Todo(
                number: counters.number, title: new.title, notes: new.notes, priority: new.priority,
                due: new.due, tags: new.tags, createdAt: now)
            try TodoRecord(todo).insert(db)
            counters.change += 1
            return .written(mutation, todo, change: UInt64(counters.change))
        }
        guard let ref = mutation.target else { return .failed(mutation, .storage("a mutation without a target")) }
        let matches = try TodoRecord.fetch(ref, in: db)
        guard let current = matches.first else { return .failed(mutation, .notFound(ref)) }
        guard matches.count == 1 else { return .failed(mutation, .ambiguous(ref)) }
        let next: Todo
        do {
            guard let applied = try mutation.applied(to: current, at: now) else { return .unchanged(mutation, current) }
            next = applied
        } catch {
            return .failed(mutation, error)
        }
        try update(next, in: db)
        counters.change += 1
        return .written(mutation, next, change: UInt64(counters.change))
    }

    /// Writes `todo` over its row, which must change exactly one row: the row was just
    /// read in this transaction, so anything else means the database is not as todod left it.
    private static func update(_ todo: Todo, in db: Database) throws {
        do {
            try TodoRecord(todo).update(db, columns: TodoRecord.mutableColumns)
        } catch RecordError.recordNotFound {
            throw TodoStoreError("the update of #\(todo.number) (\(todo.id.uuidString.lowercased())) changed no row, so nothing was written: another program may have changed the database; check it (`sqlite3 FILE 'PRAGMA integrity_check'`, and any triggers it added)")
        }
    }
}

/// The `counter` table's values, read and written once per transaction.
private struct Counters {
    var number: Int
    var change: Int64

    static func load(_ db: Database) throws -> Counters {
        let values = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db.cachedStatement(sql: "SELECT name, value FROM counter")).map {
            ($0["name"] as String, $0["value"] as Int64)
        })
        return Counters(number: Int(values["number"] ?? 0), change: values["change"] ?? 0)
    }

    func save(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE counter SET value = ? WHERE name = 'number'").execute(arguments: [number])
        try db.cachedStatement(sql: "UPDATE counter SET value = ? WHERE name = 'change'").execute(arguments: [change])
    }
}
