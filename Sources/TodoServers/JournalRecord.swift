import Foundation
import GRDB
import TodoModel

/// The `journal` table: one row per committed change, with the todo as the change left it
/// in the todo table's own columns (so a journal row reads back as a `TodoRecord`, with no
/// JSON to encode on the write path). The todo before a change is the same todo's previous
/// row, so it is not stored twice; a creation has no previous row.
enum JournalRecord {
    static let createTable = """
        CREATE TABLE journal (
            seq INTEGER PRIMARY KEY NOT NULL,
            step INTEGER NOT NULL,
            at INTEGER NOT NULL,
            client INTEGER NOT NULL,
            program TEXT NOT NULL,
            machine TEXT,
            kind TEXT NOT NULL,
            imported INTEGER NOT NULL DEFAULT 0,
            undoes INTEGER,
            undoneSteps TEXT,
            isRedo INTEGER NOT NULL DEFAULT 0,
            id TEXT NOT NULL,
            number INTEGER NOT NULL,
            title TEXT NOT NULL,
            notes TEXT NOT NULL,
            priority TEXT NOT NULL,
            due TEXT,
            tags TEXT NOT NULL,
            createdAt INTEGER NOT NULL,
            updatedAt INTEGER NOT NULL,
            completedAt INTEGER,
            deletedAt INTEGER,
            revision INTEGER NOT NULL,
            recurrence TEXT,
            parent INTEGER,
            wait TEXT,
            previous INTEGER,
            foreignFields TEXT NOT NULL DEFAULT '{}',
            annotations TEXT NOT NULL DEFAULT '[]',
            project TEXT,
            started INTEGER,
            depends TEXT,
            scheduled TEXT,
            until TEXT,
            dueTime INTEGER,
            waitTime INTEGER,
            scheduledTime INTEGER
        );
        -- By number, not id: a new todo's number is the highest, so its entry appends to the
        -- index instead of dirtying a random page of it (ids are random).
        CREATE INDEX journal_by_number ON journal (number, seq);
        """

    /// Appends rows.
    struct Writer {
        private static let insert = """
            INSERT INTO journal (seq, step, at, client, program, machine, kind, imported, undoes, undoneSteps, isRedo, \(TodoRecord.columns.joined(separator: ", ")))
            VALUES (\(databaseQuestionMarks(count: 11 + TodoRecord.columns.count)))
            """

        func append(_ entry: JournalEntry, in db: Database) throws {
            let head: [(any DatabaseValueConvertible)?] = [
                Int64(entry.seq), Int64(entry.step), entry.at.millisecondsSince1970, Int64(entry.author.client),
                entry.author.program, entry.author.machine, entry.kind.rawValue, entry.imported, entry.undoes.map(Int64.init),
                JournalRecord.stepsText(entry.undoneSteps), entry.isRedo,
            ]
            try db.cachedStatement(sql: Writer.insert).execute(arguments: StatementArguments(head + TodoRecord(entry.after).databaseValues))
        }
    }

    /// The entry a row holds, with `before` as given (the previous row's todo).
    static func entry(_ row: Row, before: Todo?) throws -> JournalEntry {
        let seq: Int64 = row["seq"]
        let kindText: String = row["kind"]
        guard let kind = TodoChangeKind(rawValue: kindText) else {
            throw TodoStoreError("journal entry \(seq) has an unknown kind \(kindText)")
        }
        return JournalEntry(
            seq: UInt64(seq), step: UInt64(row["step"] as Int64), at: Date(millisecondsSince1970: row["at"]),
            author: ChangeAuthor(client: UInt64(row["client"] as Int64), program: row["program"], machine: row["machine"]), kind: kind,
            before: before, after: try TodoRecord(row: row).todo, imported: row["imported"],
            undoes: (row["undoes"] as Int64?).map(UInt64.init), undoneSteps: steps(row["undoneSteps"]), isRedo: row["isRedo"] ?? false)
    }

    /// The `undoneSteps` column: the steps as decimal numbers between spaces; NULL for none
    /// (a change, or an undo journaled before redo).
    static func stepsText(_ steps: [UInt64]) -> String? {
        steps.isEmpty ? nil : steps.map(String.init).joined(separator: " ")
    }

    static func steps(_ text: String?) -> [UInt64] {
        text.map { $0.split(separator: " ").compactMap { UInt64($0) } } ?? []
    }

    /// Adds what undo and redo step past (`JournalEntry.undoneSteps`, `isRedo`) to a journal
    /// made before them. Registered before the journal's migration, whose table has them
    /// from the start and whose entries for existing todos write them.
    static func registerRedoMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("journal: undone steps") { db in
            guard try db.tableExists("journal") else { return }
            try db.execute(sql: "ALTER TABLE journal ADD COLUMN undoneSteps TEXT")
            try db.execute(sql: "ALTER TABLE journal ADD COLUMN isRedo INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// Adds the machine another replica's change was made on (`ChangeAuthor.machine`) to a
    /// journal made before it; its rows, this machine's or from before, name none. Registered
    /// before the journal's migration, whose table has it from the start.
    static func registerMachineMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("journal: machine") { db in
            guard try db.tableExists("journal") else { return }
            try db.execute(sql: "ALTER TABLE journal ADD COLUMN machine TEXT")
        }
    }

    /// Rows as entries, each with its `before` looked up (from the rows given when the
    /// todo's previous change is among them, from the table otherwise).
    static func entries(_ rows: [Row], in db: Database) throws -> [JournalEntry] {
        var last: [UUID: Todo] = [:]
        var entries: [JournalEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            var entry = try entry(row, before: nil)
            if entry.kind != .created {
                entry.before = try last[entry.after.id] ?? previous(of: entry, in: db)
            }
            last[entry.after.id] = entry.after
            entries.append(entry)
        }
        return entries
    }

    private static func previous(of entry: JournalEntry, in db: Database) throws -> Todo? {
        try TodoRecord.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM journal WHERE number = ? AND seq < ? ORDER BY seq DESC LIMIT 1"),
            arguments: [entry.after.number, Int64(entry.seq)])?.todo
    }
}
