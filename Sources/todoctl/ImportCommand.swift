import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoInterop
import TodoModel
import TodoTerminal
import TodoViewModel
import TodoWire

extension InteropFormat: ExpressibleByArgument {}

/// `todoctl import --from FORMAT [FILE|-] [--dry-run]`: todos from another program,
/// created or updated by their own ids, so that importing the same file again changes nothing.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in todos from Taskwarrior, iCalendar, todo.txt or todod's JSON.",
        discussion: """
            Each todo keeps the id it had (Taskwarrior's uuid, iCalendar's UID, todo.txt's \
            uid:), so a second import of the same file changes nothing, and a todo changed \
            there since is updated unless it was changed in todod later. Fields todod does \
            not know are kept with the todo and written back by `todoctl export` (a todo \
            whose only change is those counts as unchanged). \
            Every todo is checked before any is sent: a bad one is reported with its line or \
            position and nothing is imported. Todos are sent in batches of \(ImportCommand.batchSize), \
            each one transaction. Times of day on due, wait and scheduled come in as your \
            local time (TZ): Taskwarrior's UTC instants (a task due at local midnight, as \
            `task add due:fri` makes it, is due that whole day), an iCalendar DUE with a \
            time, todo.txt's due:2026-12-24T15:00; a local time the clocks skip as summer \
            time begins by the offset before the gap, one shown twice as the first (RFC 5545). Examples:
              task export | todoctl import --from taskwarrior
              todoctl import --from todotxt ~/todo.txt --dry-run
            """)

    @Option(help: "The format of the input: \(InteropFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var from: InteropFormat

    @Argument(help: ArgumentHelp("The file to read; - or none for standard input.", valueName: "file"))
    var file: String?

    @Flag(help: "Show what would be created and updated; change nothing.")
    var dryRun = false

    @OptionGroup var connection: ConnectionOptions

    /// Todos per request: the protocol's longest array.
    static let batchSize = WireProtocol.maximumArrayLength

    /// The most input one import reads: tens of thousands of todos, and a bound on what
    /// `yes BEGIN:VCALENDAR | todoctl import --from ical -` costs (it reached 4.6 GB when
    /// the whole of standard input was read before looking at it).
    static let maximumInputBytes = 64 << 20

    func run() async throws {
        let name = file == nil || file == "-" ? "standard input" : file!
        // What a format does not date (a todo.txt line, a VTODO without LAST-MODIFIED) was last
        // changed when the file was: an old file does not undo later edits made in todod.
        let modified = file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date } ?? Date()
        var todos = ImportOrder.parentsFirst(try Self.checked(try read(), format: from, name: name, modified: modified))
        // An occurrence todod made of a Taskwarrior recurrence went out as the instance
        // Taskwarrior had made ahead: that task, coming back, is that todo, not a new one.
        let matching = from == .taskwarrior && TaskwarriorFormat.needsMatching(todos)
        let current = dryRun || matching
            ? try Session.run(connection) { client in try ExportCommand.todos(client, includingDeleted: true) } : []
        if matching { todos = TaskwarriorFormat.matched(todos, to: current) }
        if dryRun { return Terminal.print(Self.plan(todos, current: current)) }
        let result = try Session.run(connection) { client in
            var changes: [TodoChange] = []
            for batch in Self.batches(todos) {
                do {
                    let answer = try client.ask(.requestImportTodos(batch)) {
                        if case .responseImportTodos(let result) = $0 { result } else { nil }
                    }
                    changes += answer.changes
                } catch {
                    // Each batch is its own transaction: the ones before this one are in.
                    if !changes.isEmpty {
                        Terminal.error("""
                            \(changes.count) of the \(todos.count) todos were imported; the next batch failed (below: "nothing" is that \
                            batch), and it and the rest were not: run the same import again, which leaves those as they are and \
                            imports the rest
                            """)
                    }
                    throw error
                }
            }
            return TodoImportResult(changes: changes)
        }
        // Completed, deleted, … by the source count as updates: the summary's words are the dry run's.
        let created = result.count(of: .created), unchanged = result.count(of: .unchanged)
        Terminal.print("imported \(todos.count) todo\(todos.count == 1 ? "" : "s") from \(name): \(created) created, "
            + "\(result.changes.count - created - unchanged) updated, \(unchanged) unchanged")
        // As every write says it (`Terminal.answer`): an import made while the store was away said nothing (outside probe O5).
        if let reason = result.changes.lazy.compactMap(\.unshared).first { Terminal.error(Terminal.unsharedNote(reason)) }
    }

    private func read() throws -> Data {
        guard let file, file != "-" else { return try Self.bounded(FileHandle.standardInput, name: "standard input") }
        let kind = Self.kind(of: file)
        guard kind == S_IFREG || kind == S_IFIFO else {
            Terminal.error("cannot read \(file): it is \(Self.describe(kind)), not a file of todos; give a regular file, or - to read standard input")
            throw ExitStatus.dataError
        }
        // A pipe (`<(command)`, a FIFO) is read to its end, as standard input is, within the same bound.
        if kind == S_IFIFO {
            guard let pipe = FileHandle(forReadingAtPath: file) else {
                Terminal.error("cannot read \(file): it cannot be opened for reading")
                throw ExitStatus.dataError
            }
            defer { try? pipe.close() }
            return try Self.bounded(pipe, name: file)
        }
        let data: Data
        do {
            // Mapped: a file too big is refused below without having been read.
            data = try Data(contentsOf: URL(fileURLWithPath: file), options: .mappedIfSafe)
        } catch {
            Terminal.error("cannot read \(file): \(error.localizedDescription)")
            throw ExitStatus.dataError
        }
        guard data.count <= Self.maximumInputBytes else { throw Self.tooBig(file) }
        return data
    }

    /// All of `handle` up to `maximumInputBytes`, read a MiB at a time: more is refused as
    /// soon as it arrives, so an endless input costs 64 MiB, not all memory.
    static func bounded(_ handle: FileHandle, name: String) throws -> Data {
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                Terminal.error("cannot read \(name): \(error.localizedDescription)")
                throw ExitStatus.dataError
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            guard data.count <= maximumInputBytes else { throw tooBig(name) }
        }
    }

    private static func tooBig(_ name: String) -> ExitCode {
        Terminal.error("""
            \(name) is more than \(maximumInputBytes >> 20) MiB, the most one import reads: nothing was imported; \
            split it and import the parts one after another
            """)
        return ExitStatus.dataError
    }

    /// What lies at `path` (`S_IFREG`, `S_IFIFO`, …), its links followed; a missing file
    /// is left for the reading to report.
    private static func kind(of path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return S_IFREG }
        return info.st_mode & S_IFMT
    }

    /// `a directory`, `a character device (such as /dev/zero)`, … in words.
    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device (such as /dev/zero or a terminal)"
        case S_IFBLK: "a block device (a disk)"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// The input's todos, each validated as the daemon will; every bad one is reported
    /// (by its line or position) and then nothing is imported.
    static func checked(_ data: Data, format: InteropFormat, name: String, modified: Date) throws -> [ImportedTodo] {
        let todos: [ImportedTodo]
        do throws(InteropError) {
            todos = try format.decode(data, now: modified)
        } catch {
            Terminal.error("\(name): \(error): nothing was imported; fix it and run the import again")
            throw ExitStatus.dataError
        }
        var problems: [String] = []
        var firstWithID: [UUID: Int] = [:]
        for (index, todo) in todos.enumerated() {
            let label = "\(name): todo \(index + 1) (\(TerminalText.escaped(String(todo.title.prefix(40)))))"
            do throws(TodoError) {
                _ = try TodoValidation.validated(todo)
            } catch {
                problems.append("\(label): \(error.message)")
            }
            // A second record with one id would silently replace the first.
            if let first = firstWithID[todo.id] {
                problems.append("\(label): has the same id as todo \(first + 1) (\(todo.id.uuidString.lowercased())); each todo may appear once: remove one of them")
            } else {
                firstWithID[todo.id] = index
            }
        }
        // Across the whole file: the daemon sees one batch at a time.
        if let index = TodoValidation.dependencyCycle(in: todos) { problems.append("\(name): \(TodoValidation.cycleRefusal(at: index, in: todos))") }
        guard problems.isEmpty else {
            problems.forEach(Terminal.error)
            Terminal.error("\(problems.count) of \(todos.count) todos are not valid: nothing was imported; fix them and run the import again")
            throw ExitStatus.dataError
        }
        return todos
    }

    /// Batches of at most `batchSize` todos and about 512 KiB, so that a request stays
    /// well under the protocol's 1 MiB frame.
    static func batches(_ todos: [ImportedTodo]) -> [[ImportedTodo]] {
        var batches: [[ImportedTodo]] = [], current: [ImportedTodo] = [], bytes = 0
        for todo in todos {
            let size = todo.title.utf8.count + todo.notes.utf8.count + todo.foreign.values.reduce(0) { $0 + $1.utf8.count } + 512
            if !current.isEmpty, current.count == batchSize || bytes + size > 512 * 1024 {
                batches.append(current)
                (current, bytes) = ([], 0)
            }
            current.append(todo)
            bytes += size
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// What an import would do, by the Model's own rule (`ImportedTodo.replacing`).
    static func plan(_ todos: [ImportedTodo], current: [Todo]) -> String {
        let byID = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = [], created = 0, updated = 0
        for todo in todos {
            if let existing = byID[todo.id] {
                // As the import counts it: only the other program's fields set is unchanged.
                guard let next = todo.replacing(existing), TodoField.allCases.filter({ !$0.isEqual(in: existing, and: next) }) != [.foreign] else { continue }
                updated += 1
                lines.append("would update #\(existing.number) \(todo.title)")
            } else {
                created += 1
                lines.append("would create \(todo.title)")
            }
        }
        lines.append("dry run: \(created) to create, \(updated) to update, \(todos.count - created - updated) unchanged; nothing was changed")
        return lines.joined(separator: "\n")
    }
}
