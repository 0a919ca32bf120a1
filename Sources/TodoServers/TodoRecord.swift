import Foundation
import GRDB
import TodoModel

/// A row of the `todo` table as a GRDB record: instants as whole milliseconds, the due
/// date as `YYYY-MM-DD` and its time of day, if any, as minutes since midnight, tags as a JSON array, the id as lowercase text (so that a prefix
/// can be looked up). The model's `Todo` knows nothing of GRDB; this wraps it.
struct TodoRecord: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "todo"

    /// Every column, in the table's order (the journal holds them too).
    static let columns: [String] = [
        "id", "number", "title", "notes", "priority", "due", "tags", "createdAt", "updatedAt", "completedAt", "deletedAt", "revision",
        "recurrence", "parent", "wait", "previous", "foreignFields", "annotations", "project", "started", "depends", "scheduled", "until",
        "dueTime", "waitTime", "scheduledTime",
    ]

    /// The columns an update may change: id, number and creation time never do.
    static let mutableColumns: [String] = [
        "title", "notes", "priority", "due", "tags", "updatedAt", "completedAt", "deletedAt", "revision",
        "recurrence", "parent", "wait", "previous", "foreignFields", "annotations", "project", "started", "depends", "scheduled", "until",
        "dueTime", "waitTime", "scheduledTime",
    ]

    var todo: Todo

    init(_ todo: Todo) {
        self.todo = todo
    }

    init(row: Row) throws {
        let idText: String = try row.decode(forColumn: "id")
        guard let id = UUID(uuidString: idText) else { throw TodoStoreError("the todo table holds a bad id \(idText)") }
        let priorityText: String = try row.decode(forColumn: "priority")
        let tagsJSON: String = try row.decode(forColumn: "tags")
        todo = Todo(
            id: id, number: try row.decode(forColumn: "number"), title: try row.decode(forColumn: "title"),
            notes: try row.decode(forColumn: "notes"),
            priority: Priority(rawValue: priorityText) ?? .normal,
            due: try row.decode(String?.self, forColumn: "due").flatMap(LocalDate.init),
            tags: tagsJSON == "[]" ? [] : try JSONDecoder().decode([String].self, from: Data(tagsJSON.utf8)),
            createdAt: Date(millisecondsSince1970: try row.decode(forColumn: "createdAt")),
            updatedAt: Date(millisecondsSince1970: try row.decode(forColumn: "updatedAt")),
            completedAt: try row.decode(Int64?.self, forColumn: "completedAt").map(Date.init(millisecondsSince1970:)),
            deletedAt: try row.decode(Int64?.self, forColumn: "deletedAt").map(Date.init(millisecondsSince1970:)),
            revision: try row.decode(forColumn: "revision"),
            recurrence: try row.decode(String?.self, forColumn: "recurrence").map {
                try JSONDecoder().decode(Recurrence.self, from: Data($0.utf8))
            },
            parent: try row.decode(Int?.self, forColumn: "parent"),
            wait: try row.decode(String?.self, forColumn: "wait").flatMap(LocalDate.init),
            previous: try row.decode(Int?.self, forColumn: "previous"),
            foreign: try TodoRecord.foreign(row.decode(forColumn: "foreignFields")),
            annotations: try TodoRecord.annotations(row.decode(forColumn: "annotations")),
            project: try row.decode(String?.self, forColumn: "project"),
            started: try row.decode(Int64?.self, forColumn: "started").map(Date.init(millisecondsSince1970:)),
            depends: try TodoRecord.depends(row.decode(String?.self, forColumn: "depends")),
            scheduled: try row.decode(String?.self, forColumn: "scheduled").flatMap(LocalDate.init),
            until: try row.decode(String?.self, forColumn: "until").flatMap(LocalDate.init),
            dueTime: try TodoRecord.time(row, "dueTime"), waitTime: try TodoRecord.time(row, "waitTime"),
            scheduledTime: try TodoRecord.time(row, "scheduledTime"))
    }

    /// A time-of-day column: minutes since midnight, NULL for none.
    private static func time(_ row: Row, _ column: String) throws -> TimeOfDay? {
        guard let minutes = try row.decode(Int?.self, forColumn: column) else { return nil }
        guard let time = TimeOfDay(minutes: minutes) else {
            throw TodoStoreError("the todo table holds a bad time of day \(minutes) in \(column) (minutes since midnight, 0 to 1439)")
        }
        return time
    }

    func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.columns, try databaseValues) { container[column] = value }
    }

    /// The row's values in the order of `columns`: the todo row and its journal row.
    var databaseValues: [(any DatabaseValueConvertible)?] {
        get throws {
            [
                todo.id.uuidString.lowercased(), todo.number, todo.title, todo.notes, todo.priority.rawValue, todo.due?.description,
                todo.tags.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(todo.tags), as: UTF8.self),
                todo.createdAt.millisecondsSince1970, todo.updatedAt.millisecondsSince1970, todo.completedAt?.millisecondsSince1970,
                todo.deletedAt?.millisecondsSince1970, todo.revision,
                try todo.recurrence.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) },
                todo.parent, todo.wait?.description, todo.previous,
                try TodoRecord.foreignJSON(todo.foreign), try TodoRecord.annotationsJSON(todo.annotations), todo.project,
                todo.started?.millisecondsSince1970,
                TodoRecord.dependsText(todo.depends), todo.scheduled?.description, todo.until?.description,
                todo.dueTime?.minutes, todo.waitTime?.minutes, todo.scheduledTime?.minutes,
            ]
        }
    }

    /// `Todo.foreign` as a JSON object, keys sorted so that the same fields are the same text.
    private static func foreignJSON(_ foreign: [String: String]) throws -> String {
        guard !foreign.isEmpty else { return "{}" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(foreign), as: UTF8.self)
    }

    private static func foreign(_ json: String) throws -> [String: String] {
        json == "{}" ? [:] : try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    /// `Todo.depends` as its ids, lowercase and comma-separated (as Taskwarrior 2.6 exports
    /// them); NULL for none, as a todo from before the column.
    private static func dependsText(_ depends: [UUID]) -> String? {
        depends.isEmpty ? nil : depends.map { $0.uuidString.lowercased() }.joined(separator: ",")
    }

    private static func depends(_ text: String?) throws -> [UUID] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ",").map { part in
            guard let id = UUID(uuidString: String(part)) else { throw TodoStoreError("the todo table holds a bad dependency \(part)") }
            return id
        }
    }

    /// The todos a reference names: at most two, enough to tell that a prefix is ambiguous.
    ///
    /// SQL only narrows the search by the indexed columns; `TodoRef.matches` (the rule the
    /// in-memory reads use) decides, so a reference means one thing wherever it is resolved.
    static func fetch(_ ref: TodoRef, in db: Database) throws -> [Todo] {
        // Cached statements: SQLite compiles each once per connection, not once per write.
        let records: [TodoRecord]
        switch ref {
        case .number(let number):
            records = try fetchAll(db.cachedStatement(sql: "SELECT * FROM todo WHERE number = ?"), arguments: [number])
        case .id(let id):
            records = try fetchAll(db.cachedStatement(sql: "SELECT * FROM todo WHERE id = ?"), arguments: [id.uuidString.lowercased()])
        case .idPrefix(let prefix):
            records = try fetchAll(
                db.cachedStatement(sql: "SELECT * FROM todo WHERE substr(id, 1, ?) = ? LIMIT 2"), arguments: [prefix.count, prefix])
        }
        return records.map(\.todo).filter(ref.matches)
    }

    /// Writes `todo` over its row, which must change exactly one row: the row was just
    /// read in this transaction, so anything else means the database is not as todod left it.
    static func update(_ todo: Todo, in db: Database) throws {
        do {
            try TodoRecord(todo).update(db, columns: mutableColumns)
        } catch RecordError.recordNotFound {
            throw TodoStoreError("the update of #\(todo.number) (\(todo.id.uuidString.lowercased())) changed no row, so nothing was written: another program may have changed the database; check it (`sqlite3 FILE 'PRAGMA integrity_check'`, and any triggers it added)")
        }
    }
}
