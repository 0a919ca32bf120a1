#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UnixSocket

/// One notification to the service manager, sent as `sd_notify(3)` sends it: a datagram to
/// the Unix socket `$NOTIFY_SOCKET` names. Sent here rather than through libsystemd because
/// libsystemd reads the socket's name from the process environment at each call, which only
/// setenv(3) could change for a test (see SystemdEnvironment).
enum NotifyDatagram {
    /// Sends `message` to the socket at `path` (absolute, or `@name` in the abstract
    /// namespace); true once the socket took it. Other addresses (`vsock:`) are not supported.
    static func send(_ message: String, to path: String) -> Bool {
        guard let address = UnixAddress(notifySocket: path) else { return false }
        let descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        return address.send(bytes, from: descriptor, flags: CInt(MSG_NOSIGNAL)) == bytes.count
    }
}
