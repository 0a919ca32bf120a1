import Foundation
import GRDB
import TodoModel

/// A row of the `todo` table as a GRDB record: instants as whole milliseconds, the due
/// date as `YYYY-MM-DD`, tags as a JSON array, the id as lowercase text (so that a prefix
/// can be looked up). The model's `Todo` knows nothing of GRDB; this wraps it.
struct TodoRecord: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "todo"

    /// The columns an update may change: id, number and creation time never do.
    static let mutableColumns: [String] = [
        "title", "notes", "priority", "due", "tags", "updatedAt", "completedAt", "deletedAt", "revision",
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
            revision: try row.decode(forColumn: "revision"))
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = todo.id.uuidString.lowercased()
        container["number"] = todo.number
        container["title"] = todo.title
        container["notes"] = todo.notes
        container["priority"] = todo.priority.rawValue
        container["due"] = todo.due?.description
        container["tags"] = todo.tags.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(todo.tags), as: UTF8.self)
        container["createdAt"] = todo.createdAt.millisecondsSince1970
        container["updatedAt"] = todo.updatedAt.millisecondsSince1970
        container["completedAt"] = todo.completedAt?.millisecondsSince1970
        container["deletedAt"] = todo.deletedAt?.millisecondsSince1970
        container["revision"] = todo.revision
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
}
