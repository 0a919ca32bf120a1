#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One notification to the service manager, sent as `sd_notify(3)` sends it: a datagram to
/// the Unix socket `$NOTIFY_SOCKET` names. Sent here rather than through libsystemd because
/// libsystemd reads the socket's name from the process environment at each call, which only
/// setenv(3) could change for a test (see SystemdEnvironment).
enum NotifyDatagram {
    /// Sends `message` to the socket at `path` (absolute, or `@name` in the abstract
    /// namespace); true once the socket took it. Other addresses (`vsock:`) are not supported.
    static func send(_ message: String, to path: String) -> Bool {
        var name = Array(path.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        guard abstract || name.first == UInt8(ascii: "/") else { return false }
        // An abstract name starts with a NUL byte and has none at its end; a path ends with one.
        if abstract { name[0] = 0 } else { name.append(0) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard name.count <= MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)

        let descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL), address, length) }
            }
        }
        return sent == bytes.count
    }
}
