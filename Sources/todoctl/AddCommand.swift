import ArgumentParser
import TodoModel
import TodoViewModel

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a todo.",
        discussion: """
            The words of TITLE are joined with spaces: `todoctl add Buy milk -t home -d fri`. \
            Taskwarrior's modifiers among them set fields instead: `todoctl add Buy bread \
            due:tomorrow +shop project:home pri:H` adds "Buy bread" with those fields.

            Modifiers: +TAG; project:NAME or pro:NAME (or --project NAME: the todo's project, \
            home.garden being garden under home; a filter project:home also finds \
            home.garden); due:DATE and wait:DATE (the dates \
            --due takes); priority:P or pri:P (H, M, L, high, medium, low, any case); \
            recur:PERIOD (the periods --every takes); depends:3,5 (or --depends 3,5: the \
            todos it waits for, by number; blocked while one is open, +BLOCKED finds it); \
            scheduled:DATE (the day work on it may begin: next weighs it from then; a filter \
            takes scheduled.before:DATE and scheduled.after:DATE); until:DATE (or --until DATE: \
            the last day it is kept open, as Taskwarrior's until: once that day has passed the \
            daemon deletes it if still open, and a repeating todo makes no occurrence due after \
            it; a day already over is refused; a filter takes until.before:DATE, until.after:DATE \
            and +UNTIL). due:, wait:, \
            scheduled: and until: take the same dates; due:, wait: and scheduled: (and --due, \
            --wait) a time of day too, in local time, as Taskwarrior: due:2026-12-24T15:00, \
            due:eod (today 23:59), due:now, due:15:00 or due:9am (the next one), due:fri@9am, \
            --due 'tomorrow 15:00' (one argument); fri 9 (am or pm?) and midnight (which end of \
            the day?) are refused, saying what to write. A field is given once: due:fri due:mon, \
            pri:H pri:L or project:a project:b is refused, naming both.

            Which words are modifiers: +word, -word (a sign, then what may start a Taskwarrior \
            tag: anything but a digit, a space, one of + - * / ( ) < > ^ ! % = ~ . ' " & :, \
            so +🎉 and +_x are tags, +1 is a title word; short options go one by one, -a -j, \
            not -aj, and -x where the command has no option -x is the tag x), and name:value \
            where name is letters a-z, any case (at most one .suffix, as in due.before:). A \
            name:value that todoctl does not know is refused with the modifier it thinks \
            was meant (prio:H: did you mean priority:?), never put in the title. These stay \
            title words: URLs (https://…), words whose part before the colon is not letters \
            (10:30), a word ending in its colon (Re:, Bob:), and a quoted argument with a space \
            in it ("Re: meeting", "+ve thinking"), unless it is a modifier with its value \
            ("due:dec 2"), as Taskwarrior reads them. To put anything else in the \
            title as typed, write it after --: `todoctl add Read -- due:x +y` adds "Read due:x +y". \
            A time of day typed as a word of its own after a day (due:tomorrow 15:00, --due fri \
            9am, unquoted) stays a title word, as in Taskwarrior, and a line on stderr says to \
            quote it: 'due:tomorrow 15:00'.

            A date that does not exist is refused saying why (-d 2026-02-30: February 2026 has \
            28 days; feb 30: February has 28 days, 29 in a leap year), a misspelt one with the \
            word meant (tomorow: did you mean tomorrow?), exit 64.
            """)

    @Argument(help: ArgumentHelp("The title's words, and modifiers: +tag, project:NAME, due:DATE, wait:DATE, until:DATE, pri:H|M|L, recur:PERIOD.", valueName: "word"))
    var title: [String] = []
    @Option(name: .shortAndLong, help: "Free text notes.") var notes: String?
    @Option(name: .shortAndLong, help: "high, normal or low: H, M or L, medium, any case.", completion: Priority.completion, transform: Priority.checked)
    var priority: Priority?
    // Unconditional, as every option that takes a date or a number: `-d -1d` and `--limit -1`
    // were read as options and said "Missing value".
    @Option(name: .shortAndLong, parsing: .unconditional, help: ArgumentHelp("The due date, and a time of day if it has one: \(DueDateParser.accepted); or \(DueDateParser.acceptedTimes).", valueName: "date"), transform: DueDateArgument.checked) var due: DueDateArgument?
    @Option(name: [.customShort("t"), .customLong("tag")], help: "A tag (one word); repeat for more.") var tags: [String] = []
    @Option(help: ArgumentHelp("The project, as project:NAME gives it (home.garden: dots make sub-projects).", valueName: "name")) var project: String?
    @OptionGroup(title: "Planning") var planning: PlanningOptions
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        // Seen here, so refused as the other mistakes in the words are (exit 64), before the
        // daemon would refuse it (exit 1; outside probe: two exit codes for one kind of slip).
        let new = try newTodo()
        // Bare `add`, or only modifiers: a usage mistake seen here (exit 64, as bare `done` is),
        // with what to give; the daemon's refusal (exit 1) said only that the title was empty.
        if new.title.allSatisfy(\.isWhitespace) {
            throw ValidationError("a todo needs a title: give its words (todoctl add Buy milk); +tag, pri:H and due:fri set fields and are no title")
        }
        if new.recurrence?.basis == .due && new.due == nil { throw ValidationError("due: \(TodoValidation.repeatWithoutDue)") }
        try ModifierWords.refusePassed(until: new.until)
    }

    /// The todo the options and the words give.
    private func newTodo() throws -> NewTodo {
        let words = try ModifierWords.read(title, use: .add)
        let day: (LocalDate?) -> String = { $0?.description ?? "" }
        let moment: (DayTime?) -> String = { $0?.description ?? "" }
        try ModifierWords.refuseClash("pri:", words.priority.map { $0 }, "-p", priority.map { $0 }, field: "priority") { $0?.rawValue ?? "" }
        try ModifierWords.refuseClash("due:", words.dueMoment.map { $0 }, "--due", due.map { $0.moment }, field: "due date", describe: moment)
        try ModifierWords.refuseClash(
            "wait:", words.waitMoment.map { $0 }, "--wait", planning.wait.map { $0.moment }, field: "wait date", describe: moment)
        try ModifierWords.refuseClash("until:", words.until.map { $0 }, "--until", planning.until.map { $0.date }, field: "until date", describe: day)
        try ModifierWords.refuseClash(
            "recur:", words.recurrence.map { $0 }, "--every/--every-after", planning.recurrence.map { $0 }, field: "repeat") { $0?.description ?? "" }
        let project = try ModifierWords.project(option: project, words: words, tags: tags)
        return NewTodo(
            title: words.title.joined(separator: " "), notes: notes ?? "", priority: words.priority ?? priority ?? .normal,
            due: words.due ?? due?.date, tags: (tags + words.tags).filter { !$0.hasPrefix(TaskwarriorWords.projectTagPrefix) },
            recurrence: words.recurrence ?? planning.recurrence, parent: planning.parent?.number,
            wait: words.wait ?? planning.wait?.date, project: project, depends: words.depends + (planning.depends?.numbers ?? []),
            scheduled: words.scheduled, until: words.until ?? planning.until?.date,
            dueTime: words.due != nil ? words.dueTime : due?.time, waitTime: words.wait != nil ? words.waitTime : planning.wait?.time,
            scheduledTime: words.scheduledTime)
    }

    func run() async throws {
        try Self.add(try newTodo(), socketPath: connection.socketPath, json: output.json)
        // Added as typed, as Taskwarrior adds it, then the fix said: `due:tomorrow 15:00`
        // unquoted put 15:00 in the title without a word (outside probe 12). The words as
        // typed, for their order: ArgumentParser gives the title's words without the options.
        if let hint = UnquotedTime.hint(Array(CommandLine.arguments.dropFirst())) { Terminal.error(hint) }
    }

    static func add(_ new: NewTodo, socketPath: String, json: Bool) throws {
        let change = try Session.run(socketPath: socketPath) { try $0.change(.requestNewTodo(new)) }
        try Terminal.answer(change, json: json)
    }
}
