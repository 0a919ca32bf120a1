#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UnixSocket

/// A datagram socket standing in for systemd's notification socket, so tests read what the notifier sent.
final class NotifySocket {
    let path: String
    private let descriptor: CInt

    /// `abstract`: in the abstract namespace ("@name" in $NOTIFY_SOCKET), as some managers use.
    init(abstract: Bool = false) throws {
        let name = "todod-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        path = abstract ? "@" + name : "/tmp/\(name).sock"
        descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(operation: "socket") }
        guard let address = UnixAddress(notifySocket: path), address.bind(descriptor) == 0 else { close(descriptor); throw SocketError(operation: "bind") }
        // A receive timeout, so a notifier that sends nothing fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram as text, or nil when none arrives within the timeout.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}

/// A failed system call in test setup, with errno.
struct SocketError: Error {
    let operation: String
    let code = errno
}
