import Foundation
import Logging
import Synchronization
import TodoEvents
import TodoInterop
import TodoModel
import TodoServers
import TodoViewModel

/// `todod --ical-dir DIR`: DIR kept as a vdir, one iCalendar file per todo, for
/// vdirsyncer (and so CalDAV servers and phones), Todoman or Khal.
///
/// Every committed change is written to its file at once, atomically (a temporary file,
/// then a rename); a deleted todo's file is removed. Files that others add, change or
/// remove are imported through the ViewModelServer like any client's request. Conflicts:
/// the newer side wins, the file's LAST-MODIFIED against todod's last change; when todod's
/// todo is newer, the file is rewritten from it and the conflict logged. A file that does
/// not parse is logged and left alone.
final class CalendarDirectory: Sendable {
    private struct State {
        /// What todod last wrote to each file: an inotify event for it is todod's own.
        var written: [String: Data] = [:]
        /// Files todod removed itself.
        var removing: Set<String> = []
        /// File names by todo id, for files not named `ID.ics` (a UID that is not a UUID).
        var names: [UUID: String] = [:]
        var ids: [String: UUID] = [:]
        /// The SEQUENCE of files read and sent to be imported, by todo: a file written from an
        /// older revision than todod's todo had means both sides changed it.
        var sequences: [UUID: Int] = [:]
        /// Every todo's UID by number: a subtask's file names its parent's (RELATED-TO).
        var uids: [Int: String] = [:]
        /// Files removed by another program, deleted once removals have been quiet a moment.
        var removals: [String] = []
        var removalGeneration = 0
        /// The directory itself went: nothing is written or deleted any more.
        var gone = false
        var requests = 0
        /// Imports of the files found at start not answered yet.
        var startImports = 0
    }

    private let path: String
    private let bus: EventBus
    private let logger: Logger
    private let onCore: ModelServer.Executor
    private let state = Mutex(State())
    private let watcher = Mutex<DirectoryWatcher?>(nil)

    /// Checks DIR, imports the files in it, writes every todo, then watches it.
    init(path: String, bus: EventBus, logger: Logger, onCore: @escaping ModelServer.Executor) throws {
        self.path = path
        self.bus = bus
        self.logger = logger
        self.onCore = onCore
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DaemonError("cannot create the iCalendar directory \(path): \(error.localizedDescription); check the path given to --ical-dir")
        }
        bus.subscribe(to: [.responseTodoViewModel, .responseImportTodos, .responseTodos, .responseError]) { [weak self] envelope in
            self?.handle(envelope)
        }
        // One import per file, as later: a file that does not import keeps no other out.
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(Self.isCalendarFile).sorted()
        let read = files.map { ($0, readFile($0)) }.filter { !$0.1.isEmpty }
        let names = Dictionary(read.flatMap { name, todos in todos.map { ($0.id, name) } }) { first, _ in first }
        let imports = ImportOrder.parentsFirst(read.map(\.1))
        state.withLock { $0.startImports = imports.count }
        onCore { [self] in
            if imports.isEmpty { listEveryTodo() }
            for todos in imports {
                bus.publish(.requestImportTodos(todos), correlation: Self.correlation(Self.startPrefix + (names[todos[0].id] ?? "")))
            }
        }
        watcher.withLock { $0 = try? DirectoryWatcher(path: path) { [weak self] change in self?.changed(change) } }
    }

    /// Only the `.ics` files: a temporary file is a dot file and ends otherwise.
    private static func isCalendarFile(_ name: String) -> Bool { name.hasSuffix(".ics") && !name.hasPrefix(".") }

    private static func correlation(_ request: String) -> Correlation { Correlation(client: 0, request: "ical-dir:" + request) }

    /// Before a file's name, the import of a file found at start ("/" is in no file name).
    private static let startPrefix = "/start/"

    private static func isStartImport(_ envelope: Envelope) -> Bool {
        envelope.correlation?.request.hasPrefix("ical-dir:" + startPrefix) == true
    }

    /// On the core: once every file found at start has been imported (or refused), every todo
    /// is written, so that the directory holds them all.
    private func startImportAnswered() {
        let last = state.withLock { state -> Bool in
            state.startImports -= 1
            return state.startImports == 0
        }
        if last { listEveryTodo() }
    }

    private func listEveryTodo() {
        bus.publish(.requestReadTodos(.list(TodoFilter(status: .all))), correlation: Self.correlation("list"))
    }

    // MARK: From the directory

    /// The largest file read: a VTODO is a few hundred bytes, and a huge file (a sync gone
    /// wrong, a hostile peer) must not take the daemon's memory.
    static let maximumFileBytes = 1 << 20

    /// How long removals must be quiet before they delete todos: `rm -rf DIR` removes every
    /// file before the directory, and a directory that goes away must delete no todo.
    static let removalQuiet = DispatchTimeInterval.milliseconds(500)

    /// The todos of one file, or none (logged) when it does not parse.
    private func readFile(_ name: String) -> [ImportedTodo] {
        let file = (path as NSString).appendingPathComponent(name)
        let attributes = (try? FileManager.default.attributesOfItem(atPath: file)) ?? [:]
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            logger.warning("an iCalendar directory entry is not a regular file (a link, a pipe, a directory); left alone", metadata: ["file": "\(file)"])
            return []
        }
        if let size = attributes[.size] as? Int, size > Self.maximumFileBytes {
            logger.warning("an iCalendar file is larger than 1 MiB, the most todod reads from one file; left alone",
                           metadata: ["file": "\(file)", "bytes": "\(size)"])
            return []
        }
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        if state.withLock({ $0.written[name] == data }) { return [] }
        do throws(InteropError) {
            let text = try InteropText.unfoldedUTF8(data)
            // What the file does not date was changed when the file was.
            let todos = try ICalendarFormat.decode(text, now: attributes[.modificationDate] as? Date ?? Date())
            guard !todos.isEmpty else { throw InteropError(name, "holds no VTODO (BEGIN:VTODO … END:VTODO)") }
            // One UID, one file: a second file with a todo's UID would take the todo from its own.
            for todo in todos {
                let own = state.withLock { $0.names[todo.id] } ?? todo.id.uuidString.lowercased() + ".ics"
                if own != name, FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(own)) {
                    throw InteropError(name, "holds the UID of the todo in \(own); a UID may be in one file only: remove one of them")
                }
            }
            let sequences = ICalendarFormat.sequences(in: text)
            state.withLock { state in
                state.sequences.merge(sequences) { $1 }
                for todo in todos where name != todo.id.uuidString.lowercased() + ".ics" {
                    state.names[todo.id] = name
                    state.ids[name] = todo.id
                }
            }
            return todos
        } catch {
            logger.warning("an iCalendar file does not parse; left alone", metadata: ["file": "\(file)", "reason": "\(error)"])
            return []
        }
    }

    /// On the watcher's thread: a file changed in the directory.
    private func changed(_ change: DirectoryWatcher.Change) {
        switch change {
        case .written(let name) where Self.isCalendarFile(name):
            let todos = readFile(name)
            guard !todos.isEmpty else { return }
            logger.info("imported an iCalendar file changed by another program", metadata: ["file": "\(name)"])
            onCore { [self] in bus.publish(.requestImportTodos(todos), correlation: Self.correlation(name)) }
        case .removed(let name) where Self.isCalendarFile(name):
            let generation = state.withLock { state -> Int? in
                state.written[name] = nil
                guard state.removing.remove(name) == nil else { return nil }
                state.removals.append(name)
                state.removalGeneration += 1
                return state.removalGeneration
            }
            guard let generation else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.removalQuiet) { [weak self] in
                self?.deleteRemoved(ifStill: generation)
            }
        case .gone:
            state.withLock { $0.gone = true }
            logger.error(
                "the iCalendar directory was removed, moved away or unmounted: todod stops keeping it, and deletes no todo for the files that went with it; create the directory again and restart todod to write every todo into it",
                metadata: ["directory": "\(path)"])
        default:
            return
        }
    }

    /// Deletes the todos of the files removed, once removals have been quiet since `generation`,
    /// unless the directory itself went with them.
    private func deleteRemoved(ifStill generation: Int) {
        let taken = state.withLock { state -> (names: [String], gone: Bool)? in
            guard state.removalGeneration == generation else { return nil }
            defer { state.removals = [] }
            return (state.removals, state.gone)
        }
        guard let (names, gone) = taken, !names.isEmpty else { return }
        var isDirectory: ObjCBool = false
        guard !gone, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            logger.notice("iCalendar files went away with their directory; no todo was deleted", metadata: ["files": "\(names.count)"])
            return
        }
        for name in names {
            guard let id = state.withLock({ $0.ids[name] }) ?? UUID(uuidString: String(name.dropLast(4))) else { continue }
            logger.info("deleting a todo whose iCalendar file another program removed", metadata: ["file": "\(name)"])
            onCore { [self] in bus.publish(.requestDeleteTodo(.id(id)), correlation: Self.correlation(name)) }
        }
    }

    // MARK: To the directory

    /// On the core: committed changes are written out; answers to the directory's own requests complete it.
    private func handle(_ envelope: Envelope) {
        switch envelope.event {
        case .responseTodoViewModel(let change) where change.kind != .unchanged:
            write(change.todo.todo)
        case .responseImportTodos(let result) where envelope.correlation?.request.hasPrefix("ical-dir:") == true:
            // A file older than todod's todo loses: it is rewritten from todod's.
            for change in result.changes where change.kind == .unchanged {
                logger.notice("an iCalendar file is not newer than todod's todo; todod's is kept and written over it",
                              metadata: ["todo": "#\(change.todo.number)"])
                write(change.todo.todo)
            }
            // A newer file wins; when it was written from an older revision, todod's changes since are
            // replaced, and that is said, with where they are kept.
            for change in result.changes where change.kind != .unchanged && change.kind != .created {
                let sequence = state.withLock { $0.sequences.removeValue(forKey: change.todo.id) }
                guard let sequence, sequence < change.todo.todo.revision - 1 else { continue }
                logger.notice(
                    "an iCalendar file changed by another program was written from an older revision than todod's todo, and both changed it: the file is newer and wins; todod's changes are in the journal (todoctl history, todoctl undo)",
                    metadata: ["todo": "#\(change.todo.number)", "fileSequence": "\(sequence)", "revision": "\(change.todo.todo.revision - 1)"])
            }
            if Self.isStartImport(envelope) { startImportAnswered() }
        case .responseTodos(let result) where envelope.correlation == Self.correlation("list"):
            // Every UID first, so that a subtask listed before its parent names it.
            state.withLock { state in
                for todo in result.todos { state.uids[todo.number] = ICalendarFormat.uid(of: todo) }
            }
            result.todos.forEach(write)
        case .responseError(let error) where envelope.correlation?.request.hasPrefix("ical-dir:") == true:
            let request = envelope.correlation?.request ?? ""
            let file = request.dropFirst("ical-dir:".count + (Self.isStartImport(envelope) ? Self.startPrefix.count : 0))
            logger.warning("an iCalendar file could not be imported; left alone", metadata: ["file": "\(file)", "reason": "\(error.message)"])
            if Self.isStartImport(envelope) { startImportAnswered() }
        default:
            return
        }
    }

    /// Writes `todo`'s file (temporary file, then rename), or removes it when the todo is deleted.
    private func write(_ todo: Todo) {
        guard !state.withLock({ $0.gone }) else { return }
        let name = state.withLock { $0.names[todo.id] } ?? todo.id.uuidString.lowercased() + ".ics"
        let file = (path as NSString).appendingPathComponent(name)
        if todo.isDeleted {
            let exists = FileManager.default.fileExists(atPath: file)
            if exists { state.withLock { _ = $0.removing.insert(name) } }
            try? FileManager.default.removeItem(atPath: file)
            return
        }
        let parents = state.withLock { state in
            state.uids[todo.number] = ICalendarFormat.uid(of: todo)
            return state.uids
        }
        let data = Data(ICalendarFormat.encode([todo], parents: parents).utf8)
        guard FileManager.default.contents(atPath: file) != data else { return }
        state.withLock { $0.written[name] = data }
        let temporary = (path as NSString).appendingPathComponent(".\(name).\(getpid()).tmp")
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, file) == 0 else { throw DaemonError(String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            logger.error("cannot write an iCalendar file; check the directory given to --ical-dir (it must exist and be writable)",
                         metadata: ["file": "\(file)", "error": "\(error.localizedDescription)"])
        }
    }
}
