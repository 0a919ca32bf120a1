import Foundation
import Glibc
import TodoPaths

/// How todod touches the files of its iCalendar directory, which other users may be able to
/// write (a household's shared calendar, mode 2770): it follows no symbolic link, opens no
/// pipe or device for reading, and writes each file through a temporary file that no one
/// could have made before it (a new, unpredictable name, `O_EXCL|O_NOFOLLOW`), renamed over
/// the file's name. A planted link is replaced, never written through.
enum CalendarFiles {
    /// What a directory entry holds, as far as todod reads it.
    enum Contents: Equatable {
        case regular(Data, modified: Date)
        case missing
        /// A symbolic link, a pipe, a directory, a device.
        case notRegular
        case tooLarge(bytes: Int)
        /// `strerror`'s words.
        case unreadable(String)
    }

    /// The file at `path`, when it is a regular file of at most `limit` bytes.
    static func read(_ path: String, limit: Int) -> Contents {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
        // What lstat saw may be swapped for a link or a pipe before the open: O_NOFOLLOW and
        // O_NONBLOCK keep that from being followed or waited on, fstat tells what was opened.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .missing : errno == ELOOP ? .notRegular : .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
        guard Int(info.st_size) <= limit else { return .tooLarge(bytes: Int(info.st_size)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // read(2) into the chunk in place: its address is the kernel's, for the call only.
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return .unreadable(String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += chunk[..<count]
            // It grew while being read: no more than the limit is kept in memory.
            guard bytes.count <= limit else { return .tooLarge(bytes: bytes.count) }
        }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
        return .regular(Data(bytes), modified: modified)
    }

    /// Writes `data` as the file at `path`: into a new temporary file beside it, renamed over it.
    static func replace(_ path: String, with data: Data) throws(DaemonError) {
        let directory = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        // A dot file not ending in .ics: the directory's readers (todod's watcher, vdirsyncer) pass it by.
        let temporary = directory + "/.\(name)." + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw DaemonError(String(cString: strerror(errno))) }
        var failure: Int32?
        // write(2) takes the bytes by address; the pointer lives only for this loop's calls.
        data.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, start + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw DaemonError(String(cString: strerror(failure)))
        }
    }

    /// Whether nothing at all is at `path` (a link to nothing is something).
    static func isMissing(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 && errno == ENOENT
    }

    /// Removes the file at `path` (a link itself, not what it names); true when it was there.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// Why other users can change what `directory` holds (the socket directory's rule, on
    /// the directory a link leads to), or nil when only its owner, the user, can.
    static func othersCanWrite(_ directory: String) -> String? {
        let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        switch SocketDirectory.check(socketPath: real + "/todo.ics") {
        case .success: return nil
        case .failure(.writableByOthers(_, let mode)): return "writable by other users (mode \(String(mode & 0o7777, radix: 8)))"
        case .failure(.otherOwner(_, let owner)): return "another user's (user \(owner)), who can write there"
        case .failure(let problem): return "not a directory of one's own (\(problem))"
        }
    }
}
