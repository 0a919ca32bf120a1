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
    /// The database file itself, `flock`ed too when it exists: a hard link reaches it under
    /// another name, and so another lock file. (SQLite's own locks are `fcntl`'s, which `flock`
    /// leaves alone; this descriptor stays open until the daemon ends, after SQLite closed.)
    private let guarded: Int32?

    /// Who holds a lock, as its file says.
    struct Holder: Sendable {
        var pid: String
        var socket: String
        var database: String
    }

    private init(path: String, descriptor: Int32, guarded: Int32?) {
        self.path = path
        self.descriptor = descriptor
        self.guarded = guarded
    }

    /// Takes the lock at `path` without waiting, and writes `holder` into it; with
    /// `database`, locks that file too when it exists.
    /// - Parameter whenHeld: the error to throw when another process holds it.
    static func acquire(
        _ path: String, holder: Holder, guarding database: String? = nil, whenHeld: (Holder) -> DaemonError
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
        let guarded: Int32?
        do {
            guarded = try database.flatMap(lockDatabase)
        } catch {
            close(descriptor)
            throw error
        }
        let text = "pid \(holder.pid)\nsocket \(holder.socket)\ndatabase \(holder.database)\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return LockFile(path: path, descriptor: descriptor, guarded: guarded)
    }

    /// Locks the database file itself; nil when there is none yet (no link to it either).
    private static func lockDatabase(_ database: String) throws(DaemonError) -> Int32? {
        let descriptor = open(database, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else { return descriptor }
        let error = errno
        var status = stat()
        fstat(descriptor, &status)
        close(descriptor)
        guard error == EWOULDBLOCK else { return nil }
        let holder = holderOfLock(onInode: UInt64(status.st_ino)).map { "a todod (pid \($0))" } ?? "another todod"
        throw DaemonError("""
            \(holder) is using the database \(database) under another name (a hard link to the same file, or its old \
            name before a move), so nothing was done: two daemons on one file would lose each other's writes; stop that one \
            first, or give this one a file of its own
            """)
    }

    /// The pid holding a `flock` on the file of inode `inode`, as /proc/locks lists it
    /// ("1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"); nil when it is not found.
    private static func holderOfLock(onInode inode: UInt64) -> String? {
        // Read to its end: String(contentsOfFile:) stops at 4 KiB of a /proc file (measured: 4,047 of 21,092 bytes
        // with 400 locks), and a busy machine's list is longer.
        guard let data = FileHandle(forReadingAtPath: "/proc/locks").flatMap({ try? $0.readToEnd() }) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 5, fields[1] == "FLOCK", fields[5].split(separator: ":").last == Substring("\(inode)") else { continue }
            return String(fields[4])
        }
        return nil
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

    deinit {
        if let guarded { close(guarded) }
        close(descriptor)
    }
}
