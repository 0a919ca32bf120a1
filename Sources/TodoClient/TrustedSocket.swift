import TodoPaths
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket connected to todod, after checking that todod is who answers: the
/// client checks the server as the server checks its clients. The socket's directory
/// must pass `SocketDirectory.check` (anyone who can write there can plant a socket of
/// their own, as another user can with `/tmp/todod-UID` when `XDG_RUNTIME_DIR` is
/// unset), and the listening process must run as this user (`SO_PEERCRED`).
enum TrustedSocket {
    /// Linux's `struct ucred`, which Glibc shows Swift only under _GNU_SOURCE.
    private struct Credentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// A blocking, connected socket descriptor; the caller owns it.
    static func connect(to path: String) throws(TodoClientError) -> Int32 {
        switch SocketDirectory.check(socketPath: path) {
        case .success: break
        case .failure(.unreadable(_, let reason)): throw .cannotConnect(path: path, reason: reason)
        case .failure(let problem): throw .untrusted(path: path, reason: problem.description)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            guard path.utf8.count < buffer.count else { return false }
            buffer.copyBytes(from: path.utf8)
            return true
        }
        guard fits else { throw .cannotConnect(path: path, reason: "the path is longer than a Unix socket address holds") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: String(cString: strerror(errno))) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .cannotConnect(path: path, reason: reason)
        }
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .untrusted(path: path, reason: "cannot learn who listens there (\(reason))")
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
