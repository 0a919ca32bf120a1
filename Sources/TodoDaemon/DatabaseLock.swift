import Foundation

/// The database's lock (`DATABASE.lock`) for a program other than the daemon that must not
/// run beside one on the same database (`todod --migrate-to`: changes made during the copy
/// would stay behind in the file).
public enum DatabaseLock {
    /// The lock file of the database at `databasePath`: beside the file it leads to, its
    /// symbolic links followed, so that every path to one database finds one lock.
    static func path(for databasePath: String) -> String {
        URL(fileURLWithPath: databasePath).resolvingSymlinksInPath().path + ".lock"
    }

    /// Runs `body` holding the lock, as a daemon holds it; throws `DaemonError`, naming the
    /// daemon, when one holds it.
    public static func holding<T>(_ databasePath: String, for purpose: String, _ body: () throws -> T) throws -> T {
        let holder = LockFile.Holder(pid: "\(getpid())", socket: "none (\(purpose))", database: databasePath)
        let lock = try LockFile.acquire(path(for: databasePath), holder: holder, guarding: databasePath) { other in
            DaemonError("""
                a todod (pid \(other.pid), socket \(other.socket)) is using the database \(databasePath), so nothing was done: \
                stop it first (systemctl --user stop todod.service todod.socket, or kill \(other.pid)), then \(purpose) again
                """)
        }
        return try withExtendedLifetime(lock) { try body() }
    }
}
