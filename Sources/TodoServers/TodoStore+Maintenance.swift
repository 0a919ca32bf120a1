import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// Keeping the database file whole on its own: checkpoints, a clean close, and backups.
extension TodoStore {
    /// Copies every committed change from the `-wal` into the database file and empties
    /// the `-wal` (`PRAGMA wal_checkpoint(TRUNCATE)`), so that the file alone holds
    /// everything. A small database never reaches SQLite's automatic checkpoint.
    ///
    /// Call it when the daemon has been idle a while (no write for some seconds: it waits
    /// for no reader, since the ModelServer reads only at start) and at shutdown.
    /// - Throws: SQLite's error, e.g. `SQLITE_BUSY` if another program reads the file.
    public func checkpoint() throws {
        try pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
    }

    /// Checkpoints, then closes every connection; SQLite removes the `-wal` and `-shm`.
    /// The store cannot be used afterwards. Call it once, at clean shutdown, after the
    /// last commit.
    public func close() throws {
        try checkpoint()
        try pool.close()
    }

    /// Writes a consistent copy of the database to `destination` while it is in use
    /// (SQLite's online backup API), as one self-contained file.
    ///
    /// The copy is made beside `destination` under a temporary name, made durable, and
    /// renamed into place once complete, so a failed backup leaves no half-written file
    /// and an existing one as it was.
    /// - Parameter overwrite: replace an existing file; without it, an existing file is
    ///   refused.
    public func backup(to destination: String, overwrite: Bool = false) throws {
        if !overwrite, FileManager.default.fileExists(atPath: destination) {
            throw TodoStoreError("\(destination) already exists: choose another file name, or remove it first")
        }
        let temporary = destination + TodoStore.partialMark + UUID().uuidString.prefix(8)
        do {
            let copy = try DatabaseQueue(path: temporary)
            try pool.backup(to: copy)
            try copy.writeWithoutTransaction { db in
                // A copy is a plain file: no -wal beside it for a user to forget.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try copy.close()
            try install(temporary, at: destination, overwrite: overwrite)
        } catch {
            for leftover in [temporary, temporary + "-journal", temporary + "-wal", temporary + "-shm"] { unlink(leftover) }
            // The backup's step reports a full disk with the destination's message, "not an error": the code says it.
            if let error = error as? DatabaseError {
                throw TodoStoreError(error, database: error.resultCode == .SQLITE_FULL ? destination : path)
            }
            throw error
        }
    }

    /// What a copy's temporary name holds after the destination's: `….partial-1A2B3C4D`.
    static let partialMark = ".partial-"

    /// Renames the finished copy into place; without `overwrite`, `link` refuses a file
    /// that appeared meanwhile (rename would silently replace it). The directory is
    /// synced after, so that the new name survives a power cut too.
    private func install(_ temporary: String, at destination: String, overwrite: Bool) throws {
        if overwrite {
            guard rename(temporary, destination) == 0 else {
                throw TodoStoreError("cannot write the backup \(destination): \(String(cString: strerror(errno)))")
            }
        } else {
            guard link(temporary, destination) == 0 else {
                let reason = errno == EEXIST ? "it already exists" : String(cString: strerror(errno))
                throw TodoStoreError("cannot write the backup \(destination): \(reason)")
            }
            unlink(temporary)
        }
        let directory = open(DatabaseFile.directoryOf(destination), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            Glibc.close(directory)
        }
    }

    /// `backups/` beside the database at `path`: where `todoctl backup` puts its copies.
    static func backupsDirectory(of path: String) -> String {
        (DatabaseFile.directoryOf(path) as NSString).appendingPathComponent("backups")
    }

    /// Removes what backups cut off by a kill left in `backups/`: their partial copies and
    /// those copies' `-journal`s, which nothing else would ever remove. Only the store's
    /// owner calls it (the daemon, holding the database's lock), before any backup starts.
    static func removeUnfinishedBackups(of path: String) {
        let directory = backupsDirectory(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix("todos-") && name.contains(partialMark) {
            unlink((directory as NSString).appendingPathComponent(name))
        }
    }

    /// The newest backup in `backups/`, by its name (which sorts by time); nil when none.
    static func lastBackup(of path: String) -> String? {
        let directory = backupsDirectory(of: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("todos-") && $0.hasSuffix(".sqlite") }.max()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Where to find a backup to restore, in words.
    static func lastBackupAdvice(of path: String) -> String {
        if let last = lastBackup(of: path) { return "`todoctl backup` makes them; here is the last: \(last)" }
        return "`todoctl backup` makes them, in \(backupsDirectory(of: path)), which holds none: use a copy of your own"
    }

    /// The refusal for a damaged database: what to restore and how.
    static func corruption(of path: String, detail: String) -> String {
        """
        the database \(path) is corrupted (\(detail)), so todod will not use it: restore a backup \
        (\(lastBackupAdvice(of: path))): with todod stopped, copy it over \(path), remove \(path)-wal and \(path)-shm, and \
        start todod again. Keep the damaged file: `sqlite3 \(path) .recover` may save changes made since the backup
        """
    }

    /// Refuses a database SQLite finds damaged (`PRAGMA quick_check`: every page and index
    /// entry read once, without comparing the indexes' contents to the rows'), before
    /// anything is written into it: on a read-only connection of its own, since opening the
    /// writer's pool already writes (it folded a page into a damaged file, seen with strace).
    static func refuseDamage(path: String) throws {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 else { return }
        var configuration = Configuration()
        configuration.readonly = true
        let problems = try DatabaseQueue(path: path, configuration: configuration).read { db in
            try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
        }
        guard problems != ["ok"] else { return }
        throw TodoStoreError(corruption(of: path, detail: problems.joined(separator: "; ")))
    }
}
