import Foundation
import TodoPaths

#if canImport(Glibc)
import Glibc
#endif

/// Whose the database's files are. Whoever can write the database, its `-wal` or `-shm`,
/// or plant them in its directory, reads every todo and adds their own; whoever owns
/// `backups/` receives the copies. So the rule the socket's directory follows
/// (`SocketDirectory`) holds for all of them: the user's own, writable by no one else.
extension DatabaseFile {
    /// Throws, saying what is wrong and what to do, unless the directory holding `path`
    /// (after its links: the files are made where the path leads) is the user's own and
    /// writable by no one else. A missing directory passes: it is for the caller to say.
    static func checkDirectory(of path: String) throws(TodoStoreError) {
        let directory = real(directoryOf(path))
        switch SocketDirectory.check(directory: directory, user: geteuid()) {
        case .success, .failure(.unreadable): return
        case .failure(let problem): throw refusal(problem, what: "the database's directory", fix: """
            or choose a --database in a directory of your own (todod creates it, mode 0700)
            """)
        }
    }

    /// `backups/` beside the database, when it exists: a real directory (not a link that
    /// would send the copies elsewhere), the user's own, writable by no one else.
    static func checkBackups(_ backups: String) throws(TodoStoreError) {
        switch SocketDirectory.check(directory: backups, user: geteuid()) {
        case .success, .failure(.unreadable): return
        case .failure(let problem): throw refusal(problem, what: "the backups' directory", fix: """
            or remove it while todod is stopped (todod makes it again, mode 0700)
            """)
        }
    }

    /// The database, `-wal` or `-shm` at `path` (not followed: a link there is the
    /// database's own path, resolved by the caller), described by `info`: the user's own,
    /// writable by no one else. An empty file of the user's that others may write (just
    /// created under a lax umask) holds nothing yet, so it is made private instead.
    static func checkOwnFile(_ path: String, _ info: stat, what: String) throws(TodoStoreError) {
        let user = geteuid()
        guard info.st_uid == user else {
            throw TodoStoreError("""
                \(what) \(path) belongs to \(name(of: info.st_uid)), not to you (\(name(of: user))): whoever made it can read \
                and change every todo, so todod will not use it. If it is yours, take it back (chown \(user) \(path)); \
                otherwise remove it, or choose another file with --database
                """)
        }
        let shared = info.st_mode & (S_IWGRP | S_IWOTH)
        guard shared != 0 else { return }
        if info.st_size == 0, chmod(path, info.st_mode & 0o777 & ~shared) == 0 { return }
        throw TodoStoreError("""
            \(what) \(path) is writable by other users (mode \(String(info.st_mode & 0o7777, radix: 8))), who could change \
            every todo: make it yours alone (chmod go-w \(path)), then start todod again
            """)
    }

    /// The directory part of `path` (`.` for a bare file name).
    static func directoryOf(_ path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// `path` with its symbolic links followed; itself when it does not exist.
    static func real(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func refusal(_ problem: SocketDirectory.Problem, what: String, fix: String) -> TodoStoreError {
        let user = geteuid()
        switch problem {
        case .unreadable(let directory, let reason):
            return TodoStoreError("\(what) \(directory) cannot be read (\(reason)): check its permissions")
        case .symbolicLink(let directory):
            return TodoStoreError("\(what) \(directory) is a symbolic link, which can lead the files anywhere: remove it, \(fix)")
        case .notADirectory(let directory):
            return TodoStoreError("\(what) \(directory) is not a directory: remove it, \(fix)")
        case .otherOwner(let directory, let owner):
            return TodoStoreError("""
                \(what) \(directory) belongs to \(name(of: owner)), not to you (\(name(of: user))), who could plant or \
                replace the database's files there: if it is yours, take it back (chown \(user) \(directory)), \(fix)
                """)
        case .writableByOthers(let directory, let mode):
            return TodoStoreError("""
                \(what) \(directory) is writable by other users (mode \(String(mode & 0o7777, radix: 8))), who could plant or \
                replace the database's files there: make it yours alone (chmod go-w \(directory)), \(fix)
                """)
        }
    }

    /// `user alice (1001)`; the number alone for a uid without a name.
    private static func name(of uid: uid_t) -> String {
        guard let entry = getpwuid(uid) else { return "user \(uid)" }
        return "user \(String(cString: entry.pointee.pw_name)) (\(uid))"
    }
}
