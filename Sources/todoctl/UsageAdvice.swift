import Foundation

/// What to do about ArgumentParser's own usage errors, which say only what went wrong:
/// `list --limit x` said "The value 'x' is invalid for '--limit <N>'", `show` alone
/// "Missing expected argument '<ref>'", `export` alone "Missing expected argument '--to
/// <to>'" (outside probe). The advice goes after ArgumentParser's words, on their line.
enum UsageAdvice {
    /// The kinds of ArgumentParser message that name an argument and stop there; one that
    /// carries its own words after the name (a transform's, a list of values) needs none.
    private static let kinds = ["Missing expected argument '", "Missing value for '", "is invalid for '"]

    /// ArgumentParser's `message` with what to do after it, for the command `command`
    /// (list when the line names none); nil when the message is of another kind or says
    /// more already.
    static func advised(_ message: String, command: String) -> String? {
        guard message.hasSuffix("'"), let kind = kinds.first(where: { message.contains($0) }),
              let start = message.range(of: kind, options: .backwards)?.upperBound
        else { return nil }
        let argument = String(message[start..<message.index(before: message.endIndex)])
        guard !argument.contains("'") else { return nil }
        return message + ": " + advice(for: argument, command: command)
    }

    /// What to give for `argument` (`--limit <N>`, `<ref>`), with an example to paste.
    private static func advice(for argument: String, command: String) -> String {
        switch argument {
        case "--limit <N>": "give a number of todos: todoctl \(command) --limit 20"
        case "--limit <n>": "give a number of changes: todoctl \(command) --limit 20"
        case "<ref>": "give a todo's number (or id): todoctl \(command) 3\(command == "annotate" ? " Called back" : command == "denotate" ? " Called" : "")"
        case "<seq>": "give a change's seq, as `todoctl log` shows them: todoctl undo 12"
        case "--to <to>": "say which format to write: todoctl export --to taskwarrior (or ical, todotxt, json), -o FILE for a file"
        case "--from <from>": "say which format it reads: todoctl import --from taskwarrior FILE (or ical, todotxt, json; - or no FILE for stdin)"
        case "<file>": "give the file, or - for stdin: todoctl \(command) FILE"
        default:
            // Every other option or argument: its help line, which ArgumentParser prints
            // under this one, says what it takes.
            "give \(argument.hasPrefix("-") ? "it a value" : "it") as the Help line below says (todoctl \(command) --help says more)"
        }
    }
}
