import ArgumentParser
import TodoModel
import TodoViewModel

/// The planning options `add` and `edit` share: recurrence, parent, dependencies, wait, until.
struct PlanningOptions: ParsableArguments {
    // Unconditional: a value may start with a dash (`--wait -1d`, `--parent -1`), which read as
    // an option ("Missing value"); now it is read, and refused with why where it is none.
    @Option(parsing: .unconditional, help: ArgumentHelp("Repeat from the due date (which it then needs): \(Recurrence.typedForms).", valueName: "period"), transform: Recurrence.checked)
    var every: Recurrence?
    @Option(parsing: .unconditional, help: ArgumentHelp("Repeat from completion: due this long after it is done.", valueName: "period"), transform: Recurrence.checked)
    var everyAfter: Recurrence?
    @Option(parsing: .unconditional, help: ArgumentHelp("Make it a subtask of this todo (its number; one level deep).", valueName: "number"), transform: ParentNumber.checked)
    var parent: ParentNumber?
    @Option(help: ArgumentHelp("Make it wait for these todos (their numbers, comma-separated), as depends:3,5 does.", valueName: "numbers"), transform: DependsNumbers.checked)
    var depends: DependsNumbers?
    @Option(parsing: .unconditional, help: ArgumentHelp("Hide it from the default list until this day (or this time of it): \(DueDateParser.accepted); or \(DueDateParser.acceptedTimes).", valueName: "date"), transform: DueDateArgument.checked)
    var wait: DueDateArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Keep it open through this day, as until:DATE does: deleted once the day has passed, and a repeat makes no todo due after it: \(DueDateParser.accepted).", valueName: "date"), transform: DueDateArgument.checkedDay)
    var until: DueDateArgument?

    func validate() throws {
        if every != nil && everyAfter != nil { throw ValidationError("--every and --every-after contradict each other: give one") }
    }

    /// The rule given, counted from the due date or from completion.
    var recurrence: Recurrence? {
        if let everyAfter { return Recurrence(count: everyAfter.count, unit: everyAfter.unit, basis: .completion) }
        return every
    }
}

/// `edit`'s planning options: those of `add`, and the flags that remove each.
struct PlanningEditOptions: ParsableArguments {
    @OptionGroup var set: PlanningOptions
    @Flag(help: "Stop repeating.") var noEvery = false
    @Flag(help: "Make it a todo of its own again.") var noParent = false
    @Flag(help: "Make it wait for no todo (depends: does too).") var noDepends = false
    @Flag(help: "Stop waiting: show it in the default list now.") var noWait = false
    @Flag(help: "Keep it open for good: no until day (until: does too).") var noUntil = false

    func validate() throws {
        for (given, flag, option) in [
            (set.recurrence != nil && noEvery, "--no-every", "--every"), (set.parent != nil && noParent, "--no-parent", "--parent"),
            (set.wait != nil && noWait, "--no-wait", "--wait"), (set.depends != nil && noDepends, "--no-depends", "--depends"),
            (set.until != nil && noUntil, "--no-until", "--until"),
        ] where given {
            throw ValidationError("\(option) and \(flag) contradict each other: give one")
        }
    }

    /// `edit` with these options' fields set.
    func applied(to edit: TodoEdit) -> TodoEdit {
        var edit = edit
        edit.recurrence = set.recurrence
        edit.clearRecurrence = noEvery
        edit.parent = set.parent?.number
        edit.clearParent = noParent
        edit.wait = set.wait?.date
        edit.waitTime = set.wait?.time
        edit.clearWait = noWait
        edit.until = set.until?.date
        edit.clearUntil = noUntil
        edit.addDepends = set.depends?.numbers ?? []
        edit.clearDepends = noDepends
        return edit
    }
}

extension Recurrence: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(typed: argument)
    }

    /// For `transform:`: the period `text` gives, or why it gives none (ArgumentParser said
    /// only "The value '0d' is invalid").
    static func checked(_ text: String) throws -> Recurrence {
        if let recurrence = Recurrence(typed: text) { return recurrence }
        let count = text.dropLast()
        if let unit = text.last, "dwmy".contains(unit), !count.isEmpty, count.allSatisfy(\.isNumber) {
            throw ValidationError("\(text): a period counts 1 to \(maximumCount) days (d), weeks (w), months (m) or years (y), not \(count); give 1\(unit) to \(maximumCount)\(unit)")
        }
        throw ValidationError("\(text) is not a period: give \(typedForms)")
    }
}

/// Todo numbers as typed for `--depends`: `3,5` or `#3,#5`.
struct DependsNumbers {
    let numbers: [Int]

    /// For `transform:`: the numbers `text` gives, or why it gives none.
    static func checked(_ text: String) throws -> DependsNumbers {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { ParentNumber(argument: String($0))?.number }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--depends \(text): give the numbers of the todos it waits for, comma-separated, as 3,5 or #3,#5 (todoctl list shows them)")
        }
        return DependsNumbers(numbers: numbers.compactMap { $0 })
    }
}

/// A todo number as typed for a parent: `12` or `#12`.
struct ParentNumber: ExpressibleByArgument {
    let number: Int

    init?(argument: String) {
        let digits = argument.hasPrefix("#") ? argument.dropFirst() : Substring(argument)
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(digits), number > 0
        else { return nil }
        self.number = number
    }

    /// For `transform:`: the parent `text` names, or why it names none.
    static func checked(_ text: String) throws -> ParentNumber {
        if let parent = ParentNumber(argument: text) { return parent }
        let digits = text.hasPrefix("#") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let number = !digits.isEmpty && digits.allSatisfy(\.isNumber) ? "todos are numbered from 1 (#1, #2 …)" : "a parent is named by its number"
        throw ValidationError("\(text) is not a todo: \(number); give the parent's number, as 12 or #12 (todoctl list shows them)")
    }
}
