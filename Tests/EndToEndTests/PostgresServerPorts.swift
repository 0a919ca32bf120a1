import Foundation
import Synchronization

/// TCP ports for the test servers (PostgresTLSServer): each handed out once in this process, so
/// two servers of one run are never given the same port. The kernel's pick for port 0 is free
/// when it is made, not seconds later when the server binds it, nor for servers of other
/// processes; the server that then answers on it is checked (PostgresTLSServer.start).
enum PostgresServerPorts {
    private static let handedOut = Mutex<Set<Int>>([])

    /// A port nobody listens on now on 127.0.0.1, never handed out before in this process.
    static func next() throws -> Int {
        for _ in 0..<100 {
            let port = try kernelsPick()
            let isNew = handedOut.withLock { $0.insert(port).inserted }
            if isNew { return port }
        }
        throw TestFailure("the kernel gave only ports handed out before, 100 times")
    }

    /// A TCP port on 127.0.0.1 that nobody listens on now: the kernel's pick for port 0.
    private static func kernelsPick() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard found else { throw TestFailure("no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
