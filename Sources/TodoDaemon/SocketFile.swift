import TodoPaths
import Foundation
import TodoWire
import UnixSocket

#if canImport(Glibc)
import Glibc
#endif

/// The socket's place in the file system: its directory made private, a stale file
/// from a crashed daemon removed, and a live daemon left alone.
enum SocketFile {
    /// The longest path a Unix socket address holds (`sun_path`, less its NUL).
    static let maximumPathLength = 107

    /// Makes the socket's directory and takes `PATH.lock` beside the socket for the
    /// daemon's life, then clears the way for binding: two daemons started at the same
    /// instant cannot both find the path free and unlink each other's socket.
    static func claim(_ path: String, holder: LockFile.Holder) throws(DaemonError) -> LockFile {
        guard path.utf8.count <= maximumPathLength else {
            throw DaemonError("the socket path \(path) is longer than \(maximumPathLength) bytes, which Unix sockets cannot hold: choose a shorter --socket")
        }
        try makeDirectory(for: path)
        let lock = try LockFile.acquire(path + ".lock", holder: holder) { other in
            DaemonError("another todod (pid \(other.pid), database \(other.database)) is already listening on \(path): use it (`todoctl status`), or stop it first (`systemctl --user stop todod` or kill \(other.pid))")
        }
        try prepare(path)
        return lock
    }

    /// Makes the socket's directory and clears the way for binding `path`; throws if
    /// another daemon listens there or the path is unusable.
    static func prepare(_ path: String) throws(DaemonError) {
        guard path.utf8.count <= maximumPathLength else {
            throw DaemonError("the socket path \(path) is longer than \(maximumPathLength) bytes, which Unix sockets cannot hold: choose a shorter --socket")
        }
        try makeDirectory(for: path)
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError("\(path) exists and is not a socket: remove it, or choose another path with --socket")
        }
        if isLive(path) {
            throw DaemonError("another todod is already listening on \(path): use it (`todoctl status`), or stop it first (`systemctl --user stop todod` or kill it)")
        }
        unlink(path)
    }

    /// Whether a process accepts connections on `path`.
    static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // A path too long to connect to has no listener (binding it fails and says so).
        guard let address = try? UnixAddress(path: path) else { return false }
        return address.connect(fd) == 0
    }

    /// The directory, created private (0700) when missing; an existing one must pass the
    /// rule todoctl applies too (`SocketDirectory`): ours, a real directory and not a
    /// symbolic link (another user's link would lead our socket, and our clients, where
    /// they choose), writable by no one else.
    private static func makeDirectory(for path: String) throws(DaemonError) {
        let directory = SocketDirectory.directory(of: path)
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonError("cannot create the socket's directory \(directory): \(error.localizedDescription)")
        }
        if case .failure(let problem) = SocketDirectory.check(socketPath: path) {
            throw DaemonError("\(problem): refusing to listen there; choose a --socket in a directory of your own with mode 0700 (or set XDG_RUNTIME_DIR)")
        }
    }
}
