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
        let holder = holderOfLock(onDevice: UInt64(status.st_dev), inode: UInt64(status.st_ino)).map { "a todod (pid \($0))" }
            ?? "another todod"
        throw DaemonError("""
            \(holder) is using the database \(database) under another name (a hard link to the same file, or its old \
            name before a move), so nothing was done: two daemons on one file would lose each other's writes; stop that one \
            first, or give this one a file of its own
            """)
    }

    /// The pid holding a `flock` on the file of device `device` and inode `inode`, as
    /// /proc/locks lists it ("1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"); nil when it
    /// is not found.
    ///
    /// The list is read again when the lock is missing from it: the kernel hands it out a page
    /// at a time, counting entries, so a lock another process drops meanwhile shifts the rest
    /// and one entry is skipped (measured: 1.4% of reads missed a held lock while two processes
    /// took and dropped 150 locks each; CI's parallel tests are such a machine). A lock that
    /// is really held turns up within a few reads; one gone meanwhile is missing from all.
    static func holderOfLock(onDevice device: UInt64, inode: UInt64) -> String? {
        let wanted = String(format: "%02x:%02x:%llu", major(device), minor(device), inode)
        // On an overlay file system the device /proc/locks names may be another than stat's; the inode alone then
        // names the holder, as it did before the device was compared (a lock on a same-numbered file elsewhere could
        // be taken for it, only in this message).
        var sameInode: String?
        for _ in 0..<8 {
            // Read to its end: String(contentsOfFile:) stops at 4 KiB of a /proc file (measured: 4,047 of 21,092
            // bytes with 400 locks), and a busy machine's list is longer.
            guard let data = FileHandle(forReadingAtPath: "/proc/locks").flatMap({ try? $0.readToEnd() }) else { return nil }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count > 5, fields[1] == "FLOCK" else { continue }
                if fields[5] == wanted { return String(fields[4]) }
                if fields[5].split(separator: ":").last == Substring("\(inode)") { sameInode = String(fields[4]) }
            }
        }
        return sameInode
    }

    /// glibc's `major`/`minor` are macros Swift does not import; these are their definitions.
    private static func major(_ device: UInt64) -> UInt32 {
        UInt32((device >> 32) & 0xffff_f000) | UInt32((device >> 8) & 0x0000_0fff)
    }

    private static func minor(_ device: UInt64) -> UInt32 {
        UInt32((device >> 12) & 0xffff_ff00) | UInt32(device & 0x0000_00ff)
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
