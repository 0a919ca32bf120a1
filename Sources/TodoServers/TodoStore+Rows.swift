import Foundation
import GRDB
import TodoModel

/// How a Todo maps to a row of the `todo` table: instants as whole milliseconds, the due
/// date as `YYYY-MM-DD`, tags as a JSON array, the id as lowercase text (so that a
/// prefix can be looked up).
extension TodoStore {
    static func todo(from row: Row) throws -> Todo {
        let idText: String = row["id"]
        guard let id = UUID(uuidString: idText) else { throw DatabaseError(message: "bad id \(idText) in the todo table") }
        let priorityText: String = row["priority"]
        let tagsJSON: String = row["tags"]
        return Todo(
            id: id, number: row["number"], title: row["title"], notes: row["notes"],
            priority: Priority(rawValue: priorityText) ?? .normal,
            due: (row["due"] as String?).flatMap(LocalDate.init),
            tags: tagsJSON == "[]" ? [] : try JSONDecoder().decode([String].self, from: Data(tagsJSON.utf8)),
            createdAt: Date(millisecondsSince1970: row["createdAt"]),
            updatedAt: Date(millisecondsSince1970: row["updatedAt"]),
            completedAt: (row["completedAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
            deletedAt: (row["deletedAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
            revision: row["revision"])
    }

    static func arguments(for todo: Todo) throws -> StatementArguments {
        let tags = todo.tags.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(todo.tags), as: UTF8.self)
        return [
            "id": todo.id.uuidString.lowercased(), "number": todo.number, "title": todo.title,
            "notes": todo.notes, "priority": todo.priority.rawValue, "due": todo.due?.description,
            "tags": tags, "createdAt": todo.createdAt.millisecondsSince1970,
            "updatedAt": todo.updatedAt.millisecondsSince1970,
            "completedAt": todo.completedAt?.millisecondsSince1970,
            "deletedAt": todo.deletedAt?.millisecondsSince1970, "revision": todo.revision,
        ]
    }

    // Cached statements: SQLite compiles each once per connection, not once per write.
    static func insert(_ todo: Todo, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO todo (id, number, title, notes, priority, due, tags, createdAt, updatedAt, completedAt, deletedAt, revision)
                VALUES (:id, :number, :title, :notes, :priority, :due, :tags, :createdAt, :updatedAt, :completedAt, :deletedAt, :revision)
                """
        ).execute(arguments: try arguments(for: todo))
    }

    static func update(_ todo: Todo, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE todo SET title = :title, notes = :notes, priority = :priority, due = :due, tags = :tags,
                    updatedAt = :updatedAt, completedAt = :completedAt, deletedAt = :deletedAt, revision = :revision
                WHERE id = :id AND number = :number AND createdAt = :createdAt
                """
        ).execute(arguments: try arguments(for: todo))
    }

    /// The todos a reference names: at most two, enough to tell that a prefix is ambiguous.
    static func fetch(_ ref: TodoRef, in db: Database) throws -> [Todo] {
        let rows: [Row]
        switch ref {
        case .number(let number):
            rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM todo WHERE number = ?"), arguments: [number])
        case .id(let id):
            rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM todo WHERE id = ?"), arguments: [id.uuidString.lowercased()])
        case .idPrefix(let prefix):
            rows = try Row.fetchAll(
                db, sql: "SELECT * FROM todo WHERE substr(id, 1, ?) = ? LIMIT 2", arguments: [prefix.count, prefix])
        }
        return try rows.map(todo(from:))
    }
}
