import GRDB
import TodoModel

/// The `project` column (`Todo.project`): the project's name, NULL for none.
extension TodoStore {
    /// Adds `project` to the todo table and to a journal made before this migration, and
    /// moves each todo's project out of its tags: before the field, a project was the tag
    /// `project:NAME` (`TodoFilter.projectTagPrefix`). The last such tag becomes the project,
    /// as todoctl read it; any other stays a tag, so nothing is lost. The journal's rows move
    /// the same way, so that history, undo and `--check` see one todo, not a tag that
    /// became a field at the migration. Registered before the journal's migration, whose
    /// table has the column from the start and whose import of existing todos reads it.
    static func registerProjectMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("project") { db in
            let tables = try db.tableExists("journal") ? ["todo", "journal"] : ["todo"]
            for table in tables {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN project TEXT")
                try db.execute(sql: projectFromTags(in: table))
            }
        }
    }

    /// Moves the last `project:NAME` tag of every row of `table` into its `project`. The
    /// prefix is compared as bytes (`substr`, not `LIKE`, which ignores case); json_each's
    /// `key` is a tag's place in the list, so the other tags keep their order.
    private static func projectFromTags(in table: String) -> String {
        let prefix = TodoFilter.projectTagPrefix
        let isProject = "substr(value, 1, \(prefix.count)) = '\(prefix)' AND length(value) > \(prefix.count)"
        return """
            UPDATE \(table) SET
                project = (SELECT substr(value, \(prefix.count + 1)) FROM json_each(\(table).tags) WHERE \(isProject) ORDER BY key DESC LIMIT 1),
                tags = (SELECT json_group_array(value) FROM (
                    SELECT value FROM json_each(\(table).tags) WHERE key != (
                        SELECT key FROM json_each(\(table).tags) WHERE \(isProject) ORDER BY key DESC LIMIT 1)
                    ORDER BY key))
            WHERE EXISTS (SELECT 1 FROM json_each(\(table).tags) WHERE \(isProject))
            """
    }
}
