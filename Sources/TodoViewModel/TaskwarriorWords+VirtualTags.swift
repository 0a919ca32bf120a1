import TodoModel

/// Taskwarrior's virtual tags (`task` 2.6's man page, "VIRTUAL TAGS"): `+OVERDUE`, `+WEEK`,
/// `+COMPLETED` … name what a todo is, not a tag it was given. In a filter those todod keeps
/// ask for its fields (the state, a span of due days, waiting); `+OVERDUE` used to ask for
/// a tag nobody had, and `add x +OVERDUE` made one. Spans are whole days; `+OVERDUE` is read
/// at the filter's minute (`overdue`).
extension TaskwarriorWords {
    /// Every virtual tag of Taskwarrior 2.6, those todod can ask for or not: all of them
    /// are refused as tags of one's own.
    static let virtualTags: Set<String> = [
        "ACTIVE", "ANNOTATED", "BLOCKED", "BLOCKING", "CHILD", "COMPLETED", "DELETED", "DUE", "DUETODAY", "INSTANCE",
        "LATEST", "MONTH", "ORPHAN", "OVERDUE", "PARENT", "PENDING", "PRIORITY", "PROJECT", "QUARTER", "READY",
        "SCHEDULED", "TAGGED", "TEMPLATE", "TODAY", "TOMORROW", "UDA", "UNBLOCKED", "UNTIL", "WAITING", "WEEK", "YEAR", "YESTERDAY",
    ]

    /// The virtual tags a filter takes, for messages and help.
    public static let virtualTagsTaken =
        "+OVERDUE, +DUE, +TODAY, +TOMORROW, +YESTERDAY, +WEEK, +MONTH, +QUARTER, +YEAR, +PENDING, +COMPLETED, +DELETED, +WAITING, +ACTIVE, +BLOCKED (-BLOCKED, +UNBLOCKED), +BLOCKING (-BLOCKING), +READY, +SCHEDULED and +UNTIL"

    mutating func applyVirtualTag(_ name: String, word: String, use: Use, today: LocalDate) throws(TaskwarriorWordError) {
        guard use == .filter else { throw .virtualTag(word: word, name: name) }
        let asked = word.hasPrefix("+")
        // Derived from other todos, so leaving them out reads as well as asking for them.
        switch name {
        case "BLOCKED", "UNBLOCKED": return try Self.ask(&blocked, name: "blocked", asked == (name == "BLOCKED"), word: word)
        case "BLOCKING": return try Self.ask(&blocking, name: "blocking", asked, word: word)
        default: break
        }
        guard asked else { throw .virtualTagLeftOut(word: word) }
        switch name {
        case "OVERDUE":
            // Taskwarrior's overdue is pending and due before now: its minute is the filter's.
            try ask(status: .open, word: word)
            overdue = true
        case "TODAY", "DUETODAY": try ask(due: today, word: word, use: use)
        case "TOMORROW": try ask(due: today.adding(days: 1), word: word, use: use)
        case "YESTERDAY": try ask(due: today.adding(days: -1), word: word, use: use)
        // Taskwarrior's DUE: due today or within its `rc.due` days (7) after, not overdue.
        case "DUE": narrow(after: today.adding(days: -1), before: today.adding(days: 7))
        case "WEEK": narrow(after: today.startOfWeek.adding(days: -1), before: today.endOfWeek.adding(days: 1))
        case "MONTH": narrow(after: today.startOfMonth.adding(days: -1), before: today.endOfMonth.adding(days: 1))
        case "QUARTER":
            let start = today.startOfMonth.adding(months: -((today.month - 1) % 3))
            narrow(after: start.adding(days: -1), before: start.adding(months: 3))
        case "YEAR": narrow(after: today.startOfYear.adding(days: -1), before: today.endOfYear.adding(days: 1))
        case "PENDING": try ask(status: .open, word: word)
        case "COMPLETED": try ask(status: .completed, word: word)
        case "DELETED": try ask(status: .deleted, word: word)
        case "WAITING": waiting = true
        case "ACTIVE": active = true
        // Taskwarrior's: pending (open, not waiting), not blocked, not scheduled after now.
        case "READY":
            try ask(status: .open, word: word)
            ready = true
        case "SCHEDULED": hasScheduled = true
        case "UNTIL": hasUntil = true
        default: throw .virtualTagNotTaken(word: word, name: name)
        }
    }

    /// `+BLOCKED` and `-BLOCKED` (or `+BLOCKING`, `-BLOCKING`) together could match nothing.
    private static func ask(_ condition: inout Bool?, name: String, _ wanted: Bool, word: String) throws(TaskwarriorWordError) {
        if let condition, condition != wanted {
            throw .secondValueInFilter(word: word, name: "state", earlier: condition ? name : "not \(name)")
        }
        condition = wanted
    }

    /// A state: a todo has one, so a second, different one could match nothing.
    private mutating func ask(status asked: TodoFilter.Status, word: String) throws(TaskwarriorWordError) {
        if let status, status != asked { throw .secondValueInFilter(word: word, name: "state", earlier: status.rawValue) }
        status = asked
    }

    /// Due strictly after `after` and before `before`: with a span asked before, both hold.
    private mutating func narrow(after: LocalDate, before: LocalDate) {
        dueBefore = min(dueBefore ?? before, before)
        dueAfter = max(dueAfter ?? after, after)
    }
}
