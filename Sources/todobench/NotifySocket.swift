import Foundation
import UnixSocket

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket.
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let descriptor: CInt

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket() for the notify socket failed") }
        guard let address = try? UnixAddress(path: path), address.bind(descriptor) == 0 else { Glibc.close(descriptor); throw BenchError("cannot bind the notify socket \(path)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after 0.2 s.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Waits for `process` to send `READY=1`: false when it exits first or `seconds` pass.
    func awaitReady(of process: Process, within seconds: Double) async throws -> Bool {
        try await blocking { [self] in
            let deadline = now() + UInt64(seconds * 1e9)
            while now() < deadline {
                if let message = receive(), message.split(separator: "\n").contains("READY=1") { return true }
                if !process.isRunning { return false }
            }
            return false
        }
    }

    func close() {
        Glibc.close(descriptor)
        unlink(path)
    }
}
