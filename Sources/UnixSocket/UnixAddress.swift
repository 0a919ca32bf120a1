#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The address of a Unix socket: a path, or a name in Linux's abstract namespace.
///
/// Why a type of its own: a `sockaddr_un` is filled by copying bytes into a C array and
/// handed to `connect`/`bind`/`sendto` through a rebound pointer, and a path one byte too
/// long is silently cut off unless checked. Every socket the project opens by hand (the
/// client's, the daemon's liveness probe, the notify datagram, the bench's and the tests'
/// clients) builds its address here, so the pointers and the check live in one place.
public struct UnixAddress: Sendable, Equatable {
    /// The bytes of `sun_path` that matter: the path and its NUL, or a NUL and the abstract name.
    private let name: [UInt8]

    /// The bytes `sun_path` holds, its NUL included.
    public static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// A path longer than a Unix socket address holds.
    public struct TooLong: Error, CustomStringConvertible, Sendable {
        public let path: String
        public var description: String {
            "the socket path \(path) is \(path.utf8.count) bytes, and a Unix socket address holds at most \(UnixAddress.capacity - 1): choose a shorter path"
        }
    }

    /// The socket at `path`.
    public init(path: String) throws(TooLong) {
        guard path.utf8.count < Self.capacity else { throw TooLong(path: path) }
        name = Array(path.utf8) + [0]
    }

    /// An address as `sd_notify(3)` reads `$NOTIFY_SOCKET`: an absolute path, or `@name` in
    /// the abstract namespace (a NUL byte first and none at the end); nil for anything else
    /// (`vsock:` addresses are not supported) or a name too long.
    public init?(notifySocket: String) {
        var bytes = Array(notifySocket.utf8)
        switch bytes.first {
        case UInt8(ascii: "@"): bytes[0] = 0
        case UInt8(ascii: "/"): bytes.append(0)
        default: return nil
        }
        guard bytes.count <= Self.capacity else { return nil }
        name = bytes
    }

    /// Calls `body` with the address as the socket calls take it.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// `connect(2)` of `descriptor` to this address; 0, or -1 with `errno` set.
    public func connect(_ descriptor: Int32) -> Int32 {
        withSockaddr { Glibc.connect(descriptor, $0, $1) }
    }

    /// `bind(2)` of `descriptor` to this address; 0, or -1 with `errno` set.
    public func bind(_ descriptor: Int32) -> Int32 {
        withSockaddr { Glibc.bind(descriptor, $0, $1) }
    }

    /// `sendto(2)` of `bytes` as one datagram; the bytes sent, or -1 with `errno` set.
    public func send(_ bytes: [UInt8], from descriptor: Int32, flags: Int32 = 0) -> Int {
        withSockaddr { address, length in
            bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, flags, address, length) }
        }
    }
}
