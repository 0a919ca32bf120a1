import Foundation
import Logging
import PostgresNIO
import SharedStoreContract
import TodoModel

/// The shared store's tables and how an entry is kept in them. Created on first use;
/// two daemons starting at once take an advisory lock, so only one creates them.
///
/// Each journal entry is one row: the columns a reader filters on (seq, the todo's id and
/// number, when) and the entry itself as JSON, without `before` (the previous row of the
/// same todo holds it). `todo` holds every todo as its last change left it.
enum PostgresSchema {
    static let channel = "todod_changes"

    /// Taken while the tables are checked and made: two daemons starting at once make them once.
    static let creationLock: PostgresQuery = "SELECT pg_advisory_xact_lock(7315046841)"

    static let creation: [PostgresQuery] = [
        "CREATE TABLE IF NOT EXISTS counter (name text PRIMARY KEY, value bigint NOT NULL)",
        "INSERT INTO counter (name, value) VALUES ('number', 0), ('change', 0) ON CONFLICT (name) DO NOTHING",
        """
        CREATE TABLE IF NOT EXISTS journal (
            seq bigint PRIMARY KEY, id uuid NOT NULL, number integer NOT NULL, at timestamptz NOT NULL, entry jsonb NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS journal_by_number ON journal (number, seq)",
        "CREATE TABLE IF NOT EXISTS todo (id uuid PRIMARY KEY, number integer NOT NULL UNIQUE, revision integer NOT NULL, todo jsonb NOT NULL)",
        // A purge takes a change number and leaves no journal entry: this row tells the other replicas what went.
        "CREATE TABLE IF NOT EXISTS purge (seq bigint PRIMARY KEY, numbers integer[] NOT NULL, at timestamptz NOT NULL)",
        // How far each replica's push of its offline changes got (`SharedPush`): a push cut off after its commit is resumed, not repeated.
        "CREATE TABLE IF NOT EXISTS push (id uuid PRIMARY KEY, through bigint NOT NULL, at timestamptz NOT NULL)",
    ]

    /// Moves each todo's project out of its tags, in the todo table and in every journal
    /// entry's `after`: before todos had a project field, a project was the tag
    /// `project:NAME`. The last such tag becomes the project, any other stays a tag, as the
    /// SQLite replica's migration does (TodoStore+Project), so a replica made from the store
    /// and one migrated in place hold the same todos. Run with the creation, at every start:
    /// a todo that has a project, or no such tag, is left alone, so a second run changes nothing.
    static let projectFromTags: [PostgresQuery] = [
        "\(unescaped: projectStatement(table: "todo", key: "id", json: "todo", path: nil))",
        "\(unescaped: projectStatement(table: "journal", key: "seq", json: "entry", path: "after"))",
    ]

    /// The statement that moves the project tag of `table`'s rows, whose todo is the jsonb
    /// column `json` (its member `path`, when given); rows are matched by `key`.
    private static func projectStatement(table: String, key: String, json: String, path: String?) -> String {
        let todo = path.map { "\(json)->'\($0)'" } ?? json
        let row = "(\(table)." + todo + ")"
        let moved = "\(row) || jsonb_build_object('project', substr(moved.tag, 9), 'tags', "
            + "(SELECT coalesce(jsonb_agg(v ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements_text(\(row)->'tags') WITH ORDINALITY e(v, i) WHERE i <> moved.at))"
        let set = path.map { "jsonb_set(\(table).\(json), '{\($0)}', \(moved))" } ?? moved
        return """
            WITH moved AS (
                SELECT \(key), last.i AS at, last.v AS tag FROM \(table),
                LATERAL (SELECT v, i FROM jsonb_array_elements_text(\(row)->'tags') WITH ORDINALITY e(v, i)
                         WHERE left(v, 8) = 'project:' AND length(v) > 8 ORDER BY i DESC LIMIT 1) last
                WHERE jsonb_typeof(\(row)->'tags') = 'array' AND NOT (\(row) ? 'project'))
            UPDATE \(table) SET \(json) = \(set) FROM moved WHERE \(table).\(key) = moved.\(key)
            """
    }

    /// Each table's columns, as `creation` makes them, by name.
    static let columns: [String: Set<String>] = [
        "counter": ["name", "value"], "journal": ["seq", "id", "number", "at", "entry"],
        "todo": ["id", "number", "revision", "todo"], "purge": ["seq", "numbers", "at"], "push": ["id", "through", "at"],
    ]

    /// Creates the tables unless they exist, in one transaction. A table of one of their
    /// names that is not todod's (another program's database) is refused before anything is made.
    static func create(on connection: PostgresConnection, database: String, logger: Logger) throws {
        try PostgresStore.run("BEGIN", on: connection, logger: logger)
        do {
            try PostgresStore.run(creationLock, on: connection, logger: logger)
            try refuseOthersTables(on: connection, database: database, logger: logger)
            for statement in creation + projectFromTags { try PostgresStore.run(statement, on: connection, logger: logger) }
            try PostgresStore.run("COMMIT", on: connection, logger: logger)
        } catch {
            try? PostgresStore.run("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }

    /// Throws when a table of todod's names has other columns than todod's.
    private static func refuseOthersTables(on connection: PostgresConnection, database: String, logger: Logger) throws {
        let names = Array(columns.keys)
        let rows = try PostgresStore.rows("""
            SELECT table_name::text, column_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ANY(\(names))
            """, on: connection, logger: logger)
        var found: [String: Set<String>] = [:]
        for row in rows {
            let (table, column) = try row.decode((String, String).self)
            found[table, default: []].insert(column)
        }
        for (table, have) in found.sorted(by: { $0.key < $1.key }) where have != columns[table] {
            throw SharedStoreError("""
                the database \(database) has a table \(table) that is not todod's (its columns: \(have.sorted().joined(separator: ", "))), \
                so nothing was created: give todod a database of its own (createdb todos)
                """)
        }
    }

    /// Appends `entry` and stores its todo, inside the caller's transaction: one statement
    /// (the journal's INSERT in a WITH), so one round trip.
    static func append(_ entry: JournalEntry) throws -> PostgresQuery {
        var bare = entry
        bare.before = nil
        let json = String(decoding: try encoder.encode(bare), as: UTF8.self)
        let todo = String(decoding: try encoder.encode(entry.after), as: UTF8.self)
        let seq = Int64(entry.seq)
        let id = entry.after.id
        let number = entry.after.number
        let revision = entry.after.revision
        return """
            WITH appended AS (INSERT INTO journal (seq, id, number, at, entry) VALUES (\(seq), \(id), \(number), \(entry.at), \(json)::jsonb))
            INSERT INTO todo (id, number, revision, todo) VALUES (\(id), \(number), \(revision), \(todo)::jsonb)
            ON CONFLICT (id) DO UPDATE SET number = excluded.number, revision = excluded.revision, todo = excluded.todo
            """
    }

    /// Removes the purged todos and their entries and records the purge, inside the
    /// caller's transaction, in one statement.
    static func purge(_ purge: SharedPurge, at date: Date) -> PostgresQuery {
        let seq = Int64(purge.seq)
        let numbers = purge.numbers.map(Int64.init)
        return """
            WITH gone AS (DELETE FROM journal WHERE number = ANY(\(numbers)::bigint[])),
                 removed AS (DELETE FROM todo WHERE number = ANY(\(numbers)::bigint[]))
            INSERT INTO purge (seq, numbers, at) VALUES (\(seq), \(numbers)::integer[], \(date))
            """
    }

    /// Records how far a replica's push got, inside the caller's transaction.
    static func record(_ push: SharedPush, at date: Date) -> PostgresQuery {
        let through = Int64(push.through)
        return """
            INSERT INTO push (id, through, at) VALUES (\(push.id), \(through), \(date))
            ON CONFLICT (id) DO UPDATE SET through = excluded.through, at = excluded.at
            """
    }

    /// How far the push `id` got (0 when the store has no record of it).
    static func pushed(_ id: UUID, on connection: PostgresConnection, logger: Logger) throws -> UInt64 {
        let rows = try PostgresStore.rows("SELECT through FROM push WHERE id = \(id)", on: connection, logger: logger)
        return try rows.first.map { UInt64(try $0.decode(Int64.self)) } ?? 0
    }

    /// Inserts or replaces one todo's row, inside the caller's transaction.
    static func store(_ todo: Todo, json: String? = nil) throws -> PostgresQuery {
        let json = try json ?? String(decoding: encoder.encode(todo), as: UTF8.self)
        let id = todo.id
        let number = todo.number
        let revision = todo.revision
        return """
            INSERT INTO todo (id, number, revision, todo) VALUES (\(id), \(number), \(revision), \(json)::jsonb)
            ON CONFLICT (id) DO UPDATE SET number = excluded.number, revision = excluded.revision, todo = excluded.todo
            """
    }

    /// Sets both counters, inside the caller's transaction; with `announce`, in the same
    /// statement, `NOTIFY`s the other daemons of the last change (sent when it commits).
    static func setCounters(number: Int, change: UInt64, announce: Bool = false) -> PostgresQuery {
        let number = Int64(number)
        let last = Int64(change)
        let update: PostgresQuery = """
            UPDATE counter SET value = CASE name WHEN 'number' THEN \(number)::bigint ELSE \(last)::bigint END
            WHERE name IN ('number', 'change')
            """
        guard announce else { return update }
        let payload = "\(change)"
        return """
            WITH counted AS (
                UPDATE counter SET value = CASE name WHEN 'number' THEN \(number)::bigint ELSE \(last)::bigint END
                WHERE name IN ('number', 'change'))
            SELECT pg_notify(\(channel), \(payload))
            """
    }

    /// The counters; with `lock`, held until the transaction ends (the writers' lock), the two
    /// rows locked in the order of their names: in the order of a scan, which an update of the
    /// rows can change, two daemons could each hold one and wait for the other until PostgreSQL
    /// broke the deadlock a second later, failing one's write (`pgbench` running the same
    /// transaction with 8 clients failed one in about 130 that way; todobench, scenario 7). With
    /// `base`, in the same statement, which change the journal holds at that number.
    static func counters(
        on connection: PostgresConnection, lock: Bool, base: UInt64? = nil, logger: Logger
    ) throws -> (number: Int, change: UInt64, base: SharedChangeMark?) {
        try counters(PostgresStore.rows(counters(lock: lock, base: base), on: connection, logger: logger), base: base)
    }

    /// The statement of `counters(on:lock:base:logger:)`, to queue.
    static func counters(lock: Bool, base: UInt64?) -> PostgresQuery {
        let seq = Int64(base ?? 0)
        return """
            SELECT c.name, c.value, j.id, j.number, (j.entry->'after'->>'revision')::bigint, j.entry->'after'->>'title', p.seq
            FROM counter c LEFT JOIN journal j ON j.seq = \(seq) AND \(seq) > 0 LEFT JOIN purge p ON p.seq = \(seq) AND \(seq) > 0
            ORDER BY c.name \(unescaped: lock ? "FOR UPDATE OF c" : "")
            """
    }

    /// The counters in the rows of `counters(lock:base:)`.
    static func counters(_ rows: PostgresQueryResult, base: UInt64?) throws -> (number: Int, change: UInt64, base: SharedChangeMark?) {
        let seq = Int64(base ?? 0)
        var values: [String: Int64] = [:]
        var mark: SharedChangeMark?
        for row in rows {
            let (name, value, id, number, revision, title, purge) = try row.decode((String, Int64, UUID?, Int32?, Int64?, String?, Int64?).self)
            values[name] = value
            // Neither: that change's entry went with a later purge, and it cannot be compared.
            if let id, let number, let revision {
                mark = SharedChangeMark(
                    seq: UInt64(seq), change: .entry(id: id, revision: Int(revision), number: Int(number), title: title ?? ""))
            } else if purge != nil {
                mark = SharedChangeMark(seq: UInt64(seq), change: .purge)
            }
        }
        return (Int(values["number"] ?? 0), UInt64(values["change"] ?? 0), mark)
    }

    /// The most changes, and about the most bytes of them, one read brings: a replica far behind
    /// (a new machine, one long away) catches up page by page, each page well within a
    /// statement's deadline also over a slow link (1 MiB is 5 s at 200 KB/s).
    static let page = (changes: 1_000, bytes: 1 << 20)

    /// The entries and purges after `seq` up to `upTo`, oldest first (each entry without
    /// `before`), in one round trip: a page of them, at least one, at most `page`'s bounds.
    /// The changes bring a replica to `upTo` (with the counters given) when the page holds
    /// them all; else to the page's last change, `more` saying the rest awaits.
    static func changes(
        after seq: UInt64, upTo: UInt64, number: Int, base: SharedChangeMark? = nil, on connection: PostgresConnection, logger: Logger
    ) throws -> SharedChanges {
        let base = base?.seq == seq ? base : nil
        guard upTo > seq else { return SharedChanges(entries: [], number: number, change: upTo, base: base) }
        let (from, to, most, bytes) = (Int64(seq), Int64(upTo), Int64(page.changes), Int64(page.bytes))
        let rows = try PostgresStore.rows("""
            WITH first AS (
                (SELECT seq, entry::text AS entry, NULL::integer[] AS numbers FROM journal
                 WHERE seq > \(from) AND seq <= \(to) ORDER BY seq LIMIT \(most))
                UNION ALL
                (SELECT seq, NULL, numbers FROM purge WHERE seq > \(from) AND seq <= \(to) ORDER BY seq LIMIT \(most))
            ), sized AS (
                SELECT seq, entry, numbers, row_number() OVER (ORDER BY seq) AS n,
                       sum(coalesce(octet_length(entry), 16)) OVER (ORDER BY seq) AS running
                FROM first
            )
            SELECT seq, entry, numbers FROM sized WHERE n <= \(most) AND (n = 1 OR running <= \(bytes)) ORDER BY seq
            """, on: connection, logger: logger)
        var changes = SharedChanges(entries: [], number: number, change: upTo, base: base)
        var last = seq
        for row in rows {
            let (seq, entry, numbers) = try row.decode((Int64, String?, [Int32]?).self)
            last = UInt64(seq)
            if let entry {
                do {
                    changes.entries.append(try decoder.decode(JournalEntry.self, from: Data(entry.utf8)))
                } catch {
                    throw SharedStoreError("""
                        change \(seq) in the shared store's journal is not one todod can read (\(error)), so the replicas cannot \
                        take it: nothing was written; the journal was changed by something other than todod
                        """)
                }
            } else if let numbers {
                changes.purges.append(SharedPurge(seq: UInt64(seq), numbers: numbers.map(Int.init)))
            }
        }
        // Numbers no row holds may end the range (a rebase that made nothing again leaves one):
        // only rows left past the last one read make this a page, or a replica asks for it for ever.
        let left = last < upTo ? try PostgresStore.rows("""
            (SELECT 1 FROM journal WHERE seq > \(Int64(last)) AND seq <= \(to) LIMIT 1)
            UNION ALL (SELECT 1 FROM purge WHERE seq > \(Int64(last)) AND seq <= \(to) LIMIT 1)
            """, on: connection, logger: logger).contains { _ in true } : false
        if left {
            // A page: the replica's counters go as far as it brings them (the number, by its entries).
            changes.change = last
            changes.number = 0
            changes.more = true
        }
        return changes
    }

    // Instants as whole milliseconds, as the SQLite replica keeps them: a todo read back equals the one written.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.millisecondsSince1970)
        }
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            Date(millisecondsSince1970: try decoder.singleValueContainer().decode(Int64.self))
        }
        return decoder
    }
}
