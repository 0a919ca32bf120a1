import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file held with an exclusive `flock` for as long as this value lives (the kernel
/// drops the lock when the process ends, however it ends, so a crash leaves no stale
/// lock). It holds its owner's pid, socket and database, for the message another daemon
/// gives when it finds the lock taken.
///
/// The file is never removed: removing a lock file that another process has just opened
/// would let a third one lock a new file of the same name.
final class LockFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Who holds a lock, as its file says.
    struct Holder: Sendable {
        var pid: String
        var socket: String
        var database: String
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Takes the lock at `path` without waiting, and writes `holder` into it.
    /// - Parameter whenHeld: the error to throw when another process holds it.
    static func acquire(
        _ path: String, holder: Holder, whenHeld: (Holder) -> DaemonError
    ) throws(DaemonError) -> LockFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw DaemonError("cannot open the lock file \(path): \(String(cString: strerror(errno))); check its directory's permissions")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            defer { close(descriptor) }
            guard error == EWOULDBLOCK else {
                throw DaemonError("cannot lock \(path): \(String(cString: strerror(error)))")
            }
            throw whenHeld(read(descriptor))
        }
        let text = "pid \(holder.pid)\nsocket \(holder.socket)\ndatabase \(holder.database)\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return LockFile(path: path, descriptor: descriptor)
    }

    /// The holder named in the file; "unknown" for what it has not written yet (it may be
    /// between taking the lock and writing its name).
    private static func read(_ descriptor: Int32) -> Holder {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        var fields: [String: String] = [:]
        for line in String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return Holder(
            pid: fields["pid"] ?? "unknown", socket: fields["socket"] ?? "unknown", database: fields["database"] ?? "unknown")
    }

    deinit { close(descriptor) }
}
