import ArgumentParser
import Foundation
import TodoClock
import TodoModel
import TodoViewModel

/// `todoctl --socket PATH list` and `todoctl --json list`, the options before the command
/// as `git -C` and `systemctl --user` take theirs: moved after the command's name, where
/// the command's own `--socket` and `--json` read them, before ArgumentParser sees the
/// arguments.
enum LeadingOptions {
    /// The arguments (without the program's name) with a leading `--socket PATH`,
    /// `--socket=PATH`, `--json` or `-j` moved after the command that follows them;
    /// unchanged when no known command follows (then ArgumentParser says what is wrong).
    /// Before `help` or `--help` they are dropped: help is the same whatever the socket.
    static func movedAfterCommand(_ arguments: [String]) -> [String] {
        let (leading, rest) = leadingOptions(of: arguments[...])
        guard !leading.isEmpty, let command = rest.first else { return movedAfterSubcommand(arguments) }
        if ["help", "--help", "-h"].contains(command) { return Array(rest) }
        guard isCommand(command) else { return arguments }
        return movedAfterSubcommand([command] + leading + rest.dropFirst())
    }

    /// `todoctl conflicts --socket PATH take 1` (and `todoctl --socket PATH conflicts take 1`,
    /// whose options the step before moved here): the options moved on after a command's own
    /// subcommand, which reads them; before it, ArgumentParser took them for the parent's and
    /// refused the subcommand's name (outside probe 11, F2).
    /// A subcommand that never asks the daemon (context's, which keeps its contexts in a file
    /// of this user's) has no `--socket` to read: the socket is left out there, as before help.
    private static func movedAfterSubcommand(_ arguments: [String]) -> [String] {
        guard let name = arguments.first, let command = command(named: name), !command.configuration.subcommands.isEmpty else { return arguments }
        var (leading, rest) = leadingOptions(of: arguments.dropFirst())
        guard !leading.isEmpty else { return arguments }
        let named = rest.first.flatMap { word in
            command.configuration.subcommands.first { ([$0.configuration.commandName ?? ""] + $0.configuration.aliases).contains(word) }
        }
        guard let target = named ?? command.configuration.defaultSubcommand else { return arguments }
        if !MistypedOption.options(of: target).contains("--socket") {
            var kept: [String] = []
            var index = leading.startIndex
            while index < leading.endIndex {
                if leading[index] == "--socket" { index += 2; continue }
                if !leading[index].hasPrefix("--socket=") { kept.append(leading[index]) }
                index += 1
            }
            leading = kept
        }
        guard named != nil, let word = rest.first else { return [name] + leading + rest }
        return [name, word] + leading + rest.dropFirst()
    }

    /// The `--socket PATH`, `--socket=PATH`, `--json` and `-j` at the start of `arguments`, and what follows them.
    private static func leadingOptions(of arguments: ArraySlice<String>) -> (leading: [String], rest: ArraySlice<String>) {
        var leading: [String] = []
        var rest = arguments
        while let first = rest.first {
            if first == "--socket", rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first.hasPrefix("--socket=") || first == "--json" || first == "-j" {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        return (leading, rest)
    }

    static func isCommand(_ name: String) -> Bool {
        name == "help" || commandNames.contains(name)
    }

    /// The command called `name` (its name or an alias); nil for help and any other word.
    static func command(named name: String) -> ParsableCommand.Type? {
        TodoctlCommand.configuration.subcommands.first { ([$0.configuration.commandName ?? ""] + $0.configuration.aliases).contains(name) }
    }

    /// Every command's name and alias.
    private static var commandNames: [String] {
        TodoctlCommand.configuration.subcommands.flatMap { [$0.configuration.commandName ?? ""] + $0.configuration.aliases }
    }

    /// What to say when the first word is a mistyped command: without a command todoctl
    /// lists, so `todoctl ad Foo` reached list as two unexpected words. A word of letters
    /// only that is no command is taken for one (list's own words are +tag, -tag, name:value
    /// and options); nil when the first word is anything else.
    static func unknownCommand(in arguments: [String]) -> String? {
        // Past a leading `--socket PATH` that no known command followed (left in place).
        var arguments = arguments[...]
        while let option = arguments.first, option == "--socket" || option.hasPrefix("--socket=") {
            arguments = arguments.dropFirst(option == "--socket" ? 2 : 1)
        }
        if let hint = taskwarriorOrder(in: Array(arguments)) ?? taskwarriorReport(in: Array(arguments)) { return hint }
        // `todoctl help nosuch` printed the whole help and said all was well (exit 0).
        if arguments.first == "help", let topic = arguments.dropFirst().first, !isCommand(topic) { return unknown(topic) }
        guard let first = arguments.first, !first.isEmpty, first.allSatisfy({ $0.isLetter }), !isCommand(first) else { return nil }
        return unknown(first)
    }

    /// What to say to Taskwarrior's order, todos or a filter before the command (`task 3
    /// done`, `task +home list`, `task 1 modify pri:H`): list read the command as a plain
    /// word and said it is not a modifier. Not taken as meant: `todoctl +home done` would
    /// complete every todo tagged home, which a user of todoctl's order never asked for.
    /// nil when the words before the first command are not all todos and filter words.
    static func taskwarriorOrder(in arguments: [String]) -> String? {
        let names = { (word: String) in TodoRef(word) != nil || TodoRef.numbers(word) != nil }
        let leading = arguments.prefix { names($0) || TaskwarriorWordShape.isTag($0) || isModifier($0) }
        guard !leading.isEmpty, let word = arguments.dropFirst(leading.count).first else { return nil }
        let command = taskwarriorCommands[word] ?? word
        guard isCommand(command), command != "help" else { return nil }
        // edit takes todos bare, and a filter only as --filter (`edit +x` adds the tag x).
        let named = command == "edit" && !leading.allSatisfy(names) ? ["--filter", "'" + leading.joined(separator: " ") + "'"] : Array(leading)
        let line = (["todoctl", command] + named + arguments.dropFirst(leading.count + 1)).joined(separator: " ")
        return "todoctl reads the command first: try `\(line)`" + (command != word ? " (Taskwarrior's \(word) is todoctl's \(command))" : "")
    }

    /// Taskwarrior's commands that todoctl names otherwise, as its users type them by habit.
    static let taskwarriorCommands = ["modify": "edit", "info": "show"]

    /// What to say to Taskwarrior's reports with a period, `burndown.daily` and the like: the
    /// whole word was read as a filter, "burndown.daily is not a modifier" (outside probe).
    /// nil unless the first word is a todoctl command, a dot and letters.
    static func taskwarriorReport(in arguments: [String]) -> String? {
        guard let first = arguments.first, let dot = first.firstIndex(of: "."), isCommand(String(first[..<dot])) else { return nil }
        let command = String(first[..<dot])
        let period = first[first.index(after: dot)...].lowercased()
        guard !period.isEmpty, period.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let rest = arguments.dropFirst().joined(separator: " ")
        let options = command == "burndown" && period != "daily" ? " --weekly" : ""
        let line = (["todoctl", command + options] + (rest.isEmpty ? [] : [rest])).joined(separator: " ")
        let note = command == "burndown" ? (period == "daily" ? " (a bar per day; --weekly for weeks)" : period == "weekly" ? "" : " (a bar per week: the longest period it draws)") : ""
        return "unknown command '\(first)'; todoctl's commands take no .\(period): try `\(line)`\(note)"
    }

    /// `pri:H`, `due.before:fri`: a word shaped as a Taskwarrior modifier (letters, a colon).
    private static func isModifier(_ word: String) -> Bool {
        guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return false }
        return word[..<colon].allSatisfy { ($0.isASCII && $0.isLetter) || $0 == "." }
    }

    /// `unknown command 'ad'; did you mean add?`, or the commands when none is near.
    private static func unknown(_ word: String) -> String {
        let lower = word.lowercased()
        if let meant = taskwarriorCommands[lower] {
            return "unknown command '\(word)'; did you mean \(meant)? (Taskwarrior's \(lower) is todoctl's \(meant))"
        }
        // Taskwarrior takes the start of a command (mod, del, inf): the one command it starts,
        // todoctl's or Taskwarrior's name for one (they got the list of commands; outside probe).
        let started = Set((commandNames.map { ($0, $0) } + taskwarriorCommands.map { ($0.key, $0.value) }).filter { lower.count >= 2 && $0.0.hasPrefix(lower) }.map(\.1))
        if started.count == 1, let meant = started.first {
            let taskwarriorName = taskwarriorCommands.first { $0.value == meant && $0.key.hasPrefix(lower) }?.key
            return "unknown command '\(word)'; did you mean \(meant)?" + (taskwarriorName.map { " (Taskwarrior's \($0) is todoctl's \(meant))" } ?? "")
        }
        if let meant = Nearest.word(to: word.lowercased(), in: commandNames) {
            return "unknown command '\(word)'; did you mean \(meant)?"
        }
        let names = TodoctlCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        return "unknown command '\(word)'; the commands are \(names.joined(separator: ", ")) (todoctl --help says what each does)"
    }
}

extension LeadingOptions {
    /// What to say about an empty `--socket ""` or `--socket=` (a variable not set in a
    /// script): it was tried as a path and said "cannot reach" (69), or `--socket=` took
    /// the next word as the path. A mistake in the command line, so 64; nil without one.
    static func emptySocket(in arguments: [String]) -> String? {
        let empty = arguments.contains("--socket=") || zip(arguments, arguments.dropFirst()).contains { $0 == "--socket" && $1.isEmpty }
        guard empty else { return nil }
        return "--socket is empty: give the path of todod's socket, or leave --socket out for the default ($TODOD_SOCKET, else $XDG_RUNTIME_DIR/todod.sock)"
    }

    /// The commands whose words name todos.
    private static let naming: Set<String> = ["show", "edit", "history", "done", "reopen", "toggle", "rm", "delete", "restore"]

    /// What to say when a command that names todos is given `-1`: ArgumentParser read it as
    /// an option and said "Missing expected argument". A word of a dash and digits that no
    /// option before it takes as its value; nil when there is none.
    static func negativeTodo(in arguments: [String]) -> String? {
        // `undo -1` names a change (ArgumentParser said "Unknown option '-1'").
        guard let command = arguments.first, naming.contains(command) || command == "undo" else { return nil }
        for (previous, word) in zip(arguments, arguments.dropFirst()) {
            // Words after -- are text as typed; and edit's words after its todos are a title
            // and modifiers, where `-5` is a title's word: `edit 3 Low -5` said "-5 is not a
            // todo" (outside probe), and now gets add's advice, to write -- before the title.
            if word == "--" { return nil }
            let isOptionOrValue = word.hasPrefix("-") || (previous != command && previous.hasPrefix("-"))
            if command == "edit", !isOptionOrValue, TodoRef.leadingWords(in: [word]).count == 0 { return nil }
            guard word.count > 1, word.hasPrefix("-"), word.dropFirst().allSatisfy(\.isNumber) else { continue }
            if previous != command && previous.hasPrefix("-") { continue }
            if command == "undo" { return UndoCommand.notAChange(word) }
            return TodoRef.notATodo(word)
        }
        return nil
    }
}

extension TodoctlCommand {
    /// ArgumentParser's own `main`, after the checks it needs help with: a flood of a
    /// repeated option is refused (`ArgumentLimit`), and leading options are moved into
    /// place (`LeadingOptions`). Synchronous: a quick form, which awaits nothing, runs on
    /// the main thread from start to exit (`Session` says why); every other command is read
    /// and run by ArgumentParser on a task while the main thread waits for it. An async
    /// `main` would leave through `dispatch_main` at its first wait, which ends the main
    /// thread with `pthread_exit`; that unwinds the thread, and in the static todoctl the
    /// first unwinding sorts the unwind tables of the whole binary: 20 ms of `todoctl
    /// status`'s 27 (perf `-e cpu-clock`: libgcc's `frame_downheap`, `fde_single_encoding_compare`).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        _ = WallClock.source  // a bad TODOD_TEST_NOW is said at once
        if let complaint = ArgumentBytes.complaint(in: arguments) {
            Terminal.error(complaint)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        if let excess = ArgumentLimit.excess(in: arguments) {
            Terminal.error(
                "\(excess.option) is given \(excess.count) times; the most is \(excess.limit) (a todo holds at most \(TodoValidation.maximumTagCount) tags)")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        if let quick = QuickCommand(arguments) {
            do { try quick.run() } catch { exit(withError: error) }
            return
        }
        let moved = LeadingOptions.movedAfterCommand(arguments)
        if let complaint = LeadingOptions.unknownCommand(in: moved) {
            Terminal.error(complaint)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        if let complaint = LeadingOptions.emptySocket(in: moved) ?? LeadingOptions.negativeTodo(in: moved) {
            Terminal.error(complaint)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await parseAndRun(moved)
            finished.signal()
        }
        finished.wait()
    }

    /// ArgumentParser's `main(_:)`, but a usage error of its own gets advice (`UsageAdvice`).
    private static func parseAndRun(_ arguments: [String]) async {
        do {
            var command = try parsed(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let said = message(for: error)
            // Said alone: the usage under "Unknown option '-5'" led away from the answer, --.
            if let advice = UsageAdvice.dashedWord(said, arguments: arguments) {
                Terminal.error(advice)
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            let name = arguments.first.flatMap { LeadingOptions.command(named: $0)?.configuration.commandName } ?? "list"
            guard exitCode(for: error) == .validationFailure, let advised = UsageAdvice.advised(said, command: name) else { exit(withError: error) }
            let full = fullMessage(for: error)
            FileHandle.standardError.write(Data((full.replacingOccurrences(of: said, with: advised) + "\n").utf8))
            Foundation.exit(exitCode(for: error).rawValue)
        }
    }

    /// `arguments` read by ArgumentParser, their modifier words marked (`ModifierWords`).
    /// The two checks that need the command's whole list of options, a mistyped `--option`
    /// (`MistypedOption`) and a `-x` that is no option of the command's (a tag to remove), are
    /// made only when a first parse fails: the list comes from the command's help, whose
    /// making (ArgumentParser's reflection and conformance lookups) cost ~30M instructions, 80%
    /// of `todoctl add Foo -d tomorrow` (callgrind, release todoctl). A mistyped option always
    /// fails that parse: no command takes unrecognized options.
    private static func parsed(_ arguments: [String]) throws -> ParsableCommand {
        let assumed = ModifierWords.marked(arguments, knowingShortOptions: false)
        do {
            return try parseAsRoot(assumed)
        } catch {
            if let complaint = MistypedOption.complaint(in: arguments) {
                Terminal.error(complaint)
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            let marked = ModifierWords.marked(arguments)
            guard marked != assumed else { throw error }
            return try parseAsRoot(marked)
        }
    }
}
