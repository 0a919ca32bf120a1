/// A word shaped like a Taskwarrior modifier that `TaskwarriorWords` cannot take. Each case
/// keeps the word and what was meant; `message` says what is wrong, and a client adds its
/// own advice (a flag, a key) where `advice` is not enough.
public enum TaskwarriorWordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `prio:H`: no modifier of that name; `suggestion` is the one probably meant.
    case unknownModifier(word: String, name: String, suggestion: String?)
    /// `due:tomorow`, `pri:X`, `due:2026-02-30`: the value does not read.
    case unreadableValue(word: String, name: String, value: String, accepted: String, suggestion: String?, reason: String?)
    /// `due:` with nothing after it, where nothing cannot mean "remove".
    case missingValue(word: String, name: String)
    /// `wait:` or `recur:` in a filter: a filter cannot ask for it yet.
    case notInFilter(word: String, name: String)
    /// `due.by:fri`, `wait.before:fri`: Taskwarrior's other attribute modifiers (todod reads a day's
    /// `.before:` and `.after:`) are not read yet.
    case attributeModifier(word: String, name: String, modifier: String)
    /// `-shop` when adding: a new todo has no tag to remove.
    case removalInAdd(word: String)
    /// A plain word in a filter, which takes only modifiers.
    case wordInFilter(word: String)
    /// `+OVERDUE` in an add or an edit: a virtual tag says what a todo is, and is no tag to give.
    case virtualTag(word: String, name: String)
    /// `-OVERDUE` in a filter: todod's filter cannot leave out what a virtual tag asks for.
    case virtualTagLeftOut(word: String)
    /// `+BLOCKED`: a virtual tag for what todod does not keep, or cannot filter by, yet.
    case virtualTagNotTaken(word: String, name: String)
    /// `pri:H pri:L` in a filter: a todo has one priority and one due date, so a second,
    /// different one could match nothing (`earlier` is the one given first, as read).
    case secondValueInFilter(word: String, name: String, earlier: String)
    /// `pri:H pri:L`, `due:fri due:mon`, `project:a project:b` in an add or an edit: a todo has
    /// one of each, and the last silently won (`earlier` is the word that gave it first).
    case secondValue(word: String, name: String, earlier: String)

    /// The word refused.
    public var word: String {
        switch self {
        case .unknownModifier(let word, _, _), .unreadableValue(let word, _, _, _, _, _), .missingValue(let word, _),
            .notInFilter(let word, _), .attributeModifier(let word, _, _), .removalInAdd(let word),
            .wordInFilter(let word), .secondValueInFilter(let word, _, _), .secondValue(let word, _, _), .virtualTag(let word, _), .virtualTagLeftOut(let word),
            .virtualTagNotTaken(let word, _):
            word
        }
    }

    /// What is wrong, and what to type instead where the grammar alone knows it.
    public var message: String {
        switch self {
        case .unknownModifier(_, let name, let suggestion):
            let meant = suggestion.map { "did you mean \(TaskwarriorWordShape.spelled($0))?" }
                ?? "the modifiers are +tag, -tag, project:, due:, wait:, priority: (pri:) and recur:"
            return "\(name): is not a modifier; \(meant)"
        case .unreadableValue(let word, let name, let value, let accepted, let suggestion, let reason):
            if let reason { return "\(word): \(reason.hasPrefix(value) ? String(reason.dropFirst(value.count + 2)) : reason)" }
            let meant = suggestion.map { "did you mean \(name):\($0)? " } ?? ""
            let what = switch name {
            case "recur": "a period"
            case "priority": "a priority"
            case "depends": "todo numbers"
            default: "a date"
            }
            return "\(word): \"\(value)\" is not understood as \(what); \(meant)\(name): takes \(accepted)"
        case .missingValue(let word, let name):
            return "\(word) needs a value after the colon (\(TaskwarriorWordShape.spelled(name)))"
        case .notInFilter(let word, let name):
            return "\(word): a filter cannot ask for \(name == "wait" ? "a wait date" : "a repeat period") yet"
        case .attributeModifier(let word, let name, let modifier):
            return "\(word): \(name).\(modifier): is not understood yet (Taskwarrior's attribute modifiers)"
        case .removalInAdd(let word):
            return "\(word) removes the tag \(word.dropFirst()), and a new todo has no tags to remove"
        case .wordInFilter(let word):
            return "\"\(word)\" is not a modifier: a filter takes +tag, -tag, project:, due: and priority: (pri:)"
        case .virtualTag(let word, let name):
            return "\(word): \(name) is one of Taskwarrior's virtual tags, which say what a todo is (due, done …): it cannot be added or removed; give a tag of your own, a name that is not one of Taskwarrior's virtual tags"
        case .virtualTagLeftOut(let word):
            return "\(word): a filter cannot leave out a virtual tag yet; ask for what you want instead (+PENDING, --due-before DATE, --due-after DATE, --no-due)"
        case .virtualTagNotTaken(let word, let name):
            return "\(word): todod cannot filter by the virtual tag \(name) yet; it takes \(TaskwarriorWords.virtualTagsTaken)"
        case .secondValueInFilter(let word, let name, let earlier):
            return "\(word): the filter already asks for \(name) \(earlier), and a todo has one \(name): give one"
        case .secondValue(let word, let name, let earlier):
            return "\(earlier) and \(word) both give the \(name), and a todo has one: give one of them"
        }
    }

    public var description: String { message }
}
