#if canImport(Glibc)
import Glibc
#endif

/// The rule both ends apply to the directory that holds the socket: whoever can write
/// there can put their own socket in its place, so it must be a real directory (not a
/// symbolic link someone else may turn elsewhere), belong to the user, and be writable
/// by no one else. todod refuses to listen in such a directory; todoctl refuses to
/// connect through one.
public enum SocketDirectory {
    /// Why a socket's directory cannot be trusted.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The directory does not exist (or cannot be read): `strerror`'s words.
        case unreadable(directory: String, reason: String)
        /// A symbolic link, whoever owns it.
        case symbolicLink(directory: String)
        /// Something other than a directory.
        case notADirectory(directory: String)
        /// Another user's directory.
        case otherOwner(directory: String, owner: uid_t)
        /// Group or others may write there (mode shown in octal).
        case writableByOthers(directory: String, mode: mode_t)

        public var description: String {
            switch self {
            case .unreadable(let directory, let reason):
                "the socket's directory \(directory) cannot be read (\(reason))"
            case .symbolicLink(let directory):
                "the socket's directory \(directory) is a symbolic link, which its owner can point anywhere"
            case .notADirectory(let directory):
                "\(directory) is not a directory"
            case .otherOwner(let directory, let owner):
                "the socket's directory \(directory) belongs to user \(owner), not to you (user \(getuid()))"
            case .writableByOthers(let directory, let mode):
                "the socket's directory \(directory) is writable by other users (mode \(String(mode & 0o7777, radix: 8)))"
            }
        }
    }

    /// The directory part of `socketPath` (`.` for a bare file name).
    public static func directory(of socketPath: String) -> String {
        guard let slash = socketPath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let directory = String(socketPath[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Checks the directory holding `socketPath` without following a link (`lstat`).
    public static func check(socketPath: String, user: uid_t = getuid()) -> Result<Void, Problem> {
        check(directory: directory(of: socketPath), user: user)
    }

    /// The same rule for any directory whose files others must not plant or replace (the
    /// database's too): checked without following a link (`lstat`).
    public static func check(directory: String, user: uid_t = getuid()) -> Result<Void, Problem> {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            return .failure(.unreadable(directory: directory, reason: String(cString: strerror(errno))))
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .failure(.symbolicLink(directory: directory))
        case S_IFDIR: break
        default: return .failure(.notADirectory(directory: directory))
        }
        if info.st_uid != user { return .failure(.otherOwner(directory: directory, owner: info.st_uid)) }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return .failure(.writableByOthers(directory: directory, mode: info.st_mode))
        }
        return .success(())
    }
}
