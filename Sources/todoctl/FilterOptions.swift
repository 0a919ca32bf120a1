import ArgumentParser
import TodoClock
import TodoModel
import TodoViewModel

/// The one filter language of `list`, `events`, `next` and the bulk commands: every
/// condition given must hold. Dates take the words `--due` takes, and the past.
struct FilterOptions: ParsableArguments {
    /// Taskwarrior's words (`+home -work project:home due:fri pri:H`); a bulk command takes
    /// the todos' numbers first here (`leadingRefs`).
    @Argument(help: ArgumentHelp(ModifierWords.filterHelp + ".", valueName: "modifier"))
    var words: [String] = []
    @Option(name: [.customShort("t"), .customLong("tag")], help: ArgumentHelp("Only todos with this tag; repeat: all must be there.", valueName: "tag"))
    var tags: [String] = []
    @Option(name: .customLong("not-tag"), help: ArgumentHelp("Leave out todos with this tag; repeat for more.", valueName: "tag"))
    var notTags: [String] = []
    @Option(name: .shortAndLong, help: "Only todos of this priority: high, normal or low (H, M or L, medium, any case).", completion: Priority.completion, transform: Priority.checked)
    var priority: Priority?
    @Option(help: ArgumentHelp("Only todos whose title or notes contain this text (any case).", valueName: "text"))
    var search: String?
    @Option(help: ArgumentHelp("Only todos in this project or its sub-projects (home holds home.garden); an empty name: only those in none (project:).", valueName: "name"))
    var project: String?
    // Unconditional: `--due-before -1d` is a date, not an option.
    @Option(name: [.customShort("d"), .customLong("due")], parsing: .unconditional, help: ArgumentHelp("Only todos due on this day: \(FilterDateParser.accepted).", valueName: "date"), transform: FilterDateArgument.checked)
    var dueOn: FilterDateArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Only todos due before this day (not on it): \(FilterDateParser.accepted).", valueName: "date"), transform: FilterDateArgument.checked)
    var dueBefore: FilterDateArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Only todos due after this day (not on it): \(FilterDateParser.accepted).", valueName: "date"), transform: FilterDateArgument.checked)
    var dueAfter: FilterDateArgument?
    @Flag(help: "Only todos overdue and not done: due before today, or today at a time that has come (due at 09:00: from 09:00).")
    var overdue = false
    @Flag(help: "Only todos without a due date.")
    var noDue = false

    func validate() throws {
        let words = try modifiers()
        // As add and edit refuse them: a todo has one priority and one due day, so a flag
        // and a word asking for two could only match nothing, and one silently winning
        // changed the wrong todos in `done pri:L -p high`.
        for (given, word, option) in [
            (words.priority != nil && priority != nil, "pri:", "-p"),
            (words.due != nil && (dueOn != nil || noDue), "due:", noDue ? "--no-due" : "--due"),
            (words.project != nil && project != nil && words.project != project, "project:", "--project"),
        ] where given {
            let field = ["pri:": "priority", "due:": "due day"][word] ?? "project"
            throw ValidationError("\(word) and \(option) both ask for the \(field): give one")
        }
        if noDue && (dueOn != nil || dueBefore != nil || dueAfter != nil || overdue || words.overdue || words.dueBefore != nil) {
            throw ValidationError("--no-due leaves out every dated todo: it cannot go with --due, --due-before, --due-after or --overdue")
        }
    }

    /// The leading words that name todos (`done 3 4`, `done 2-4`, `done 1,3`): a bulk command's todos.
    var leadingRefs: [TodoRef] {
        TodoRef.leading(in: words)
    }

    /// Whether the leading words hold a range or a list (`2-4`, `1,3`).
    var leadingRanged: Bool {
        TodoRef.leadingWords(in: words).ranged
    }

    /// The words after the leading ones that name todos, read as a filter's modifiers.
    func modifiers() throws -> TaskwarriorWords {
        try ModifierWords.read(Array(words.dropFirst(TodoRef.leadingWords(in: words).count)), use: .filter)
    }

    /// `words` (one argument each, no command) read as `list`'s filter options and modifiers,
    /// with their checks and no todo's number: `--filter '…'` and a context's words.
    static func read(_ words: [String]) throws -> FilterOptions {
        let options = try parse(ModifierWords.marked(words: words, options: FilterOptions.self))
        try options.refuseRefs()
        return options
    }

    /// For the commands that list (list, next, watch, events): a todo's number is no filter.
    func refuseRefs() throws {
        guard let first = words.first, leadingRefs.count > 0 else { return }
        throw ValidationError("\(first) names a todo, and this command takes filters (+tag, due:DATE …): to see one todo, run todoctl show \(first)")
    }

    /// The conditions as typed (`+OVERDUE project:work -t home --overdue`), for a report that
    /// says what it counts; nil when none was given. The words first, then the options.
    var typed: String? {
        let typedWords = ModifierWords.unmarked(Array(words.dropFirst(TodoRef.leadingWords(in: words).count))).words
        let options: [[String]] = [
            tags.flatMap { ["-t", $0] }, notTags.flatMap { ["--not-tag", $0] }, priority.map { ["-p", $0.rawValue] } ?? [],
            search.map { ["--search", $0.contains(" ") ? "'\($0)'" : $0] } ?? [], project.map { ["--project", $0] } ?? [], dueOn.map { ["--due", $0.text] } ?? [],
            dueBefore.map { ["--due-before", $0.text] } ?? [], dueAfter.map { ["--due-after", $0.text] } ?? [],
            overdue ? ["--overdue"] : [], noDue ? ["--no-due"] : [],
        ]
        let typed = typedWords + options.joined()
        return typed.isEmpty ? nil : typed.joined(separator: " ")
    }

    /// Whether any condition was given.
    var isEmpty: Bool { filter(status: .open) == TodoFilter() }

    /// The filter these options give, over todos in `status`.
    func filter(status: TodoFilter.Status) -> TodoFilter {
        // `validate()` read the words already: here they read again, without fail.
        let words = (try? modifiers()) ?? TaskwarriorWords()
        // A virtual tag's span of days (+WEEK) holds with the options': the narrower.
        let before = [dueBefore?.date, words.dueBefore].compactMap(\.self).min()
        let after = [dueAfter?.date, words.dueAfter].compactMap(\.self).max()
        // Done todos are not overdue: --overdue narrows "open and done" to open. A virtual
        // tag's state (+COMPLETED) is the list's.
        var filter = TodoFilter(
            status: words.status ?? (overdue && status == .all ? .open : status), tags: tags + words.tags, notTags: notTags + words.removedTags,
            priority: words.priority ?? priority, search: search,
            dueBefore: before, dueAfter: after, dueOn: words.due ?? dueOn?.date, noDue: noDue, waiting: words.waiting,
            project: words.project ?? project, active: words.active,
            blocked: words.blocked, blocking: words.blocking, dependsOn: words.depends, ready: words.ready, hasScheduled: words.hasScheduled,
            scheduledBefore: words.scheduledBefore, scheduledAfter: words.scheduledAfter,
            hasUntil: words.hasUntil, untilBefore: words.untilBefore, untilAfter: words.untilAfter)
        // --overdue and +OVERDUE are "due before now": before today, or today by this minute
        // (due at 09:00, overdue from 09:00); with --due-before as well, the earlier holds.
        if overdue || words.overdue {
            let now = ReachedMinute.at(WallClock.now())
            filter.narrowDue(before: now.date, by: now.timeOfDay)
        }
        return TodoValidation.normalised(filter)
    }
}
