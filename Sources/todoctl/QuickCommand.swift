import TodoEvents
import TodoModel
import TodoPaths

/// The forms typed most often, read without ArgumentParser.
///
/// Why: a command should cost a process start and one round trip, and ArgumentParser's
/// start-up (building the command tree, its completion-script check, the reflection and
/// conformance lookups of its property wrappers) measured about 5 ms of CPU of `todoctl
/// show 5`'s 8.5 (docs/PERFORMANCE.md, "Start-up"). So only forms with one meaning are
/// read here, each whole: a command's name and plain words, no option. Anything else,
/// `--help` and every error included, goes to ArgumentParser, which stays the grammar; the
/// commands' own `run()` and these call the same code, and a test compares each form's
/// output with the same command read by ArgumentParser.
enum QuickCommand: Equatable {
    case version
    case list
    case next
    case show(TodoRef)
    case done([TodoRef])
    case add(title: String)

    /// The form `arguments` (without the program's name) is in, or nil for ArgumentParser.
    init?(_ arguments: [String]) {
        guard let name = arguments.first else { self = .list; return }
        let words = arguments.dropFirst()
        switch name {
        case "--version" where words.isEmpty: self = .version
        case "list" where words.isEmpty, "ls" where words.isEmpty: self = .list
        case "next" where words.isEmpty, "today" where words.isEmpty: self = .next
        case "show" where words.count == 1:
            guard let ref = TodoRef(words[words.startIndex]) else { return nil }
            self = .show(ref)
        case "done" where !words.isEmpty:
            let refs = words.compactMap { Self.isPlain($0) ? TodoRef($0) : nil }
            guard refs.count == words.count else { return nil }
            self = .done(refs)
        // A title of spaces goes to ArgumentParser's add, which refuses it as usage (exit 64).
        case "add" where !words.isEmpty && words.allSatisfy(Self.isPlain) && !words.allSatisfy({ $0.allSatisfy(\.isWhitespace) }):
            // Joined as an Array: the slice's `joined` was the unspecialized generic, whose
            // associated-type lookups scanned the binary's conformance records (6% of `add`'s CPU).
            self = .add(title: Array(words).joined(separator: " "))
        default: return nil
        }
    }

    /// A word no grammar reads as anything but itself: not an option (`-t`, `--`), not a
    /// Taskwarrior-style modifier (`+tag`, `due:fri`).
    private static func isPlain(_ word: String) -> Bool {
        guard let first = word.first else { return false }
        return first != "-" && first != "+" && !word.contains(":")
    }

    /// Synchronous, as `Session` is: a quick form starts no thread.
    func run() throws {
        let socketPath = DefaultPaths.socketPath()
        switch self {
        case .version: print(TodoVersion.current)
        case .list: try ListCommand.list(TodoFilter(), status: .open, socketPath: socketPath, json: false)
        case .next: try NextCommand.next(TodoFilter(), socketPath: socketPath, json: false)
        case .show(let ref): try ShowCommand.show(ref, socketPath: socketPath, json: false)
        case .done(let refs):
            try MutationArguments.apply(socketPath: socketPath, json: false, Event.requestCompleteTodo) { _ in (refs, false) }
        case .add(let title): try AddCommand.add(NewTodo(title: title), socketPath: socketPath, json: false)
        }
    }
}
