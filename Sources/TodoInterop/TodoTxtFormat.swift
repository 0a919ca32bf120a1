import Foundation
import TodoModel

/// todo.txt (one todo a line): `x 2026-11-20 2026-11-01 Call mum +family @phone due:2026-11-22`.
///
/// Priority (A) / (B) / (C) is high / normal / low (D–Z low; the letter is kept); `+word`
/// is the tag `word`, `@word` the tag `@word`, and `+project:home.garden` (a todo.txt project,
/// so other apps list it as one) the todo's project; `due:` the due day, and its time of day
/// when it has one (`due:2026-12-24T15:00`, local, as Taskwarrior's `due:` takes it). todod's id travels as
/// `uid:`; a line without one gets an id made from its text and creation day, so importing
/// the same file again changes nothing. `rec:1w` / `rec:+1w` is the recurrence (from
/// completion / from the due date); `t:` (the threshold day, Simpletask's) is the day the todo
/// waits for (`t:2026-12-24T08:30` with a time). Other `key:value` pairs (`h:`, a `rec:` todod cannot hold) are kept and written back. Deleted todos are not written: todo.txt has no such state.
public enum TodoTxtFormat {
    /// The key of `Todo.foreign` for a line's other `key:value` pairs.
    public static let foreignKey = "todotxt"

    /// The todos of a todo.txt file; blank lines are skipped. `now` stamps them as changed
    /// now: todo.txt records no change times.
    public static func decode(_ text: String, now: Date, zone: TimeZone = .current) throws(InteropError) -> [ImportedTodo] {
        var todos: [ImportedTodo] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            todos.append(try todo(trimmed, position: "line \(index + 1)", now: now, zone: zone))
        }
        return todos
    }

    /// One line per todo that is not deleted.
    public static func encode(_ todos: [Todo], zone: TimeZone = .current) -> String {
        todos.filter { !$0.isDeleted }.map { line($0, zone: zone) + "\n" }.joined()
    }

    // MARK: Reading

    private static func todo(_ line: String, position: String, now: Date, zone: TimeZone) throws(InteropError) -> ImportedTodo {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)[...]
        var isDone = false, doneDay: LocalDate?
        if words.first == "x" {
            isDone = true
            words.removeFirst()
            doneDay = words.first.flatMap(LocalDate.init)
            if doneDay != nil { words.removeFirst() }
        }
        var letter: Character?
        if !isDone, let first = words.first, first.count == 3, first.hasPrefix("("), first.hasSuffix(")"),
            let candidate = first.dropFirst().first, candidate.isUppercase, candidate.isASCII {
            letter = candidate
            words.removeFirst()
        }
        let created = words.first.flatMap(LocalDate.init)
        if created != nil { words.removeFirst() }
        var title: [String] = [], tags: [String] = [], kept: [String] = []
        var due: Moment?, wait: Moment?, id: UUID?, rule: Recurrence?, project: String?
        let projectWord = "+" + TodoFilter.projectTagPrefix
        for word in words {
            if project == nil, word.count > projectWord.count, word.hasPrefix(projectWord) {
                project = String(word.dropFirst(projectWord.count))
                continue
            }
            if word.count > 1, word.hasPrefix("+") { tags.append(String(word.dropFirst())); continue }
            if word.count > 1, word.hasPrefix("@") { tags.append(word); continue }
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex, word.index(after: colon) != word.endIndex,
                !word.contains("//")
            else { title.append(word); continue }
            let key = word[..<colon], value = String(word[word.index(after: colon)...])
            switch key {
            case "due":
                guard let moment = moment(value) else {
                    throw InteropError(position, "due:\(value) is not a day like due:2026-11-22, or a day and time like due:2026-11-22T15:00")
                }
                due = moment
            case "uid":
                guard let uuid = UUID(uuidString: value) else { throw InteropError(position, "uid:\(value) is not a UUID") }
                id = uuid
            case "pri" where value.count == 1 && letter == nil:
                letter = value.first
            case "t" where moment(value) != nil && wait == nil:
                wait = moment(value)
            case "rec" where recurrence(value) != nil && rule == nil:
                rule = recurrence(value)
            default:
                kept.append(word)
            }
        }
        guard !title.isEmpty else { throw InteropError(position, "has no text besides its tags and fields") }
        // A local time the zone's clocks skip is read as the time RFC 5545's instant shows, as iCalendar's is.
        due = due.map { BasicTime.existing($0.day, $0.time, in: zone) }
        wait = wait.map { BasicTime.existing($0.day, $0.time, in: zone) }
        let text = title.joined(separator: " ")
        if let letter, !"AC".contains(letter) { kept.insert("pri:\(letter)", at: 0) }
        let createdAt = created.map { BasicTime.midnight(of: $0, in: zone) } ?? now
        let completedAt: Date? = isDone ? doneDay.map { BasicTime.midnight(of: $0, in: zone) } ?? now : nil
        return ImportedTodo(
            id: id ?? StableID.uuid(for: "todo.txt\n\(created?.description ?? "")\n\(text)"), title: text,
            priority: priority(letter), due: due?.day, tags: tags, createdAt: createdAt, updatedAt: now,
            completedAt: completedAt, foreign: kept.isEmpty ? [:] : [foreignKey: kept.joined(separator: " ")], recurrence: rule,
            wait: wait?.day, project: project, source: foreignKey, dueTime: due?.time, waitTime: wait?.time, carriesTimes: true)
    }

    /// A day and its time of day, nil for the whole day.
    typealias Moment = (day: LocalDate, time: TimeOfDay?)

    /// `2026-12-24` (the whole day) or `2026-12-24T15:00`, as `text(_:_:)` writes them.
    static func moment(_ value: String) -> Moment? {
        guard value.count == 16 else { return LocalDate(value).map { ($0, nil) } }
        let day = value.prefix(10), separator = value.dropFirst(10).first, time = value.suffix(5)
        guard separator == "T", let date = LocalDate(String(day)), let clock = TimeOfDay(String(time)) else { return nil }
        return (date, clock)
    }

    /// `2026-12-24`, or `2026-12-24T15:00` with a time.
    static func text(_ day: LocalDate, _ time: TimeOfDay?) -> String {
        time.map { "\(day)T\($0)" } ?? day.description
    }

    /// The `rec:` extension (Simpletask, topydo): `rec:1w` counts from completion, `rec:+1w`
    /// from the due date; units d, w, m, y, and b (business days, one at a time). nil for
    /// anything else, which is kept as it was written.
    static func recurrence(_ value: String) -> Recurrence? {
        let fromDue = value.hasPrefix("+")
        let body = fromDue ? value.dropFirst() : Substring(value)
        guard let last = body.last else { return nil }
        let digits = body.dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = digits.isEmpty ? 1 : Int(digits) else { return nil }
        let basis: Recurrence.Basis = fromDue ? .due : .completion
        if last == "b" { return count == 1 ? Recurrence(count: 1, unit: .weekday, basis: basis) : nil }
        guard let unit = Recurrence.Unit(rawValue: String(last)), (1...Recurrence.maximumCount).contains(count) else { return nil }
        return Recurrence(count: count, unit: unit, basis: basis)
    }

    /// todod's rule as `rec:`.
    static func recText(_ rule: Recurrence) -> String {
        (rule.basis == .due ? "+" : "") + (rule.unit == .weekday ? "1b" : "\(rule.count)\(rule.unit.rawValue)")
    }

    private static func priority(_ letter: Character?) -> Priority {
        switch letter {
        case "A": .high
        case "B", nil: .normal
        default: .low
        }
    }

    // MARK: Writing

    private static func line(_ todo: Todo, zone: TimeZone) -> String {
        var kept = todo.foreign[foreignKey].map { $0.split(separator: " ").map(String.init) } ?? []
        // todod's rule is written as `rec:`; a kept one it replaced would contradict it.
        if todo.recurrence != nil { kept.removeAll { $0.hasPrefix("rec:") } }
        var letter: Character? = switch todo.priority {
        case .high: "A"
        case .normal: nil
        case .low: "C"
        }
        if let index = kept.firstIndex(where: { $0.hasPrefix("pri:") }) {
            let original = kept.remove(at: index).dropFirst(4).first
            if priority(original) == todo.priority { letter = original }
        }
        var words: [String] = []
        let created = LocalDate(todo.createdAt, in: zone).description
        if let done = todo.completedAt {
            words += ["x", LocalDate(done, in: zone).description, created, todo.title]
            if let letter { kept.insert("pri:\(letter)", at: 0) }
        } else {
            if let letter { words.append("(\(letter))") }
            words += [created, todo.title]
        }
        if let project = todo.project { words.append("+" + TodoFilter.projectTagPrefix + project) }
        words += todo.tags.map { $0.hasPrefix("@") ? $0 : "+" + $0 }
        if let due = todo.due { words.append("due:" + text(due, todo.dueTime)) }
        if let rule = todo.recurrence { words.append("rec:" + recText(rule)) }
        if let wait = todo.wait { words.append("t:" + text(wait, todo.waitTime)) }
        words += kept
        words.append("uid:\(todo.id.uuidString.lowercased())")
        return words.joined(separator: " ")
    }
}
