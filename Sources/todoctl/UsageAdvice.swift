import Foundation
import TodoViewModel

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
        return message + ": " + (tooLarge(value(in: message), for: argument, command: command) ?? advice(for: argument, command: command))
    }

    /// The value ArgumentParser quotes in "The value 'X' is invalid for '…'"; nil in its other messages.
    private static func value(in message: String) -> String? {
        guard let start = message.range(of: "The value '")?.upperBound,
              let end = message.range(of: "' is invalid for '", options: .backwards)?.lowerBound, start <= end
        else { return nil }
        return String(message[start..<end])
    }

    /// What to say of a number too large for a number argument to hold: ArgumentParser
    /// refuses it as it refuses `x`, and `list --limit 99999999999999999999` was told to
    /// "give a number of todos" (outside probe 10). nil for any other value or argument.
    private static func tooLarge(_ value: String?, for argument: String, command: String) -> String? {
        guard let value, !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return switch argument {
        case "--limit <N>":
            "\(value) is too large: the most --limit takes is \(Int.max), and a limit above the number of todos shows them all, as no --limit does"
        case "--limit <n>": "\(value) is too large: the most --limit takes is \(ChangeList.maximumChanges) changes: todoctl \(command) --limit \(ChangeList.maximumChanges)"
        case "<seq>": "\(value) is too large: no change's seq is above \(UInt64.max); `todoctl log` shows them: todoctl undo 12"
        case "<n>": "\(value) is too large: no conflict's number is above \(Int.max); `todoctl conflicts` lists them: todoctl conflicts take 1 (or leave 1)"
        default: nil
        }
    }

    /// What to give for `argument` (`--limit <N>`, `<ref>`), with an example to paste.
    private static func advice(for argument: String, command: String) -> String {
        switch argument {
        case "--limit <N>": "give a number of todos: todoctl \(command) --limit 20"
        case "--limit <n>": "give a number of changes: todoctl \(command) --limit 20"
        case "<ref>": "give a todo's number (or id): todoctl \(command) 3\(command == "annotate" ? " Called back" : command == "denotate" ? " Called" : "")"
        case "<seq>": "give a change's seq, as `todoctl log` shows them: todoctl undo 12"
        // `conflicts take -4` said only this: -4 reads as an option (outside probe 7, P7-12).
        case "<n>": "give a conflict's number, from 1, as `todoctl conflicts` lists them: todoctl conflicts take 1 (or leave 1)"
        case "--to <to>": "say which format to write: todoctl export --to taskwarrior (or ical, todotxt, json), -o FILE for a file"
        case "--from <from>": "say which format it reads: todoctl import --from taskwarrior FILE (or ical, todotxt, json; - or no FILE for stdin)"
        case "<file>": "give the file, or - for stdin: todoctl \(command) FILE"
        default:
            // Every other option or argument: its help line, which ArgumentParser prints
            // under this one, says what it takes.
            "give \(argument.hasPrefix("-") ? "it a value" : "it") as the Help line below says (todoctl \(command) --help says more)"
        }
    }

    /// The commands whose words after the todo are text (a title, a note), where a word
    /// such as `-5` is meant as text, not as an option.
    private static let textCommands: [String: Int] = ["add": 0, "edit": 1, "annotate": 1]

    /// What to say when ArgumentParser's `message` is "Unknown option '-5'" for a word among
    /// a title's (`todoctl add Temperature -5 degrees`): that it was read as an option and
    /// how to write it as a word, the line to type. Quoting does not help (the shell takes
    /// the quotes away), `--` does. nil for other messages and commands.
    static func dashedWord(_ message: String, arguments: [String]) -> String? {
        let prefix = "Unknown option '"
        // The word up to its closing quote: ArgumentParser may say more after it, a guess
        // (`-5d`: "Did you mean '--due'?") or a second reading (`-1pc`: "or: Missing value
        // for '-p <priority>'"), and those words got its message instead of this advice (outside probe).
        guard message.hasPrefix(prefix), let quoted = message.dropFirst(prefix.count).split(separator: "'", omittingEmptySubsequences: false).first,
              message.dropFirst(prefix.count).contains("'"), let command = arguments.first,
              let named = LeadingOptions.command(named: command)?.configuration.commandName, let before = textCommands[named]
        else { return nil }
        let word = String(quoted)
        let rest = Array(arguments.dropFirst())
        guard !word.hasPrefix("--"), rest.contains(word), rest.count > before, !rest.contains("--") else { return nil }
        // The command's options, with their values, go before the --: after it they would be words.
        let known = MistypedOption.options(of: LeadingOptions.command(named: command) ?? AddCommand.self)
        var options: [String] = []
        var words: [String] = []
        var index = before
        while index < rest.count {
            let option = String(rest[index].prefix { $0 != "=" })
            if rest[index] != word, known.contains(option) {
                let takesValue = !rest[index].contains("=") && ModifierWords.valueOptions.contains(option)
                options += rest[index...].prefix(takesValue ? 2 : 1)
                index += takesValue ? 2 : 1
            } else {
                words.append(rest[index])
                index += 1
            }
        }
        let line = (["todoctl", named] + rest.prefix(before) + options + ["--"] + words).map(shellQuoted).joined(separator: " ")
        let what = named == "annotate" ? "the note" : "the title"
        return """
            \(word) was read as an option, and \(named) has no option \(word); to make it a word of \(what), \
            write -- before \(what)'s words, options before it (quotes do not help): \(line)
            """
    }

    /// `word` as a shell reads it back: as it is when it holds nothing the shell treats
    /// specially, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.,:/+=@%#".unicodeScalars.contains($0) }
        return plain && !word.hasPrefix("#") ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
