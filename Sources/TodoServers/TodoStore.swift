import Foundation
import GRDB
import SharedStoreContract
import TodoModel

/// The SQLite database: one file in WAL mode with `synchronous=FULL`, so that a
/// committed write survives a power cut. The ModelServer is its only writer.
///
/// The file is marked as todod's (`PRAGMA application_id`, see `DatabaseFile`): an
/// existing file is opened only when it is empty or todod's own.
///
/// Why one type over many files (`TodoStore+*.swift`): every query goes through the one
/// pool, and the migrator below must know every column in the order it was added, so the
/// schema cannot be split among types that each own part of it. The files are cut by what
/// the schema grew: one per column a migration added, with its migration and how it is read
/// and written (`+Annotations`, `+Depends`, `+Project`, `+Started`, `+DayColumns`,
/// `+Planning`, `+Interop`), and one per concern that reads several tables inside a commit
/// (`+Journal`, `+JournalPages`, `+Steps`, `+Undo`, `+Replay`, `+Shared`, `+Conflicts`,
/// `+Maintenance`). The work on rows is in types of their own (`TodoTransaction`,
/// `JournalUndo`, `JournalRecord`, `TodoRecord`); what is left here is SQL.
public final class TodoStore: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Opens (creating when missing) the database at `path` and migrates it.
    /// - Throws: `TodoStoreError` (before writing anything) when the file is another
    ///   program's, not SQLite, or not writable; SQLite's errors otherwise.
    ///   A damaged file (`PRAGMA quick_check` fails) is refused before anything is written
    ///   into it, naming the last backup.
    public convenience init(path: String) throws {
        try self.init(path: path) { _ in }
    }

    #if DEBUG
    /// For the tests only, which make the disk "full" with it: the file capped at
    /// `maximumPageCount` pages. Compiled into debug builds only (`make test` builds those;
    /// `make deb` and `make install` build release): the store that ships has no cap to set,
    /// nor the pragma that sets it.
    public convenience init(path: String, maximumPageCount: Int?) throws {
        try self.init(path: path) { configuration in
            guard let maximumPageCount else { return }
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(maximumPageCount)") }
        }
    }
    #endif

    /// `configure`: what the tests add to GRDB's configuration (debug builds only).
    private init(path: String, configure: (inout Configuration) -> Void) throws {
        try TodoStore.check(path)
        self.path = path
        // A backup cut off (kill -9) left its partial copy; none can be running before the store opens.
        TodoStore.removeUnfinishedBackups(of: path)
        var configuration = Configuration()
        configuration.label = "todod"
        configuration.busyMode = .timeout(5)
        configure(&configuration)
        do {
            try TodoStore.refuseDamage(path: path)
            pool = try DatabasePool(path: path, configuration: configuration)
            // Here, not in prepareDatabase: the pool sets NORMAL when it turns WAL on, after that hook,
            // and with NORMAL a commit reaches the disk only at the next checkpoint.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try TodoStore.migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw TodoStoreError(error, database: path)
        }
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
        // Before the journal: its v3 reads every todo with the planning columns.
        registerPlanningMigration(&migrator)
        registerInteropMigration(&migrator)
        registerAnnotationMigration(&migrator)
        registerProjectMigration(&migrator)
        registerStartedMigration(&migrator)
        registerDependsMigration(&migrator)
        registerScheduledMigration(&migrator)
        registerUntilMigration(&migrator)
        registerTimeOfDayMigration(&migrator)
        JournalRecord.registerRedoMigration(&migrator)
        JournalRecord.registerMachineMigration(&migrator)
        migrator.registerMigration("v3: journal") { db in
            try db.execute(sql: JournalRecord.createTable)
            try TodoStore.journalExistingTodos(db)
        }
        registerReplicaMigration(&migrator)
        registerStepMigration(&migrator)
        PendingChanges.registerMigration(&migrator)
        registerConflictMigration(&migrator)
        PurgeMark.registerMigration(&migrator)
        registerConflictCauseMigration(&migrator)
        return migrator
    }

    /// Gives every todo made before the journal a `created` entry, marked imported, holding
    /// the todo as it is: every todo then has a history, and the journal rebuilds the table.
    private static func journalExistingTodos(_ db: Database) throws {
        var counters = try Counters.load(db)
        let todos = try TodoRecord.fetchAll(db, sql: "SELECT * FROM todo ORDER BY number").map(\.todo)
        let journal = JournalRecord.Writer()
        for todo in todos {
            counters.change += 1
            let seq = UInt64(counters.change)
            let entry = JournalEntry(
                seq: seq, step: seq, at: todo.createdAt, author: ChangeAuthor(), kind: .created, before: nil, after: todo, imported: true)
            try journal.append(entry, in: db)
        }
        try counters.save(db)
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
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM todo ORDER BY number")
            while let row = try rows.next() { todos.append(try TodoStore.todo(from: row, in: path)) }
            return (todos, UInt64(try Counters.load(db).change))
        }
    }

    /// The todo of a `todo` row; a row todod could not have written (tags that are not a
    /// JSON list, say) throws an error that names it and says what to do.
    static func todo(from row: Row, in path: String) throws(TodoStoreError) -> Todo {
        do {
            return try TodoRecord(row: row).todo
        } catch {
            // The values as they are, whatever their type: the row is not to be trusted.
            func value(_ column: String) -> (any DatabaseValueConvertible)? { row[column] }
            let number = value("number").map { "#\($0)" } ?? "a todo"
            let id = (value("id") as? String).map { " (\($0))" } ?? ""
            let column = ["tags", "recurrence", "foreignFields", "annotations"].first { column in
                guard let text = value(column) as? String else { return false }
                return (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) == nil
            }
            // Its start, without control characters: it is shown on a terminal.
            func shown(_ text: String) -> String {
                String(String.UnicodeScalarView(text.unicodeScalars.prefix(40).filter { $0.value >= 0x20 && $0.value != 0x7F }))
            }
            let what = column.map { "its \($0) column holds \"\(shown(value($0) as? String ?? ""))\", which is not JSON" }
                ?? ModelServer.describe(error)
            throw TodoStoreError("""
                the todo \(number)\(id) in \(path) cannot be read: \(what); todod never writes such a row, so the file was \
                changed by something else or damaged. Restore a backup (\(TodoStore.lastBackupAdvice(of: path))), or mend the row \
                with sqlite3 while todod is stopped
                """)
        }
    }

    /// Applies the mutations in order, in one transaction, and returns once it is durable.
    /// It blocks the calling thread for the disk: call it from the storage thread.
    /// `authors[i]` made `mutations[i]` (the daemon itself where missing), and `steps[i]`
    /// says which journal step its changes go on (its own where missing).
    ///
    /// A mutation that cannot apply (unknown todo, stale revision) is answered as failed
    /// and the others still commit; an error from SQLite, or an update that changed no
    /// row, fails them all and writes nothing.
    ///
    /// `beforeCommit`, when given, receives every change written (entries and purges) and
    /// the counters after them, inside the transaction: when it throws, nothing is written.
    public func commit(
        _ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor] = [], steps: [WriteStep] = [],
        beforeCommit: ((SharedChanges) throws -> Void)? = nil
    ) throws -> [TodoWriteResult] {
        do {
            return try write(mutations, at: now, by: authors, steps: steps, beforeCommit: beforeCommit.map { hook in { changes, _ in try hook(changes) } })
        } catch let error as DatabaseError {
            // Said for what it is: a full disk, a damaged file, a broken rule; not SQLite's bare code.
            throw TodoStoreError(error, database: path)
        }
    }

    /// `beforeCommit` also gets the transaction's database (`PendingChanges` marks an offline commit in it).
    func write(
        _ mutations: [TodoMutation], at now: Date, by authors: [ChangeAuthor], steps: [WriteStep],
        beforeCommit: ((SharedChanges, Database) throws -> Void)?
    ) throws -> [TodoWriteResult] {
        try pool.write { db in
            var transaction = try TodoTransaction(db: db, now: now)
            var results: [TodoWriteResult] = []
            results.reserveCapacity(mutations.count)
            // The step the current request's changes go on, or why the step it named was refused.
            var requestStep: UInt64?
            var refusal: TodoModelError?
            for (index, mutation) in mutations.enumerated() {
                transaction.author = index < authors.count ? authors[index] : ChangeAuthor()
                switch index < steps.count ? steps[index] : .own {
                case .own: (requestStep, refusal) = (nil, nil)
                case .joining(let step): (requestStep, refusal) = try TodoStore.joinable(step, by: mutation, in: transaction)
                case .withPrevious: break
                }
                if let refusal {
                    results.append(.failed(mutation, refusal))
                    continue
                }
                transaction.joining = requestStep
                let result = try TodoStore.apply(mutation, in: &transaction)
                let changes = transaction.takeChanges()
                if let last = changes.last { requestStep = last.step }
                results.append(changes.isEmpty ? result : .written(mutation, changes))
            }
            try transaction.save()
            if let beforeCommit {
                var changes = SharedChanges(entries: [], number: transaction.counters.number, change: UInt64(transaction.counters.change))
                for result in results {
                    switch result {
                    case .written(_, let entries): changes.entries += entries
                    case .purged(_, let todos, let change) where !todos.isEmpty:
                        changes.purges.append(SharedPurge(seq: change, numbers: todos.map(\.number)))
                    default: break
                    }
                }
                try beforeCommit(changes, db)
            }
            return results
        }
    }

    /// Applies one mutation: its row writes go through `transaction.write`, and are its
    /// answer; it returns `.unchanged` or `.failed` only when it wrote nothing.
    private static func apply(_ mutation: TodoMutation, in transaction: inout TodoTransaction) throws -> TodoWriteResult {
        if case .create(let new) = mutation {
            if let refusal = try subtaskRefusal(mutation, current: nil, in: transaction.db) { return .failed(mutation, refusal) }
            let depends: [UUID]?
            switch try dependencies(mutation, current: nil, in: transaction.db) {
            case .success(let resolved): depends = resolved
            case .failure(let refusal): return .failed(mutation, refusal)
            }
            var todo = Todo(new, number: transaction.nextNumber(), createdAt: transaction.now)
            if let depends { todo.depends = depends }
            try transaction.write(todo, before: nil)
            return .written(mutation, [])
        }
        if case .undo(let undo) = mutation { return try applyUndo(undo, as: mutation, in: &transaction) }
        if case .redo = mutation { return try applyRedo(as: mutation, in: &transaction) }
        if case .replay(let changes, let sources) = mutation { return try applyReplay(changes, sources: sources, as: mutation, in: &transaction) }
        if case .purge(let before) = mutation { return try transaction.purge(deletedBefore: before, as: mutation) }
        if case .importTodo(let imported) = mutation { return try applyImport(imported, as: mutation, in: &transaction) }
        guard let ref = mutation.target else { return .failed(mutation, .storage("a mutation without a target")) }
        let matches = try transaction.todos(ref)
        guard let current = matches.first else { return .failed(mutation, .notFound(ref)) }
        guard matches.count == 1 else { return .failed(mutation, .ambiguous(ref)) }
        if let refusal = try subtaskRefusal(mutation, current: current, in: transaction.db) { return .failed(mutation, refusal) }
        var next: Todo
        // Numbers resolved against the rows here, not in `TodoEdit.applied`: a dependency is another todo.
        let depends: [UUID]?
        switch try dependencies(mutation, current: current, in: transaction.db) {
        case .success(let resolved): depends = resolved
        case .failure(let refusal): return .failed(mutation, refusal)
        }
        do {
            guard let applied = try mutation.applied(to: current, at: transaction.now, depends: depends) else { return .unchanged(mutation, current) }
            next = applied
        } catch {
            return .failed(mutation, error)
        }
        // Decided before the first write: a refused completion writes nothing.
        let (consequences, related): (TodoConsequences, RelatedTodos)
        switch try planConsequences(of: mutation, current, becoming: next, in: transaction) {
        case .success(let planned): (consequences, related) = planned
        case .failure(let refusal): return .failed(mutation, refusal)
        }
        if consequences.stopsRepeating { next.recurrence = nil }
        try transaction.write(next, before: current)
        try write(consequences, related: related, in: &transaction)
        return .written(mutation, [])
    }
}
