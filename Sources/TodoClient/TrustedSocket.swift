import TodoPaths
import TodoWire
import UnixSocket

#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket connected to todod, after checking that todod is who answers: the
/// client checks the server as the server checks its clients. The socket's directory
/// must pass `SocketDirectory.check` (anyone who can write there can plant a socket of
/// their own, as another user can with `/tmp/todod-UID` when `XDG_RUNTIME_DIR` is
/// unset), and the listening process must run as this user (`SO_PEERCRED`).
enum TrustedSocket {
    /// A blocking, connected socket descriptor; the caller owns it.
    static func connect(to path: String) throws(TodoClientError) -> Int32 {
        switch SocketDirectory.check(socketPath: path) {
        case .success: break
        case .failure(.unreadable(_, let reason)): throw .cannotConnect(path: path, reason: reason)
        case .failure(let problem): throw .untrusted(path: path, reason: problem.description)
        }
        var file = stat()
        if lstat(path, &file) == 0, file.st_mode & S_IFMT != S_IFSOCK { throw .notASocket(path: path) }
        guard let address = try? UnixAddress(path: path) else {
            throw .cannotConnect(path: path, reason: "the path is longer than a Unix socket address holds")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: SocketCallError().description) }
        guard address.connect(fd) == 0 else {
            let reason = SocketCallError().description
            close(fd)
            throw .cannotConnect(path: path, reason: reason)
        }
        let credentials: PeerCredentials
        switch PeerCredentials.of(fd) {
        case .success(let peer): credentials = peer
        case .failure(let error):
            close(fd)
            throw .untrusted(path: path, reason: "cannot learn who listens there (\(error))")
        }
        guard credentials.uid == getuid() else {
            close(fd)
            throw .untrusted(
                path: path,
                reason: "the process listening there (pid \(credentials.pid)) runs as user \(credentials.uid), not as you (user \(getuid()))")
        }
        return fd
    }
}
