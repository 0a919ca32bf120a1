#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who is at the other end of a Unix socket, as the kernel says (`SO_PEERCRED`): the
/// daemon checks each client's user, and the client checks that todod runs as its user.
///
/// Laid out as Linux's `struct ucred`, which Glibc shows Swift only under _GNU_SOURCE, so
/// that `getsockopt` (or NIO's `unsafeGetSocketOption`) can fill it.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: pid_t = 0
    public var uid: uid_t = 0
    public var gid: gid_t = 0

    public init() {}

    /// The peer of the connected socket `descriptor`, or why it cannot be known.
    public static func of(_ descriptor: Int32) -> Result<PeerCredentials, SocketCallError> {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            return .failure(SocketCallError())
        }
        return .success(credentials)
    }
}

/// A socket call that failed, with `errno`'s words, read when it is made.
public struct SocketCallError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public init() { code = errno }
    public var description: String { String(cString: strerror(code)) }
}
