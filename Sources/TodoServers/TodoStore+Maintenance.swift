import Foundation
import GRDB

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
    /// The copy is made beside `destination` under a temporary name and renamed into
    /// place once complete, so a failed backup leaves no half-written file.
    /// - Parameter overwrite: replace an existing file; without it, an existing file is
    ///   refused.
    public func backup(to destination: String, overwrite: Bool = false) throws {
        if !overwrite, FileManager.default.fileExists(atPath: destination) {
            throw TodoStoreError("\(destination) already exists: choose another file name, or remove it first")
        }
        let temporary = destination + ".partial-\(UUID().uuidString.prefix(8))"
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
            unlink(temporary)
            throw error
        }
    }

    /// Renames the finished copy into place; without `overwrite`, `link` refuses a file
    /// that appeared meanwhile (rename would silently replace it).
    private func install(_ temporary: String, at destination: String, overwrite: Bool) throws {
        if overwrite {
            guard rename(temporary, destination) == 0 else {
                throw TodoStoreError("cannot write the backup \(destination): \(String(cString: strerror(errno)))")
            }
            return
        }
        guard link(temporary, destination) == 0 else {
            let reason = errno == EEXIST ? "it already exists" : String(cString: strerror(errno))
            throw TodoStoreError("cannot write the backup \(destination): \(reason)")
        }
        unlink(temporary)
    }
}
