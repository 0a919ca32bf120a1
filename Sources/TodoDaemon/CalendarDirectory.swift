import Foundation
import Logging
import NIOCore
import Synchronization
import TodoEvents
import TodoInterop
import TodoModel
import TodoViewModel

/// `todod --ical-dir DIR`: DIR kept as a vdir, one iCalendar file per todo, for
/// vdirsyncer (and so CalDAV servers and phones), Todoman or Khal.
///
/// Every committed change is written to its file at once, atomically (a temporary file,
/// then a rename: `CalendarFiles`); a deleted todo's file is removed. Files that others add,
/// change or remove are imported through the ViewModelServer like any client's request.
/// Conflicts: the newer side wins, the file's LAST-MODIFIED against todod's last change; when
/// todod's todo is newer, the file is rewritten from it and the conflict logged. A file that
/// does not parse is logged and left alone, and so is a file changed since todod last read
/// it: todod never writes over what it has not read. A file that holds more than todod's
/// todo (an event, other todos, an override of one occurrence) keeps the rest when todod
/// rewrites its todo or deletes it.
final class CalendarDirectory: Sendable {
    private struct State {
        /// What each file held when todod last wrote or read it: a change to it that still holds
        /// this is todod's own (or read already), and todod writes over no other contents.
        var known: [String: Data] = [:]
        /// Files todod removed itself.
        var removing: Set<String> = []
        /// File names by todo id, for files not named `ID.ics` (a UID that is not a UUID, a
        /// file of several todos).
        var names: [UUID: String] = [:]
        /// The todos last read from each file, for those that are removed.
        var ids: [String: Set<UUID>] = [:]
        /// The SEQUENCE of files read and sent to be imported, by todo: a file written from an
        /// older revision than todod's todo had means both sides changed it.
        var sequences: [UUID: Int] = [:]
        /// The todos of files sent to be imported and not answered yet: a file left as todod's
        /// todo is because it holds the same todo is neither told of nor rewritten.
        var importing: [UUID: ImportedTodo] = [:]
        /// Every todo's UID by number: a subtask's file names its parent's (RELATED-TO).
        var uids: [Int: String] = [:]
        /// The directory itself went: nothing is written or deleted any more.
        var gone = false
        /// The files found at start, each a batch to import (parents first) and its file's name,
        /// sent once todod's todos are listed.
        var startImports: [(todos: [ImportedTodo], file: String)] = []
    }

    private let path: String
    private let bus: EventBus
    private let logger: Logger
    /// Where the bus is published on; the watcher's thread hands its work there.
    private let core: any EventLoop
    private let reader: CalendarFileReader
    private let unwritten: UnwrittenCalendarFiles
    /// Files removed by another program, whose todos are deleted once removals have been quiet.
    private let removals: QuietRemovals
    /// A lock shared by the core (writing files for the bus's changes) and `todod.ical-dir` (reading
    /// and parsing the files another program changed, a blocking read kept off the core); each hold is short.
    private let state = Mutex(State())

    /// Checks DIR, writes the todos that have no file there, imports the files in it, then watches it.
    init(path: String, bus: EventBus, logger: Logger, core: any EventLoop) throws {
        self.path = path
        self.bus = bus
        self.logger = logger
        self.core = core
        reader = CalendarFileReader(path: path, logger: logger)
        unwritten = UnwrittenCalendarFiles(path: path, logger: logger, core: core)
        removals = QuietRemovals()
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DaemonError("cannot create the iCalendar directory \(path): \(error.localizedDescription); check the path given to --ical-dir")
        }
        if let problem = CalendarFiles.othersCanWrite(path) {
            // Shared on purpose (a household's calendar), it works: say what it means.
            logger.warning(
                "the iCalendar directory is \(problem): they can add, change and remove todos through it. todod writes its files there only through new temporary files and follows no link in it; if no one else is meant to, make it yours alone (chown, chmod 700)",
                metadata: ["directory": "\(path)"])
        }
        bus.subscribe(to: [.view(.responseTodoViewModel), .view(.responseImportTodos), .model(.responseTodos), .view(.responseError)]) { [weak self] envelope in
            self?.handle(envelope)
        }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(Self.isCalendarFile).sorted()
        let read = files.compactMap { name in parse(name).map { (name, $0) } }
        // One UID, one file: of several holding a UID, the one named after it, or else the first by name.
        var owners: [UUID: String] = [:]
        for (name, file) in read {
            for todo in file.todos where owners[todo.id] == nil || Self.isNamed(name, after: todo) { owners[todo.id] = name }
        }
        let accepted = read.filter { name, file in
            guard let taken = file.todos.first(where: { owners[$0.id] != name }) else { return true }
            logDuplicate(name, of: owners[taken.id] ?? "")
            return false
        }
        for (name, file) in accepted { keep(file, as: name) }
        let names = Dictionary(accepted.flatMap { name, file in file.todos.map { ($0.id, name) } }) { first, _ in first }
        let imports = ImportOrder.parentsFirst(accepted.map(\.1.todos)).map { ($0, names[$0[0].id] ?? "") }
        state.withLock { $0.startImports = imports }
        // Every todo first, for every UID before a file is written; its answer sends the imports.
        core.execute { [self] in listEveryTodo() }
        // Not kept: its thread holds the watch (and this directory, weakly) for the daemon's life.
        _ = try? DirectoryWatcher(path: path) { [weak self] change in self?.changed(change) }
    }

    /// Only the `.ics` files: a temporary file is a dot file and ends otherwise.
    private static func isCalendarFile(_ name: String) -> Bool { name.hasSuffix(".ics") && !name.hasPrefix(".") }

    private static func correlation(_ request: String) -> Correlation { Correlation(client: 0, request: "ical-dir:" + request) }

    /// The file an answer to the directory's own request was about.
    private static func file(of envelope: Envelope) -> String {
        String((envelope.correlation?.request ?? "").dropFirst("ical-dir:".count))
    }

    /// Every todo: for their UIDs, to write those that have no file, and to import the files
    /// found at start that are not as todod would write them.
    private func listEveryTodo() {
        bus.publish(.requestReadTodos(.list(TodoFilter(status: .all))), correlation: Self.correlation("list"))
    }

    private func fullPath(_ name: String) -> String { reader.fullPath(name) }

    /// The name of `todo`'s file.
    private func fileName(of todo: Todo) -> String {
        state.withLock { $0.names[todo.id] } ?? Self.ownName(todo.id)
    }

    private static func ownName(_ id: UUID) -> String { id.uuidString.lowercased() + ".ics" }

    /// Whether `name` is the name a vdir gives `todo`'s file: its UID, or todod's id.
    private static func isNamed(_ name: String, after todo: ImportedTodo) -> Bool {
        name == ownName(todo.id) || name == ICalendarFormat.uid(of: todo.todo(number: 0)) + ".ics"
    }

    // MARK: From the directory

    /// The todos of the file `name` (see CalendarFileReader), unless it is as todod last read or wrote it.
    private func parse(_ name: String, justMade: Bool = false) -> CalendarFileReader.ParsedFile? {
        reader.parse(name, justMade: justMade) { data in state.withLock { $0.known[name] == data } }
    }

    /// The todos of `file`, read as the todos of the file `name` from now on.
    private func keep(_ file: CalendarFileReader.ParsedFile, as name: String) {
        let sequences = ICalendarFormat.sequences(in: file.text)
        state.withLock { state in
            state.known[name] = file.data
            state.ids[name] = Set(file.todos.map(\.id))
            state.sequences.merge(sequences) { $1 }
            for todo in file.todos where name != Self.ownName(todo.id) { state.names[todo.id] = name }
        }
    }

    private func logDuplicate(_ name: String, of own: String) {
        logger.warning("an iCalendar file holds the UID of the todo in \(own); a UID may be in one file only: this one is left alone (remove one of them)",
                       metadata: ["file": "\(name)"])
    }

    /// Reads the file `name` and sends its todos to be imported.
    private func importFile(_ name: String, justMade: Bool) {
        guard let file = parse(name, justMade: justMade) else { return }
        // A second file with a todo's UID would take the todo from its own.
        for todo in file.todos {
            let own = state.withLock { $0.names[todo.id] } ?? Self.ownName(todo.id)
            if own != name, !CalendarFiles.isMissing(fullPath(own)) { return logDuplicate(name, of: own) }
        }
        keep(file, as: name)
        let todos = file.todos
        logger.info("imported an iCalendar file changed by another program", metadata: ["file": "\(name)"])
        state.withLock { state in for todo in todos { state.importing[todo.id] = todo } }
        core.execute { [self] in bus.publish(.requestImportTodos(todos), correlation: Self.correlation(name)) }
    }

    /// On the watcher's thread: a file changed in the directory.
    private func changed(_ change: DirectoryWatcher.Change) {
        switch change {
        case .created(let name) where Self.isCalendarFile(name):
            importFile(name, justMade: true)
        case .written(let name) where Self.isCalendarFile(name):
            importFile(name, justMade: false)
        case .removed(let name) where Self.isCalendarFile(name):
            let byAnother = state.withLock { state in
                state.known[name] = nil
                return state.removing.remove(name) == nil
            }
            guard byAnother else { return }
            removals.removed(name) { [weak self] names in self?.deleteRemoved(names) }
        case .gone:
            state.withLock { $0.gone = true }
            logger.error(
                "the iCalendar directory was removed, moved away or unmounted: todod stops keeping it, and deletes no todo for the files that went with it; create the directory again and restart todod to write every todo into it",
                metadata: ["directory": "\(path)"])
        default:
            return
        }
    }

    /// Deletes the todos of the files removed (once removals have been quiet: QuietRemovals),
    /// unless the directory itself went with them or was left without a file, or the file is
    /// there again.
    private func deleteRemoved(_ names: [String]) {
        let gone = state.withLock { $0.gone }
        var isDirectory: ObjCBool = false
        guard !gone, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            logger.notice("iCalendar files went away with their directory; no todo was deleted", metadata: ["files": "\(names.count)"])
            return
        }
        // Removals that leave no file at all are a sync tool starting over or an `rm -rf` not yet
        // at its rmdir (descheduled past the quiet wait under load, it deleted every todo once),
        // not a user deleting every todo on the phone: vdirsyncer itself refuses to sync a
        // storage emptied whole without --force-delete.
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(Self.isCalendarFile)
        guard !left.isEmpty else {
            logger.notice(
                "every iCalendar file in the directory was removed (a sync tool starting over, or rm -rf): no todo was deleted; delete todos with todoctl rm, and restart todod to write their files again",
                metadata: ["directory": "\(path)", "files": "\(names.count)"])
            return
        }
        for name in names {
            // Removed and written again (`rm f; write f`, an editor's backup renamed away): an
            // edit, which the new file's own event imports.
            guard CalendarFiles.isMissing(fullPath(name)) else {
                logger.info("an iCalendar file removed is there again: its todo is kept, and the new file read as an edit", metadata: ["file": "\(name)"])
                continue
            }
            let ids = state.withLock { $0.ids.removeValue(forKey: name) } ?? UUID(uuidString: String(name.dropLast(4))).map { Set([$0]) } ?? []
            guard !ids.isEmpty else { continue }
            logger.info("deleting a todo whose iCalendar file another program removed", metadata: ["file": "\(name)", "todos": "\(ids.count)"])
            core.execute { [self] in
                for id in ids { bus.publish(.requestDeleteTodo(.id(id)), correlation: Self.correlation(name)) }
            }
        }
    }

    // MARK: To the directory

    /// On the core: committed changes are written out; answers to the directory's own requests complete it.
    private func handle(_ envelope: Envelope) {
        switch envelope.event {
        case .view(.responseTodoViewModel(let change)) where change.kind != .unchanged:
            for each in change.eachChange { write(each.todo.todo) }
        case .view(.responseImportTodos(let result)) where envelope.correlation?.request.hasPrefix("ical-dir:") == true:
            let imported = state.withLock { state in result.changes.map { state.importing.removeValue(forKey: $0.todo.id) } }
            // A file older than todod's todo loses: it is rewritten from todod's. One that holds
            // the same todo is left as it is, and not told of (every file, at every start).
            for (change, file) in zip(result.changes, imported) where change.kind == .unchanged {
                if let file, Self.holdsTheSame(file, as: change.todo.todo) { continue }
                guard write(change.todo.todo) else { continue }
                logger.notice("an iCalendar file is not newer than todod's todo; todod's is kept and written over it",
                              metadata: ["todo": "#\(change.todo.number)", "file": "\(Self.file(of: envelope))"])
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
        case .model(.responseTodos(let result)) where envelope.correlation == Self.correlation("list"):
            // Every UID first, so that a subtask listed before its parent names it.
            state.withLock { state in
                for todo in result.todos { state.uids[todo.number] = ICalendarFormat.uid(of: todo) }
            }
            // The files found at start are answered by their imports: this writes the todos that have none.
            for todo in result.todos where CalendarFiles.isMissing(fullPath(fileName(of: todo))) { write(todo) }
            importStartFiles(listed: result.todos)
        case .view(.responseError(let error)) where envelope.correlation?.request.hasPrefix("ical-dir:") == true:
            let file = Self.file(of: envelope)
            // Read again when it is written again, even with the same bytes (what it needs may have come since).
            state.withLock { state in
                state.known[file] = nil
                for id in state.ids[file] ?? [] { state.importing[id] = nil }
            }
            logger.warning("an iCalendar file could not be imported; left alone", metadata: ["file": "\(file)", "reason": "\(error.message)"])
        default:
            return
        }
    }

    /// On the core: the files found at start sent to be imported, one import per file (a file that
    /// does not import keeps no other out), but for those that hold todod's todos to the byte, as
    /// todod wrote them: every file at every start, which would be read for nothing.
    private func importStartFiles(listed: [Todo]) {
        let todos = Dictionary(listed.map { ($0.id, $0) }) { first, _ in first }
        let imports = state.withLock { state in
            defer { state.startImports = [] }
            return state.startImports
        }
        for (batch, file) in imports {
            let known = state.withLock { $0.known[file] }
            let asWritten = batch.allSatisfy { imported in
                guard let todo = todos[imported.id], let known else { return false }
                return rendering(of: todo, over: known) == known
            }
            guard !asWritten else {
                state.withLock { state in for todo in batch { state.importing[todo.id] = nil } }
                continue
            }
            state.withLock { state in for todo in batch { state.importing[todo.id] = todo } }
            bus.publish(.requestImportTodos(batch), correlation: Self.correlation(file))
        }
    }

    /// Whether a file's todo, though not newer, says what todod's does: a restart reads
    /// every file todod wrote, and those are todod's todos to the letter.
    private static func holdsTheSame(_ file: ImportedTodo, as todo: Todo) -> Bool {
        var newest = file
        newest.updatedAt = .distantFuture
        return newest.replacing(todo) == nil
    }

    /// Writes `todo`'s file (temporary file, then rename), or takes it out when the todo is
    /// deleted, keeping what else the file holds. A file changed since todod last read or
    /// wrote it is left alone: its change is being read, or it does not parse.
    /// - Returns: whether the file changed.
    @discardableResult
    private func write(_ todo: Todo) -> Bool {
        guard !state.withLock({ $0.gone }) else { return false }
        let name = fileName(of: todo)
        let file = fullPath(name)
        let current: Data?
        switch CalendarFiles.read(file, limit: CalendarFileReader.maximumFileBytes) {
        case .missing: current = nil
        case .regular(let data, _) where state.withLock({ $0.known[name] == data }): current = data
        default:
            unwritten.forget(todo)
            logger.notice("an iCalendar file is not as todod last read or wrote it (changed since, not a regular file, or it does not parse): todod's todo is not written over it",
                          metadata: ["file": "\(file)", "todo": "#\(todo.number)"])
            return false
        }
        if todo.isDeleted, current == nil { return false }
        guard let data = rendering(of: todo, over: current) else {
            state.withLock { state in
                state.removing.insert(name)
                state.known[name] = nil
            }
            guard CalendarFiles.remove(file) else {
                state.withLock { _ = $0.removing.remove(name) }
                return false
            }
            return true
        }
        guard data != current else { return false }
        state.withLock { $0.known[name] = data }
        do throws(DaemonError) {
            try CalendarFiles.replace(file, with: data)
            unwritten.written(todo)
            return true
        } catch {
            state.withLock { $0.known[name] = current }
            unwritten.failed(todo, file: file, error: error) { [weak self] todo in self?.write(todo) }
            return false
        }
    }

    /// What `todo`'s file is to hold when it holds `current`: todod's file of the todo, or
    /// `current` with the todo's VTODO put in or taken out, the rest of it to the byte; nil when
    /// the file is to go (the todo deleted, nothing else in it but time zones).
    private func rendering(of todo: Todo, over current: Data?) -> Data? {
        let uid = ICalendarFormat.uid(of: todo)
        let document = current.map(ICalendarDocument.init)
        let others = document?.others(besides: uid) ?? []
        if todo.isDeleted {
            return others.allSatisfy { $0 == "VTIMEZONE" } ? nil : document?.removingTodo(uid: uid).data
        }
        let parents = state.withLock { state in
            state.uids[todo.number] = uid
            return state.uids
        }
        guard let document, !others.isEmpty else { return Data(ICalendarFormat.encode([todo], parents: parents).utf8) }
        return document.replacingTodo(uid: uid, with: ICalendarFormat.component(todo, parents: parents)).data
    }
}
