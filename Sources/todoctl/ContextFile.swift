import ArgumentParser
import Foundation
import TodoPaths

/// The user's contexts (named filters) and which one is applied, kept in one small file
/// on the client's side (`DefaultPaths.contextsPath`), as Taskwarrior keeps its contexts in
/// the user's rc: a context is how this user looks at the list, not a fact about the todos.
///
/// One line each, fields tab-separated (a filter word may hold a space, `--search 'a b'`):
/// `context NAME WORD…` defines one, `applied NAME` applies it; `#` starts a comment.
struct ContextFile {
    /// A named filter: the words as typed after `todoctl context define NAME`.
    struct Context: Equatable {
        var name: String
        var words: [String]
        /// The line it was read from (0 when not read from the file), for an error about it.
        var line = 0

        /// The words as one line, for a header (`project:work +office`).
        var typed: String { words.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") }
    }

    let path: String
    var contexts: [Context] = []
    var applied: String?

    /// The names no context may take: `context none` leaves one, and the subcommands'.
    static let reservedNames: Set<String> = ["none", "define", "delete", "apply"]

    /// The applied context, if any.
    var appliedContext: Context? { applied.flatMap { name in contexts.first { $0.name == name } } }

    /// The file at the user's path; empty when there is none yet.
    static func read(path: String = DefaultPaths.contextsPath()) throws -> ContextFile {
        var file = ContextFile(path: path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return file }
            throw failure("cannot read the contexts file \(path): \(String(cString: strerror(errno))); fix its permissions or remove it")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch {
            throw failure("cannot read the contexts file \(path): \(error.localizedDescription); fix it or remove it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw failure("cannot read the contexts file \(path): it is not UTF-8 text; fix it or remove it")
        }
        var appliedLine = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func refuse(_ what: String) -> Error {
                failure("""
                    the contexts file \(path), line \(number): \(what); fix or remove the line \
                    (lines are `context<TAB>NAME<TAB>WORD…` or `applied<TAB>NAME`)
                    """)
            }
            let kind = fields[0]
            switch kind {
            case "": continue
            case _ where kind.hasPrefix("#"): continue
            case "context":
                guard fields.count >= 2, nameProblem(fields[1]) == nil else { throw refuse("no context name after `context`, or a name that is not one word") }
                guard !file.contexts.contains(where: { $0.name == fields[1] }) else { throw refuse("the context \(fields[1]) is defined twice") }
                file.contexts.append(Context(name: fields[1], words: Array(fields.dropFirst(2)), line: number))
            case "applied":
                guard fields.count == 2 else { throw refuse("`applied` takes one context's name") }
                file.applied = fields[1]
                appliedLine = number
            default:
                throw refuse("`\(kind)` is no kind of line here")
            }
        }
        if let applied = file.applied, file.appliedContext == nil {
            throw failure("""
                the contexts file \(path), line \(appliedLine): the applied context \(applied) is not defined there; \
                define it (todoctl context define \(applied) WORD…) or leave it (todoctl context none)
                """)
        }
        return file
    }

    /// Writes the file whole to a temporary file beside it and renames that over it (what
    /// `.atomic` does), so a reader in another terminal sees the old file or the new one,
    /// never half of one; the directory is made when missing.
    func write() throws {
        var lines = ["# todoctl's contexts (todoctl context --help); written by todoctl context: one per line, tab-separated."]
        lines += contexts.map { (["context", $0.name] + $0.words).joined(separator: "\t") }
        if let applied { lines.append("applied\t\(applied)") }
        do {
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw Self.failure("cannot write the contexts file \(path): \(error.localizedDescription); check that its directory may be written")
        }
    }

    /// What is wrong with `name` as a context's name; nil when it is fine.
    static func nameProblem(_ name: String) -> String? {
        if reservedNames.contains(name) { return "\(name) is a word of todoctl context's own: choose another name" }
        let allowed = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0) }
        if name.isEmpty || !allowed || name.hasPrefix("-") {
            return "\(name.isEmpty ? "an empty name" : "`\(name)`") is no context name: give one word of letters, digits, ., _ or - (not first)"
        }
        return nil
    }

    /// An error printed as it is, ending the command with EX_DATAERR: the file is data
    /// the user can fix, and the message says where.
    static func failure(_ message: String) -> Error {
        Terminal.error(message)
        return ExitStatus.dataError
    }
}
