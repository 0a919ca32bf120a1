import Foundation
import GRDB
import TodoModel

/// The `annotations` column (`Todo.annotations`): a JSON array of `{"entry": milliseconds,
/// "description": text}`, `[]` for none.
extension TodoStore {
    /// Adds `annotations` to the todo table and to a journal made before this migration (the
    /// journal repeats the todo table's columns, so that undo and history see the change).
    /// Registered before the journal's migration, whose table has the column from the start
    /// and whose import of existing todos reads it. A database from before has none: `[]`.
    static func registerAnnotationMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("annotations") { db in
            if try db.tableExists("journal") {
                try db.execute(sql: "ALTER TABLE journal ADD COLUMN annotations TEXT NOT NULL DEFAULT '[]'")
            }
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN annotations TEXT NOT NULL DEFAULT '[]'")
        }
    }
}

extension TodoRecord {
    /// An annotation as the column holds it: the instant as whole milliseconds, as every
    /// instant in the database.
    private struct StoredAnnotation: Codable {
        var entry: Int64
        var description: String
    }

    static func annotationsJSON(_ annotations: [Annotation]) throws -> String {
        guard !annotations.isEmpty else { return "[]" }
        let stored = annotations.map { StoredAnnotation(entry: $0.entry.millisecondsSince1970, description: $0.description) }
        return String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
    }

    static func annotations(_ json: String) throws -> [Annotation] {
        guard json != "[]" else { return [] }
        return try JSONDecoder().decode([StoredAnnotation].self, from: Data(json.utf8)).map {
            Annotation(entry: Date(millisecondsSince1970: $0.entry), description: $0.description)
        }
    }
}
