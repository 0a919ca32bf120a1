import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoClock
import TodoModel
import TodoWire
import TodoViewModel

/// Exit codes that scripts can rely on (sysexits.h where one fits).
enum ExitStatus {
    static let refused = ExitCode(1)
    /// EX_DATAERR: an import's input could not be read or holds invalid todos.
    static let dataError = ExitCode(65)
    static let unavailable = ExitCode(69)
    /// EX_NOPERM: the socket is not todod's for sure (another user's directory or process).
    static let untrusted = ExitCode(77)
}

/// Connects with a blocking `TodoConnection` (a one-shot command needs no event loop),
/// runs a command's requests, and turns every failure into a message on stderr and its
/// exit code.
///
/// Synchronous on purpose: a command that awaits nothing then never leaves the main
/// thread, and Swift's concurrency runtime starts no worker threads for it. The first hop
/// to the global executor started four (each with its stack mapped), about 0.7 ms of a
/// command's start-up here (docs/PERFORMANCE.md, "Start-up").
enum Session {
    static func run<T>(_ options: ConnectionOptions, _ body: (TodoConnection) throws -> T) throws -> T {
        try run(socketPath: options.socketPath, body)
    }

    static func run<T>(socketPath: String, _ body: (TodoConnection) throws -> T) throws -> T {
        do {
            let connection = try TodoConnection(path: socketPath, program: ClientProgram.todoctl, today: today, now: now)
            ZoneCheck.check(connection.hello)
            return try body(connection)
        } catch let error as TodoClientError {
            throw fail(error)
        }
    }

    /// The one session that waits between its requests: `edit` in an editor, which runs
    /// between reading the todo and sending the change.
    static func run<T>(_ options: ConnectionOptions, editing body: (TodoConnection) async throws -> T) async throws -> T {
        do {
            let connection = try TodoConnection(path: options.socketPath, program: ClientProgram.todoctl, today: today, now: now)
            ZoneCheck.check(connection.hello)
            return try await body(connection)
        } catch let error as TodoClientError {
            throw fail(error)
        }
    }

    /// The day the rows a command reads are said against: todoctl's clock (TODOD_TEST_NOW in
    /// tests), read here at the edge; the wire and the ViewModels read none.
    static let today: WireCodec.Today = { WallClock.today() }
    /// The minute it is now, of the same clock: a todo due at 15:00 is overdue from then, and
    /// stays so through the hour the clocks show twice (`ReachedMinute`).
    static let now: WireCodec.Now = { ReachedMinute.at(WallClock.now()).timeOfDay }

    /// Prints the error and gives the exit code for it.
    static func fail(_ error: TodoClientError) -> ExitCode {
        Terminal.error(error.inTodoctlWords)
        return exitCode(for: error)
    }

    static func exitCode(for error: TodoClientError) -> ExitCode {
        switch error {
        case .refused: ExitStatus.refused
        case .untrusted: ExitStatus.untrusted
        case .cannotConnect, .notASocket, .notTodod, .disconnected, .protocolViolation, .answerTooLong: ExitStatus.unavailable
        }
    }
}

extension TodoConnection {
    /// The answer to `event`, which must be of the kind `extract` takes.
    func ask<T>(_ event: Event, _ extract: (Event) -> T?) throws(TodoClientError) -> T {
        let answer = try request(event)
        guard let value = extract(answer) else {
            throw .protocolViolation("expected an answer to \(event.kind.rawValue), got \(answer.kind.rawValue)")
        }
        return value
    }

    func change(_ event: Event) throws(TodoClientError) -> TodoChange {
        try ask(event) { if case .responseTodoViewModel(let change) = $0 { change } else { nil } }
    }

    func list(_ filter: TodoFilter) throws(TodoClientError) -> TodoViewModelList {
        try ask(.requestTodoViewModels(filter)) { if case .responseTodoViewModels(let list) = $0 { list } else { nil } }
    }

    func detail(_ ref: TodoRef) throws(TodoClientError) -> TodoDetailViewModel {
        try ask(.requestTodoDetail(ref)) { if case .responseTodoDetail(let detail) = $0 { detail } else { nil } }
    }

    /// The todos `refs` name as the command was typed: each number (or id prefix) read as
    /// the id of the todo it names now, before the first change is sent, so that a change
    /// of the same command (completing a repeating todo adds its next occurrence, the next
    /// number) never makes a later number name another todo (`done 1-3` completed the #3
    /// that `done #1` had just made; outside probe). A number naming no todo is its refusal
    /// ("no todo #99"), said in its turn. One todo named is sent as it is: nothing comes before it.
    func pinned(_ refs: [TodoRef]) throws(TodoClientError) -> [Result<TodoRef, TodoClientError>] {
        guard refs.count > 1 else { return refs.map { .success($0) } }
        var pinned: [Result<TodoRef, TodoClientError>] = []
        pinned.reserveCapacity(refs.count)
        for ref in refs {
            if case .id = ref {
                pinned.append(.success(ref))
                continue
            }
            do throws(TodoClientError) {
                pinned.append(.success(.id(try detail(ref).todo.id)))
            } catch .refused(let error) {
                pinned.append(.failure(.refused(error)))
            }
        }
        return pinned
    }
}

extension TodoRef: ExpressibleByArgument {
    /// As typed: spaces around it (from a copied id) are forgiven here, not on the wire.
    public init?(argument: String) {
        self.init(argument.trimmingCharacters(in: .whitespaces))
    }
}

extension TodoRef {
    /// Why `text`, a number that is no todo's (`0`, `-1`, `007`), names none, and what to give.
    static func notATodo(_ text: String) -> String {
        "\(text) is not a todo: todos are numbered from 1 (#1, #2 …); name one by its number, its id, or 8 or more leading characters of its id (todoctl list --all shows them)"
    }

    /// For `transform:`: the todo `text` names, or why it names none.
    static func checked(_ text: String) throws -> TodoRef {
        if let ref = TodoRef(argument: text) { return ref }
        let word = text.trimmingCharacters(in: .whitespaces)
        // `show ''` (an empty variable in a script): the message would otherwise name nothing.
        if word.isEmpty {
            throw ValidationError("the todo named is empty: give its number (3 or #3), its id, or 8 or more leading characters of its id (todoctl list --all shows them)")
        }
        let digits = word.hasPrefix("#") || word.hasPrefix("-") ? word.dropFirst() : Substring(word)
        if !digits.isEmpty, digits.allSatisfy(\.isNumber) { throw ValidationError(notATodo(word)) }
        throw ValidationError("\(word) is not a todo: name one by its number (3 or #3), its id, or 8 or more leading characters of its id (todoctl list --all shows them)")
    }
}

extension TodoRef {
    /// The leading words that name todos (`3 4 +home` → #3, #4; Taskwarrior's `2-4` and
    /// `1,3` too): the todos of a bulk command or an edit, before its filter or its changes.
    static func leading(in words: [String]) -> [TodoRef] {
        leadingWords(in: words).refs
    }

    /// The todos the leading words name, how many words those are, and whether one of them
    /// was a range or a list (`2-4`, `1,3`), which names todos by their shape, not one by one.
    static func leadingWords(in words: [String]) -> (refs: [TodoRef], count: Int, ranged: Bool) {
        var refs: [TodoRef] = []
        var count = 0
        var ranged = false
        for word in words {
            if let ref = TodoRef(argument: word) {
                refs.append(ref)
            } else if let numbers = numbers(word) {
                refs += numbers
                ranged = true
            } else {
                break
            }
            count += 1
        }
        return (refs, count, ranged)
    }

    /// The most numbers one range names (`1-1000`): a typo of a bound (`1-50000`) is no list of todos.
    static let maximumRange = 1000

    /// Taskwarrior's id ranges and lists, `2-4`, `1,3`, `1,3-5`: the numbers, in order,
    /// without repeats; nil for any other word (a range down, `4-2`, or past `maximumRange`).
    static func numbers(_ word: String) -> [TodoRef]? {
        guard word.contains(where: { $0 == "-" || $0 == "," }) else { return nil }
        func number(_ text: Substring) -> Int? {
            if case .number(let number)? = TodoRef(String(text)) { return number }
            return nil
        }
        var numbers: [Int] = []
        for part in word.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map(number)
            guard bounds.count <= 2, let low = bounds[0] else { return nil }
            guard bounds.count == 2 else {
                numbers.append(low)
                continue
            }
            guard let high = bounds[1], low < high, high - low < maximumRange else { return nil }
            numbers += low...high
        }
        var seen = Set<Int>()
        return numbers.filter { seen.insert($0).inserted }.map(TodoRef.number)
    }
}

extension Priority: ExpressibleByArgument {
    /// As people write it: H, M, L, high, medium, normal, low, in any case.
    public init?(argument: String) {
        guard let priority = TaskwarriorWords.priority(argument) else { return nil }
        self = priority
    }

    /// For `transform:`: the priority `text` names, or why it names none with the words
    /// taken: ArgumentParser's own list said only 'low', 'normal' or 'high' (`-p hi`), where
    /// the help and `pri:hi` name H, M and L too (outside probe).
    static func checked(_ text: String) throws -> Priority {
        guard let priority = Priority(argument: text) else {
            // `-p ""` said "':  is not a priority", the empty value printed as nothing (outside probe 10).
            if text.allSatisfy(\.isWhitespace) {
                throw ValidationError("the priority is empty: give \(TaskwarriorWords.acceptedPriorities), or leave the option out")
            }
            throw ValidationError("\(text) is not a priority: give \(TaskwarriorWords.acceptedPriorities)")
        }
        return priority
    }

    /// What a shell completes after -p, now that `checked` reads the option.
    static let completion = CompletionKind.list(allCases.map(\.rawValue))
}

/// A due date as typed, with a time of day when one is given (`--due 'fri 9am'`); read
/// against today and the minute it is now when the command runs.
struct DueDateArgument: ExpressibleByArgument {
    let date: LocalDate
    /// nil for the whole day.
    let time: TimeOfDay?

    init?(argument: String) {
        let now = LocalMinute(WallClock.now())
        guard let moment = DueDateParser.parseWithTime(argument, today: now.date, now: now.timeOfDay) else { return nil }
        (date, time) = (moment.date, moment.time)
    }

    /// The day and its time, as the modifiers give them, to compare with theirs.
    var moment: DayTime { DayTime(date, time) }

    /// For `transform:`: the date and time, or why the text names none (`2026-02-30`: February
    /// 2026 has 28 days; `tomorow`: did you mean tomorrow?; `25:00`: there is no hour 25).
    static func checked(_ text: String) throws -> DueDateArgument {
        guard let date = DueDateArgument(argument: text) else {
            let now = LocalMinute(WallClock.now())
            throw DateProblem(text, time: DueDateParser.timeProblem(with: text, today: now.date, now: now.timeOfDay))
        }
        return date
    }

    /// `checked` for a day alone (`--until`, which todod keeps by the day).
    static func checkedDay(_ text: String) throws -> DueDateArgument {
        let argument = try checked(text)
        guard argument.time == nil else { throw DateProblem(text) }
        return argument
    }

    static var defaultValueDescription: String { DueDateParser.accepted }

    static var defaultCompletionKind: CompletionKind {
        .list(["today", "tomorrow", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "+1w"])
    }
}

/// Why a date as typed names no day, as ArgumentParser shows it after the value.
struct DateProblem: Error, CustomStringConvertible {
    let description: String

    /// `time`: why its time of day does not read, said first where a time is taken.
    init(_ text: String, time: String? = nil) {
        if let reason = time ?? DueDateParser.impossibility(of: text) {
            description = reason
        } else {
            // ArgumentParser's Help line below lists the forms.
            description = DueDateParser.suggestion(for: text).map { "did you mean \($0)?" } ?? "it is none of the forms below"
        }
    }
}
