import Foundation
import Glibc

/// Tells of files created, written, moved in, removed or moved out of one directory, through
/// inotify(7): the kernel wakes a thread of its own when something happens, no polling.
final class DirectoryWatcher: Sendable {
    enum Change: Sendable, Equatable {
        /// Closed after writing, or renamed into the directory.
        case written(String)
        /// A name made in the directory: by `open(O_CREAT)` (being written, `written` follows at
        /// its close), by `link()` (whole already: vdirsyncer's new items, which nothing else
        /// tells of), or a symbolic link, a pipe. Not a directory.
        case created(String)
        /// Removed, or renamed out of the directory.
        case removed(String)
        /// The directory itself was removed, moved away or unmounted: nothing more will come.
        case gone
    }

    private let descriptor: Int32

    /// Starts watching `path`; `onChange` runs on the watcher's thread, a file name at a time.
    init(path: String, onChange: @escaping @Sendable (Change) -> Void) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw DaemonError("cannot watch \(path): inotify_init1 failed (\(String(cString: strerror(errno))))") }
        let mask = UInt32(IN_CREATE) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
            | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        guard inotify_add_watch(descriptor, path, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw DaemonError("cannot watch \(path) (\(reason)): raise fs.inotify.max_user_watches, or check the directory")
        }
        let descriptor = descriptor
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                // read(2) of inotify's events into the array in place: its address is the kernel's, for the call only.
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                for change in DirectoryWatcher.changes(in: buffer[..<count]) { onChange(change) }
            }
        }
        thread.name = "todod.ical-dir"
        thread.start()
    }

    /// The changes in a read of inotify events: each a fixed header (wd, mask, cookie, len)
    /// followed by a NUL-padded name of `len` bytes.
    static func changes(in bytes: ArraySlice<UInt8>) -> [Change] {
        var changes: [Change] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            func word(_ at: Int) -> UInt32 {
                (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + at + $1]) << (8 * UInt32($1)) }
            }
            let mask = word(4), length = Int(word(12))
            let nameBytes = bytes[(offset + header)..<min(bytes.endIndex, offset + header + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset += header + length
            // IN_IGNORED and IN_UNMOUNT come unasked: the watch is over.
            let directoryGone = UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED) | UInt32(IN_UNMOUNT)
            if name.isEmpty, mask & directoryGone != 0, changes.last != .gone { changes.append(.gone) }
            guard !name.isEmpty else { continue }
            if mask & UInt32(IN_CREATE) != 0, mask & UInt32(IN_ISDIR) == 0 { changes.append(.created(name)) }
            if mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) != 0 { changes.append(.written(name)) }
            if mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 { changes.append(.removed(name)) }
        }
        return changes
    }
}
