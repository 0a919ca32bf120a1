import Foundation
import Logging
import TodoInterop
import TodoModel

/// Reads one file of `todod --ical-dir`'s directory and parses its todos, for CalendarDirectory:
/// what it leaves alone (not a regular file, too large, unreadable, not iCalendar) it logs, and
/// a file still being written is not an error yet.
struct CalendarFileReader: Sendable {
    /// The largest file read: a VTODO is a few hundred bytes, and a huge file (a sync gone
    /// wrong, a hostile peer) must not take the daemon's memory.
    static let maximumFileBytes = 1 << 20

    /// A file read and parsed.
    struct ParsedFile {
        var data: Data
        var text: String
        var todos: [ImportedTodo]
    }

    /// The directory.
    let path: String
    let logger: Logger

    func fullPath(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The todos of the file `name`, or nil (logged) when it does not parse, or when `isKnown`
    /// says its bytes are as todod last read or wrote them. `justMade`: the file was just made
    /// (IN_CREATE): whole when another program linked it there (vdirsyncer's new items), or
    /// still being written, which is read when it is closed and is not an error yet.
    func parse(_ name: String, justMade: Bool = false, unless isKnown: (Data) -> Bool) -> ParsedFile? {
        let file = fullPath(name)
        let data: Data, modified: Date
        switch CalendarFiles.read(file, limit: Self.maximumFileBytes) {
        case .regular(let contents, let time): (data, modified) = (contents, time)
        case .missing: return nil
        case .notRegular:
            logger.warning("an iCalendar directory entry is not a regular file (a link, a pipe, a directory); left alone", metadata: ["file": "\(file)"])
            return nil
        case .tooLarge(let size):
            logger.warning("an iCalendar file is larger than 1 MiB, the most todod reads from one file; left alone",
                           metadata: ["file": "\(file)", "bytes": "\(size)"])
            return nil
        case .unreadable(let reason):
            logger.warning("an iCalendar file cannot be read; left alone", metadata: ["file": "\(file)", "reason": "\(reason)"])
            return nil
        }
        if isKnown(data) { return nil }
        do throws(InteropError) {
            let text = try InteropText.unfoldedUTF8(data)
            if justMade, !ICalendarFormat.isWhole(text) {
                logger.debug("an iCalendar file made in the directory is not whole yet; it is read when it is closed", metadata: ["file": "\(name)"])
                return nil
            }
            // What the file does not date was changed when the file was.
            let todos = try ICalendarFormat.decode(text, now: modified)
            guard !todos.isEmpty else { throw InteropError(name, "holds no VTODO (BEGIN:VTODO … END:VTODO)") }
            return ParsedFile(data: data, text: text, todos: todos)
        } catch {
            if justMade {
                // Perhaps half written: its close says.
                logger.debug("an iCalendar file made in the directory does not parse yet; it is read when it is closed", metadata: ["file": "\(name)"])
                return nil
            }
            logger.warning("an iCalendar file does not parse; left alone", metadata: ["file": "\(file)", "reason": "\(error)"])
            return nil
        }
    }
}
