import ArgumentParser
import TodoClock
import TodoModel
import TodoViewModel

/// Taskwarrior's words on todoctl's command line: getting them past ArgumentParser, and
/// reading them with `TaskwarriorWords` into fields or advice.
///
/// ArgumentParser reads `-shop` as the short options `-s -h -o -p`: `-h` printed the help
/// and `-p` wanted a value. So before it parses, a `-word` (a dash, a letter, one or more
/// characters more) where a modifier may stand is marked, and read back unmarked from the
/// words; a command's short options stay options (`-t home`), and so does a `-word` that is
/// the value of the option before it (`--search -foo`). So short options are given one by
/// one (`-a -j`): `-aj` is the tag `aj`; and `-x`, no option of edit's, is the tag `x` to
/// remove, as Taskwarrior reads it.
enum ModifierWords {
    /// Put before a `-word`; a private-use character nobody types, never sent anywhere.
    private static let mark: Character = "\u{E000}"
    /// Put before each word after `--`: ArgumentParser hands them over in the same array
    /// as the words before it, and they are title words as typed.
    private static let literalMark: Character = "\u{E001}"

    /// The commands whose words may hold modifiers; the default command (list) too.
    private static let commands: Set<String> = [
        "add", "edit", "list", "ls", "next", "today", "done", "reopen", "toggle", "rm", "delete", "restore", "watch", "events",
    ]

    /// The options that take a value, as spelled on todoctl's command line: the word after
    /// one is its value, never a modifier.
    static let valueOptions: Set<String> = [
        "-n", "-p", "-d", "-t", "-o", "--notes", "--priority", "--due", "--tag", "--not-tag", "--search", "--due-before",
        "--due-after", "--title", "--untag", "--project", "--every", "--every-after", "--parent", "--depends", "--wait", "--filter", "--socket", "--since",
        "--limit", "--sort", "--older-than", "--from", "--to", "--output",
    ]

    /// `arguments` (without the program's name, the command first if any) with every
    /// `-word` where a modifier may stand marked, up to `--`.
    ///
    /// With `knowingShortOptions` false, a `-x` (one ASCII letter) is left for ArgumentParser
    /// as a short option without asking the command which it has: the answer comes from the
    /// command's help, whose making costs ~20M instructions (6 ms) in the release todoctl,
    /// five times a whole `add`. So the first parse assumes every `-x` is an option, and only
    /// when that parse fails is the line marked again knowing them (`TodoctlCommand.parsed`).
    static func marked(_ arguments: [String], knowingShortOptions: Bool = true) -> [String] {
        guard let first = arguments.first else { return arguments }
        let isCommand = commands.contains(first)
        // Another command (show, undo …) takes no modifiers.
        if !isCommand && LeadingOptions.isCommand(first) { return arguments }
        return marked(words: arguments, options: (isCommand ? LeadingOptions.command(named: first) : nil) ?? ListCommand.self, knowingShortOptions: knowingShortOptions)
    }

    /// `words` with each `-word` marked, up to `--`, unless it is an option's value or one
    /// of the short options of `options` (the command's, or the filter's).
    static func marked(words: [String], options: ParsableArguments.Type, knowingShortOptions: Bool = true) -> [String] {
        var result: [String] = []
        var literal = false
        for word in words {
            if literal {
                result.append(String(literalMark) + word)
                continue
            }
            literal = word == "--"
            let isValue = result.last.map { valueOptions.contains($0) } ?? false
            result.append(!isValue && isTagRemoval(word, options: knowingShortOptions ? options : nil) ? String(mark) + word : word)
        }
        return result
    }

    /// `options` nil: a `-x` is taken for a short option, unasked.
    private static func isTagRemoval(_ word: String, options: ParsableArguments.Type?) -> Bool {
        // `-_x`, `-家` and `-🎉` are tags to remove, as TaskwarriorWords reads them: the rule
        // `+家` is read by. `-t` stays an option where the command has it (todoctl's short
        // options are ASCII letters); `edit 10 -x` removes the tag x, as `task 10 modify -x`
        // does (ArgumentParser said "Unknown option '-x'").
        guard word.hasPrefix("-"), TaskwarriorWordShape.isTag(word), !word.contains("=") else { return false }
        guard word.count == 2, let letter = word.last, letter.isASCII, letter.isLetter else { return true }
        guard let options else { return false }
        return !MistypedOption.options(of: options).contains("-\(letter)")
    }

    /// The words as typed, marks removed: those before `--`, and those after it.
    static func unmarked(_ words: [String]) -> (words: [String], literal: [String]) {
        let end = words.firstIndex { $0.first == literalMark } ?? words.endIndex
        return (words[..<end].map { $0.first == mark ? String($0.dropFirst()) : $0 }, words[end...].map { String($0.dropFirst()) })
    }

    /// `words` read with `TaskwarriorWords`, or a usage error that says what was meant
    /// and what to do instead.
    static func read(_ words: [String], use: TaskwarriorWords.Use) throws -> TaskwarriorWords {
        let (words, literal) = unmarked(words)
        do {
            let now = LocalMinute(WallClock.now())
            return try TaskwarriorWords.parse(words, literal: literal, use: use, today: now.date, now: now.timeOfDay)
        } catch {
            throw ValidationError(error.message + advice(for: error, use: use))
        }
    }

    /// Refuses a field given both as a modifier and as an option with two values (`pri:H -p
    /// low`), naming both, as two modifiers are; the same value twice (`pri:H -p high`) is
    /// taken. nil is a value here: a field cleared (an empty `due:`, `--no-due`).
    static func refuseClash<Value: Equatable>(
        _ word: String, _ modifier: Value??, _ option: String, _ optionValue: Value??, field: String, describe: (Value?) -> String
    ) throws {
        guard let modifier, let optionValue, modifier != optionValue else { return }
        func said(_ name: String, _ value: Value?) -> String { [name, describe(value)].filter { !$0.isEmpty }.joined(separator: " ") }
        throw ValidationError(
            "\(said(word, modifier)) and \(said(option, optionValue)) both give the \(field), and a todo has one: give one of them")
    }

    /// The project that `--project` and the words give (`project:home`, `+project:home`, and a
    /// `-t project:home` as the tag stood for one), refusing two different ones (`-t project:a
    /// project:b`, `project:a --project b`): a todo is in one, and the last named silently won.
    static func project(option: String?, words: TaskwarriorWords, tags: [String]) throws -> String? {
        let prefix = TaskwarriorWords.projectTagPrefix
        let given: [(word: String, name: String)] =
            tags.filter { $0.hasPrefix(prefix) && $0.count > prefix.count }.map { ("-t \($0)", String($0.dropFirst(prefix.count))) }
            + (words.project.map { [("project:\($0)", $0)] } ?? []) + (option.map { [("--project \($0)", $0)] } ?? [])
        guard let first = given.first else { return nil }
        if let second = given.first(where: { $0.name != first.name }) {
            throw ValidationError(TaskwarriorWordError.secondValue(word: second.word, name: "project", earlier: first.word).message)
        }
        return first.name
    }

    /// Refuses an until day already over: the daemon deletes such a todo at its next
    /// midnight, so the todo would vanish a while after it was seemingly kept.
    static func refusePassed(until: LocalDate?) throws {
        let today = WallClock.today()
        guard let until, until < today else { return }
        throw ValidationError(
            "until:\(until) has passed (today is \(today)): a todo is deleted once its until day is over; give today or a later day, or remove the todo (todoctl rm)")
    }

    /// What todoctl offers instead, where a flag or a command does what the word cannot.
    private static func advice(for error: TaskwarriorWordError, use: TaskwarriorWords.Use) -> String {
        let keep = use == .filter ? "" : "\nTo keep \"\(error.word)\" in the title, write it after --: todoctl \(use == .add ? "add TITLE" : "edit N TITLE") -- \(error.word)"
        switch error {
        case .notInFilter(_, "wait"): return ": list the waiting todos with `todoctl list --waiting`"
        case .notInFilter: return ": `todoctl show N` says how a todo repeats"
        case .attributeModifier(_, "due", _): return ": a filter takes due.before:DATE and due.after:DATE (or --due-before, --due-after, --overdue)"
        case .attributeModifier: return ": use the filter options (todoctl list --help)"
        case .wordInFilter(let word) where word.first.map({ $0.isNumber || $0 == "#" }) == true:
            return "; nor is it a todo: a todo is named by its number (1 or more), its id, or 8 or more leading characters of its id"
        case .wordInFilter: return "; to find todos by their words use --search TEXT"
        case .removalInAdd: return keep
        case .secondValueInFilter, .secondValue, .virtualTagLeftOut, .virtualTagNotTaken: return ""
        case .virtualTag: return keep
        case .unknownModifier, .unreadableValue, .missingValue: return keep
        }
    }

    /// Help for the words' argument.
    static let help = "Taskwarrior's modifiers: +tag, -tag, project:NAME (pro:), due:DATE, wait:DATE, scheduled:DATE, until:DATE, priority:H|M|L (pri:), recur:PERIOD"
    /// The same for a filter, which cannot ask for wait: or recur: yet.
    static let filterHelp = "Taskwarrior's modifiers: +tag, -tag, project:NAME (pro:), due:DATE, due.before:DATE, due.after:DATE, priority:H|M|L (pri:), scheduled.before:DATE, scheduled.after:DATE, until.before:DATE, until.after:DATE, depends:N (the todos waiting for #N); project: alone for no project, pri: alone for normal; one priority and one due day; and its virtual tags \(TaskwarriorWords.virtualTagsTaken)"
}
