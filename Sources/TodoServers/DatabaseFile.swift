import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// What lies at a database path, judged before anything is written there: todod takes
/// only a missing file, an empty database, or one of its own. Opening a `DatabasePool`
/// switches the file to WAL mode and creates `-wal` and `-shm` beside it, so the checks
/// come first.
enum DatabaseFile {
    /// The mark in every todod database's header (`PRAGMA application_id`, bytes 68–71):
    /// "ToDo" in ASCII. `file(1)` and other programs can tell the file by it.
    static let applicationID: Int32 = 0x546F_446F

    /// The first migration of todod 0.1.0, whose databases were not marked yet.
    static let firstMigration = "v1: todos and counters"

    /// Throws, saying what to do, unless todod may open `path` for writing. A `-shm` left
    /// unwritable by an earlier read-only attempt is made writable again (it holds no
    /// data: SQLite rebuilds it from the `-wal`).
    ///
    /// Every file of the database (the file its path leads to, `-wal`, `-shm`, their
    /// directory, `backups/`) must be the user's own and writable by no one else: see
    /// `checkOwnFile`.
    static func check(_ path: String) throws(TodoStoreError) {
        let directory = directoryOf(path)
        // A link to the database is followed, as SQLite does: its -wal and -shm are made beside the file it leads to.
        let file = real(path)
        for place in Set([path, file]) { try checkDirectory(of: place) }
        try checkBackups((directory as NSString).appendingPathComponent("backups"))
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard access(directory, W_OK) == 0 else {
                throw TodoStoreError("cannot create the database \(path): its directory is not writable; fix its permissions (chmod u+w \(directory)) or choose another file with --database")
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TodoStoreError("\(path) is not a regular file: choose a database file with --database")
        }
        try checkOwnFile(file, info, what: "the database")
        guard access(path, R_OK | W_OK) == 0 else {
            throw TodoStoreError("the database \(path) is read-only for this user: make it writable (chmod u+rw \(path)), then start todod again")
        }
        guard access(directory, W_OK) == 0 else {
            throw TodoStoreError("the database's directory \(directory) is not writable, and SQLite keeps its -wal and -shm files there: make it writable (chmod u+w \(directory))")
        }
        if info.st_size > 0 { try checkOwner(path) }
        for database in Set([path, file]) { try repairSidecars(of: database, mode: info.st_mode & 0o777) }
    }

    /// Throws unless the non-empty file at `path` is a todod database, or an SQLite one
    /// holding nothing.
    private static func checkOwner(_ path: String) throws(TodoStoreError) {
        let header = try readHeader(path)
        // An SQLite file starts with a 100-byte header: its magic string, then fields.
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw TodoStoreError("\(path) is not an SQLite database, so todod will not touch it: choose another file with --database")
        }
        let mark = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if mark == applicationID { return }
        try checkUnmarked(path, mark: mark)
    }

    /// The `-wal` and `-shm` must be writable too: SQLite opens the database read-only
    /// otherwise, and every write fails with "attempt to write a readonly database".
    private static func repairSidecars(of path: String, mode: mode_t) throws(TodoStoreError) {
        for sidecar in [path + "-wal", path + "-shm"] {
            var info = stat()
            // Not followed: a link in a -wal's place would have SQLite write where it leads.
            guard lstat(sidecar, &info) == 0 else { continue }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw TodoStoreError("\(sidecar) is not a regular file (SQLite's own are): remove it while no program uses the database")
            }
            try checkOwnFile(sidecar, info, what: "the database's \(sidecar.hasSuffix("-wal") ? "write-ahead log" : "shared memory")")
            guard access(sidecar, R_OK | W_OK) != 0 else { continue }
            // Ours to fix: give it the database's own mode, as SQLite does when it creates it.
            if info.st_uid == geteuid(), chmod(sidecar, mode | S_IRUSR | S_IWUSR) == 0 { continue }
            throw TodoStoreError("\(sidecar) is not writable for this user, so the database would open read-only: make it writable (chmod u+rw \(sidecar)), or remove it while no program uses the database")
        }
    }

    private static func readHeader(_ path: String) throws(TodoStoreError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TodoStoreError("cannot read the database \(path): check its permissions")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? nil
        return header.map { Array($0) } ?? []
    }

    /// An unmarked SQLite file is taken only when it holds nothing, or is a todod 0.1.0
    /// database (the `todo` table and GRDB's record of our first migration); it is read
    /// through a read-only connection, which writes nothing.
    private static func checkUnmarked(_ path: String, mark: Int32) throws(TodoStoreError) {
        let tables: [String]
        let migrations: [String]
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            (tables, migrations) = try queue.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
                let migrations = tables.contains("grdb_migrations")
                    ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
                return (tables, migrations)
            }
        } catch {
            throw TodoStoreError("cannot read the database \(path) (\(error)): check the file, or choose another with --database")
        }
        if tables.isEmpty || (tables.contains("todo") && migrations.contains(firstMigration)) { return }
        let owner = mark == 0 ? "" : " (application_id \(mark))"
        throw TodoStoreError("""
            \(path) is another program's SQLite database\(owner), with tables \(tables.joined(separator: ", ")): \
            todod left it unchanged. Choose a file of todod's own with --database (a new one is created when missing).
            """)
    }
}
