import TodoModel

/// The words a Taskwarrior user types after `task add`, `task N modify` and in a filter:
/// `+tag`, `-tag` and `name:value` modifiers, read into fields; every other word is a title
/// word. Pure: the caller gives the words and today, and turns a `TaskwarriorWordError`
/// into advice for its own user (a command line, a watch prompt). Which words are tags and
/// modifiers, and which title words, `TaskwarriorWordShape` tells; this type reads the
/// modifiers' values into fields.
public struct TaskwarriorWords: Sendable, Equatable {
    /// What the words are for: a new todo, an edit, or a filter.
    public enum Use: Sendable, Equatable {
        case add, edit, filter
    }

    /// The words that are not modifiers, in order: a title (add, edit).
    public var title: [String] = []
    /// `+tag`: tags to add, or that a filter requires.
    public var tags: [String] = []
    /// `-tag`: tags to remove (edit), or to leave out (filter).
    public var removedTags: [String] = []
    public var due: LocalDate?
    public var wait: LocalDate?
    /// The times of day `due:`, `wait:` and `scheduled:` gave with their days (`due:fri@9am`).
    public var dueTime: TimeOfDay?
    public var waitTime: TimeOfDay?
    public var scheduledTime: TimeOfDay?
    /// `due` with its time, `wait` with its: what an option giving the same field is compared with.
    public var dueMoment: DayTime? { due.map { DayTime($0, dueTime) } }
    public var waitMoment: DayTime? { wait.map { DayTime($0, waitTime) } }
    public var priority: Priority?
    public var recurrence: Recurrence?
    /// `project:home.garden` (`pro:`, `+project:`); in a filter, an empty `project:` is ""
    /// and asks for the todos in no project.
    public var project: String?
    /// An empty `project:` in an edit, or `-project:NAME`: out of its project.
    public var clearProject = false
    /// An empty `due:`, `wait:` or `recur:` in an edit: remove that field, as Taskwarrior's
    /// `modify due:` does.
    public var clearDue = false
    public var clearWait = false
    public var clearRecurrence = false
    /// A filter's virtual tags (`+OVERDUE`, `+WEEK`, `+COMPLETED`, `+WAITING`), as what todod
    /// filters by: the todos' state, a span of due days (both ends left out), the waiting ones.
    public var status: TodoFilter.Status?
    public var dueBefore: LocalDate?
    public var dueAfter: LocalDate?
    /// `+OVERDUE`: open and due before now, which the filter that reads these words says at
    /// its minute (`TodoFilter.dueByTime`): a todo due today at 09:00 is overdue from 09:00.
    public var overdue = false
    public var waiting = false
    /// `+ACTIVE`: the started todos.
    public var active = false
    /// `+READY`: the open todos one can act on now (not waiting, blocked or scheduled later).
    public var ready = false
    /// `+SCHEDULED`: the todos with a scheduled day.
    public var hasScheduled = false
    /// `+BLOCKED` (true), `-BLOCKED` or `+UNBLOCKED` (false): waiting for an open todo or not.
    public var blocked: Bool?
    /// `+BLOCKING` (true), `-BLOCKING` (false): an open todo waits for it or not.
    public var blocking: Bool?
    /// `depends:3,5`: the numbers of the todos it comes to wait for; in a filter, the todos
    /// that wait for each of them.
    public var depends: [Int] = []
    /// `depends:-3` in an edit: the numbers of those it no longer waits for.
    public var removedDepends: [Int] = []
    /// An empty `depends:` in an edit: it waits for none.
    public var clearDepends = false
    /// `scheduled:DATE` in an add or an edit.
    public var scheduled: LocalDate?
    /// An empty `scheduled:` in an edit.
    public var clearScheduled = false
    /// A filter's `scheduled.before:DATE` and `scheduled.after:DATE` (`scheduled:DATE`: both
    /// around that day), strict as Taskwarrior's.
    public var scheduledBefore: LocalDate?
    public var scheduledAfter: LocalDate?
    /// `until:DATE` in an add or an edit: the last day the todo is kept open.
    public var until: LocalDate?
    /// An empty `until:` in an edit: kept open for good.
    public var clearUntil = false
    /// `+UNTIL`: the todos with an until day.
    public var hasUntil = false
    /// A filter's `until.before:DATE` and `until.after:DATE` (`until:DATE`: both around that
    /// day), strict as Taskwarrior's.
    public var untilBefore: LocalDate?
    public var untilAfter: LocalDate?
    /// In an add or an edit, the word that gave each field and what it gave (`pri:H`,
    /// "high"): a second word giving it something else is refused, as it silently won.
    private var given: [String: GivenWord] = [:]
    /// The minute it is now, for `due:now` and `due:15:00` (today's or tomorrow's).
    private var now = TimeOfDay(minutes: 0)!

    private struct GivenWord: Sendable, Equatable {
        let word: String
        let value: String
    }

    public init() {}


    /// `+project:home`, as users typed a project when it was a tag: the project `home`.
    public static let projectTagPrefix = TodoFilter.projectTagPrefix

    /// Reads `words` (after `literal`, the words after `--`, which are title words as typed),
    /// for `use`, against `today` and the minute it is `now` (midnight when not given). A `--`
    /// among `words` starts the literal words too (a watch prompt's line).
    public static func parse(
        _ words: [String], literal: [String] = [], use: Use, today: LocalDate, now: TimeOfDay? = nil
    ) throws(TaskwarriorWordError) -> TaskwarriorWords {
        var result = TaskwarriorWords()
        if let now { result.now = now }
        var rest = words[...]
        while let word = rest.popFirst() {
            if word == "--" {
                result.title += rest
                break
            }
            try result.read(word, use: use, today: today)
        }
        result.title += literal
        // A filter has no title: a word after `--` is a plain word too.
        if use == .filter, let word = result.title.first { throw .wordInFilter(word: word) }
        return result
    }


    /// A priority as people write it: `H`/`M`/`L`, `high`/`medium`/`normal`/`low`, any case.
    public static func priority(_ text: String) -> Priority? {
        switch text.lowercased() {
        case "h", "high": .high
        case "m", "medium", "normal", "n": .normal
        case "l", "low": .low
        default: nil
        }
    }

    /// The priority words, for messages and help.
    public static let acceptedPriorities = "H, M or L (or high, medium/normal, low; any case)"

    private mutating func read(_ word: String, use: Use, today: LocalDate) throws(TaskwarriorWordError) {
        if word.contains(where: \.isWhitespace), !TaskwarriorWordShape.isModifierPhrase(word) {
            guard use != .filter else { throw .wordInFilter(word: word) }
            title.append(word)
            return
        }
        if TaskwarriorWordShape.isTag(word) {
            let tag = String(word.dropFirst())
            if Self.virtualTags.contains(tag) {
                try applyVirtualTag(tag, word: word, use: use, today: today)
                return
            }
            // `+project:foo` names the project as `project:foo` does, `-project:foo` takes a
            // todo out of it (a filter: leaves that project's todos out, TodoFilter's notTags).
            if tag.hasPrefix(Self.projectTagPrefix), tag.count > Self.projectTagPrefix.count, word.hasPrefix("+") || use == .edit {
                let name = word.hasPrefix("+") ? String(tag.dropFirst(Self.projectTagPrefix.count)) : ""
                return try apply(name: "project", value: name, word: word, use: use, today: today)
            }
            if word.hasPrefix("+") {
                tags.append(tag)
            } else {
                guard use != .add else { throw .removalInAdd(word: word) }
                removedTags.append(tag)
            }
            return
        }
        guard let (name, value) = TaskwarriorWordShape.modifier(word) else {
            guard use != .filter else { throw .wordInFilter(word: word) }
            title.append(word)
            return
        }
        try apply(name: name, value: value, word: word, use: use, today: today)
    }


    private mutating func apply(name: String, value: String, word: String, use: Use, today: LocalDate) throws(TaskwarriorWordError) {
        let parts = name.split(separator: ".")
        if parts.count == 2 {
            guard TaskwarriorWordShape.modifierNames.contains(String(parts[0])) else { throw TaskwarriorWordShape.unknown(word, name: String(parts[0])) }
            // A day's span, as Taskwarrior's `due.before:`, `scheduled.after:`, `until.before:`
            // ask; the other attribute modifiers are not read yet.
            if use == .filter, let span = Self.span(of: String(parts[0])),
                let side = ["before": true, "below": true, "after": false, "above": false][String(parts[1])]
            {
                guard !value.isEmpty else { throw .missingValue(word: word, name: name) }
                let date = try Self.date(value, word: word, name: String(parts[0]), use: use, today: today)
                if side { self[keyPath: span.before] = min(self[keyPath: span.before] ?? date, date) } else {
                    self[keyPath: span.after] = max(self[keyPath: span.after] ?? date, date)
                }
                return
            }
            throw .attributeModifier(word: word, name: String(parts[0]), modifier: String(parts[1]))
        }
        // Only an edit can remove a field; a filter's empty project: asks for no project, and
        // its empty pri: is Taskwarrior's "no priority", todod's normal (both were refused).
        if value.isEmpty, use == .add || (use == .filter && !["project", "pro", "priority", "pri"].contains(name)) {
            throw .missingValue(word: word, name: TaskwarriorWordShape.canonical(name))
        }
        switch name {
        case "project", "pro":
            // A todo is in one project: a second, other project: is refused (`once`), and
            // so is one in a filter, which could match nothing.
            // Each part of home.garden names a project: `a..b`, `.a` and `a.` have one without.
            guard !value.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) || value.isEmpty else {
                throw .unreadableValue(
                    word: word, name: "project", value: value, accepted: "a name, or names joined by dots (home.garden)",
                    suggestion: nil, reason: "\(value): a project's name has a part with no letters between its dots")
            }
            if use == .filter, let earlier = project, earlier != value {
                throw .secondValueInFilter(word: word, name: "project", earlier: earlier.isEmpty ? "none" : earlier)
            }
            try once("project", word: word, value: value, use: use)
            if use == .edit && value.isEmpty { clearProject = true } else { project = value }
        case "due":
            guard let moment = try moment(value, name: name, word: word, use: use, today: today) else {
                clearDue = true
                return
            }
            try ask(due: moment.date, word: word, use: use)
            dueTime = moment.time
        case "wait":
            guard use != .filter else { throw .notInFilter(word: word, name: "wait") }
            guard let moment = try moment(value, name: name, word: word, use: use, today: today) else {
                clearWait = true
                return
            }
            (wait, waitTime) = (moment.date, moment.time)
        case "priority", "pri":
            // An edit's (or a filter's) empty pri: is Taskwarrior's "no priority", which todod
            // keeps as normal (its export writes normal as no priority): a new todo's priority.
            guard let priority = value.isEmpty ? Priority.normal : Self.priority(value) else {
                throw .unreadableValue(word: word, name: "priority", value: value, accepted: Self.acceptedPriorities, suggestion: nil, reason: nil)
            }
            if use == .filter, let earlier = self.priority, earlier != priority {
                throw .secondValueInFilter(word: word, name: "priority", earlier: earlier.rawValue)
            }
            try once("priority", word: word, value: priority.rawValue, use: use)
            self.priority = priority
        case "recur":
            guard use != .filter else { throw .notInFilter(word: word, name: "recur") }
            if value.isEmpty {
                try once("repeat", word: word, value: "", use: use)
                clearRecurrence = true
                return
            }
            guard let recurrence = Recurrence(typed: value) else {
                let suggestion = Nearest.word(to: value.lowercased(), in: ["daily", "weekly", "monthly", "yearly", "weekdays", "biweekly", "quarterly", "fortnight"])
                throw .unreadableValue(word: word, name: "recur", value: value, accepted: Recurrence.typedForms, suggestion: suggestion, reason: nil)
            }
            try once("repeat", word: word, value: String(describing: recurrence), use: use)
            self.recurrence = recurrence
        case "depends":
            if value.isEmpty {
                try once("dependencies", word: word, value: "", use: use)
                clearDepends = true
                return
            }
            try readDepends(value, word: word, use: use)
        case "until":
            // A day, kept through (todod counts until in days), its removal, or a filter's span.
            guard let date = try day(value, name: name, word: word, use: use, today: today) else {
                clearUntil = true
                return
            }
            if use == .filter, let span = Self.span(of: name) {
                narrow(span, to: date)
                return
            }
            until = date
        case "scheduled":
            guard let moment = try moment(value, name: name, word: word, use: use, today: today) else {
                clearScheduled = true
                return
            }
            if use == .filter, let span = Self.span(of: name) {
                narrow(span, to: moment.date)
                return
            }
            (scheduled, scheduledTime) = (moment.date, moment.time)
        default:
            throw TaskwarriorWordShape.unknown(word, name: name)
        }
    }

    /// `3,#5,-7`: numbers to wait for, and (in an edit) with `-` before one, to wait for no
    /// more, as Taskwarrior's `depends:3,-5` reads them.
    private mutating func readDepends(_ value: String, word: String, use: Use) throws(TaskwarriorWordError) {
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let removes = part.hasPrefix("-")
            let digits = removes ? part.dropFirst() : part
            guard let number = Int(digits.hasPrefix("#") ? digits.dropFirst() : digits), number >= 1, !(removes && use != .edit) else {
                throw .unreadableValue(
                    word: word, name: "depends", value: value, accepted: Self.acceptedDepends, suggestion: nil, reason: !removes ? nil
                        : use == .add ? "\(value): a new todo waits for nothing yet, so there is none to take away (\(part))"
                        : "\(value): a filter takes todo numbers: depends:\(part.dropFirst()) finds the todos that wait for #\(part.dropFirst()) (and -BLOCKED leaves out those waiting for an open todo)")
            }
            if removes { removedDepends.append(number) } else { depends.append(number) }
        }
    }

    /// What `depends:` takes, for messages and help.
    public static let acceptedDepends =
        "todo numbers, comma-separated (depends:3,5); in an edit -N takes one away (depends:-3) and nothing clears them (depends:); in a filter, the todos waiting for each"

    /// In an add or an edit, refuses a second word that gives `field` another `value` than
    /// the first did (`pri:H pri:L`, `due:fri due:mon`, `project:a +project:b`, `due: due:fri`):
    /// the last silently won, as in Taskwarrior, and the todo got a field nobody checked.
    /// The same value twice is one wish, taken. A filter asks for both (its own rules).
    private mutating func once(_ field: String, word: String, value: String, use: Use) throws(TaskwarriorWordError) {
        guard use != .filter else { return }
        if let earlier = given[field] {
            guard earlier.value == value else { throw .secondValue(word: word, name: field, earlier: earlier.word) }
            return
        }
        given[field] = GivenWord(word: word, value: value)
    }

    /// `due:` and the virtual tags of one day (`+TODAY`): a filter's second, different day
    /// could match nothing.
    mutating func ask(due date: LocalDate, word: String, use: Use) throws(TaskwarriorWordError) {
        if use == .filter, let due, due != date { throw .secondValueInFilter(word: word, name: "due date", earlier: due.description) }
        due = date
    }

    /// The day a date modifier (`due:`, `wait:`, `scheduled:`, `until:`) gives, read as
    /// `due:` reads it (a filter's as a filter's dates), and given once in an add or an edit;
    /// nil for an empty one, an edit's "remove it" (add and filter refused it before).
    private mutating func day(_ value: String, name: String, word: String, use: Use, today: LocalDate) throws(TaskwarriorWordError) -> LocalDate? {
        let field = "\(name) date"
        guard !value.isEmpty else {
            try once(field, word: word, value: "", use: use)
            return nil
        }
        let date = try Self.date(value, word: word, name: name, use: use, today: today)
        try once(field, word: word, value: date.description, use: use)
        return date
    }

    /// The day, and the time of day when one is given (`due:fri@9am`), that `due:`, `wait:` or
    /// `scheduled:` gives in an add or an edit, given once as `day` is; a filter's is a day
    /// (`day`), nil for an empty one.
    private mutating func moment(_ value: String, name: String, word: String, use: Use, today: LocalDate) throws(TaskwarriorWordError) -> DayTime? {
        guard use != .filter, !value.isEmpty else {
            return try day(value, name: name, word: word, use: use, today: today).map { DayTime($0) }
        }
        guard let moment = DueDateParser.parseWithTime(value, today: today, now: now) else {
            throw .unreadableValue(
                word: word, name: name, value: value, accepted: DueDateParser.accepted + "; or " + DueDateParser.acceptedTimes,
                suggestion: DueDateParser.suggestion(for: value),
                reason: DueDateParser.timeProblem(with: value, today: today, now: now) ?? DueDateParser.impossibility(of: value))
        }
        try once("\(name) date", word: word, value: moment.description, use: use)
        return moment
    }

    /// Where a filter keeps the span of the day `name` gives (`due.before:`, `scheduled.after:`,
    /// `until:DAY`); nil for a modifier without one.
    private static func span(of name: String) -> DaySpan? {
        switch name {
        case "due": (\.dueAfter, \.dueBefore)
        case "scheduled": (\.scheduledAfter, \.scheduledBefore)
        case "until": (\.untilAfter, \.untilBefore)
        default: nil
        }
    }

    /// The fields of a day's span in a filter: strictly after the one, before the other.
    private typealias DaySpan = (after: WritableKeyPath<TaskwarriorWords, LocalDate?>, before: WritableKeyPath<TaskwarriorWords, LocalDate?>)

    /// A filter's `scheduled:DAY` or `until:DAY`: that day, after the one before and before
    /// the one after (within a span asked already).
    private mutating func narrow(_ span: DaySpan, to date: LocalDate) {
        self[keyPath: span.before] = min(self[keyPath: span.before] ?? date.adding(days: 1), date.adding(days: 1))
        self[keyPath: span.after] = max(self[keyPath: span.after] ?? date.adding(days: -1), date.adding(days: -1))
    }

    private static func date(_ value: String, word: String, name: String, use: Use, today: LocalDate) throws(TaskwarriorWordError) -> LocalDate {
        let date = use == .filter ? FilterDateParser.parse(value, today: today) : DueDateParser.parse(value, today: today)
        if let date { return date }
        throw .unreadableValue(
            word: word, name: name, value: value, accepted: use == .filter ? FilterDateParser.accepted : DueDateParser.accepted,
            suggestion: DueDateParser.suggestion(for: value), reason: DueDateParser.impossibility(of: value))
    }

}
