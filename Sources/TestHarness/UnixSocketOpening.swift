import Foundation
import UnixSocket

/// A new Unix socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`), closed on exec, then bound or
/// connected to `address` by `call` (`UnixAddress.bind` or `.connect`); closed again and a
/// failure that says `doing` and why when that fails. The one place the harness opens a socket.
func openUnixSocket(_ type: __socket_type, _ call: (UnixAddress) -> (Int32) -> Int32, _ address: UnixAddress, doing: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw HarnessFailure("cannot \(doing): socket() failed: \(SocketCallError())") }
    guard call(address)(fd) == 0 else {
        let reason = SocketCallError()
        close(fd)
        throw HarnessFailure("cannot \(doing): \(reason)")
    }
    return fd
}
