import Foundation
import TodoModel

/// Taskwarrior's `task export` (2.6 and 3): a JSON array of tasks, read by `task import`.
///
/// `uuid` is the todo's id; `project` is the todo's project (`home.garden`); annotations are the
/// todo's annotations, with their times (and the notes, which Taskwarrior has not, go out
/// as annotations dated by their leading day, as before todod had annotations); `recur` is also the todo's recurrence when todod can hold it
/// (Taskwarrior's `parent` names a recurrence's template, not a parent todo: it is not a
/// subtask link; a template and its instances are one todo, see `TaskwarriorSeries`); `wait`
/// is the day the todo waits for, `scheduled` the day work on it may begin (each, and `due`, with
/// its local time of day unless it is the whole day: `TaskwarriorFormat.instant`), `until` the last day it is kept open; `start` is when it was started (`todoctl start`); `depends`
/// names the todos it waits for (their uuids, as todod keeps them). Everything else of the task (its status words, the exact
/// time of `until`, `recur`, user-defined attributes, and the seconds behind a due minute) is kept in `foreign["taskwarrior"]` and written back as it was while the todo's
/// own fields still say the same, so a round trip through todod loses nothing.
public enum TaskwarriorFormat {
    /// The key of `Todo.foreign` for a task's other fields (a JSON object's text).
    public static let foreignKey = "taskwarrior"
    /// The fields Taskwarrior computes (urgency changes with age): keeping them would make
    /// every re-import look like a change; `task import` computes them again.
    static let computed: Set<String> = ["id", "urgency"]

    /// The tasks of `task export` output: a JSON array, or (Taskwarrior before 2.6) one task per line.
    public static func decode(_ data: Data, zone: TimeZone = .current) throws(InteropError) -> [ImportedTodo] {
        let tasks: [InteropJSON]
        if case .array(let array)? = try? JSONDecoder().decode(InteropJSON.self, from: data) {
            tasks = array
        } else {
            tasks = try lines(data)
        }
        var objects: [[String: InteropJSON]] = []
        for (index, task) in tasks.enumerated() {
            guard case .object(let fields) = task else { throw InteropError("task \(index + 1)", "is not a JSON object") }
            objects.append(fields)
        }
        var todos: [ImportedTodo] = []
        for (index, series) in TaskwarriorSeries.folded(objects) {
            todos.append(try todo(objects[index], series: series, position: "task \(index + 1)", zone: zone))
        }
        return todos
    }

    /// `task import` input: one task per line inside a JSON array.
    /// `now`: when, for the instances Taskwarrior makes ahead as it reads a series todod made
    /// (see `TaskwarriorSeries`).
    public static func encode(_ todos: [Todo], zone: TimeZone = .current, now: Date = Date()) -> Data {
        let tasks = TaskwarriorSeries.written(todos, zone: zone, today: LocalDate(now, in: zone)) { task($0, original: $1, uuid: $2, zone: zone) }
        let lines = tasks.map { InteropJSON.object($0).text }
        return Data(("[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
    }

    /// `imported`, read from `task export`, with each task todod holds under another id (an
    /// occurrence todod made, written as the instance Taskwarrior had made ahead) given that
    /// todo's id: `current` is every todo todod has, deleted ones too.
    public static func matched(_ imported: [ImportedTodo], to current: [Todo], zone: TimeZone = .current) -> [ImportedTodo] {
        TaskwarriorSeries.matched(imported, to: current, zone: zone)
    }

    /// Whether `matched` needs todod's todos for `imported`: only a recurrence's instance can
    /// be an occurrence todod made (a large import without one need not list them all first).
    public static func needsMatching(_ imported: [ImportedTodo]) -> Bool {
        TaskwarriorSeries.hasInstances(imported)
    }

    // MARK: Reading

    private static func lines(_ data: Data) throws(InteropError) -> [InteropJSON] {
        var tasks: [InteropJSON] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let task = InteropJSON(text: text) else {
                throw InteropError("line \(number + 1)", "is not JSON: expected the output of `task export` (a JSON array of tasks)")
            }
            tasks.append(task)
        }
        return tasks
    }

    private static func todo(_ fields: [String: InteropJSON], series: String?, position: String, zone: TimeZone) throws(InteropError)
        -> ImportedTodo
    {
        guard let uuidText = fields["uuid"]?.string, let id = UUID(uuidString: uuidText) else {
            throw InteropError(position, "has no valid uuid (got \(fields["uuid"]?.text ?? "none")); every exported task has one")
        }
        let position = "\(position) (\(uuidText))"
        guard let title = fields["description"]?.string else {
            throw InteropError(position, fields["description"].map { "description is \($0.text), not a string" } ?? "has no description")
        }
        func time(_ key: String) throws(InteropError) -> Date? {
            guard let value = fields[key] else { return nil }
            guard let text = value.string, let instant = BasicTime.instant(text, in: zone) else {
                throw InteropError(position, "\(key) is \(value.text), not a time like 20261122T153000Z")
            }
            return instant
        }
        // A day and its local time of day (none at local midnight: the whole day).
        func moment(_ key: String) throws(InteropError) -> (day: LocalDate, time: TimeOfDay?)? {
            try time(key).map { reading($0, zone: zone) }
        }
        let due = try moment("due"), wait = try moment("wait"), scheduled = try moment("scheduled")
        let entry = try time("entry") ?? Date(timeIntervalSince1970: 0)
        let modified = try time("modified") ?? entry
        let end = try time("end") ?? modified
        let status = fields["status"]?.string ?? "pending"
        let tags = (fields["tags"].flatMap(stringArray) ?? [])
        let annotations = try (fields["annotations"].flatMap(annotationList) ?? []).map { annotation throws(InteropError) in
            guard annotation.entry.isEmpty else {
                guard let instant = BasicTime.instant(annotation.entry, in: zone) else {
                    throw InteropError(position, "an annotation's entry is \"\(annotation.entry)\", not a time like 20261122T153000Z")
                }
                return Annotation(entry: instant, description: annotation.text)
            }
            // Taskwarrior always writes one; a hand-made task without is dated by the task.
            return Annotation(entry: entry, description: annotation.text)
        }
        var foreign = fields
        for key in ["uuid", "description", "entry", "modified", "start", "depends"] + computed { foreign.removeValue(forKey: key) }
        var kept = foreign.isEmpty ? [:] : [foreignKey: InteropJSON.object(foreign).text]
        kept[TaskwarriorSeries.foreignKey] = series
        return ImportedTodo(
            id: id, title: title,
            priority: priority(fields["priority"]?.string), due: due?.day,
            tags: tags, createdAt: entry, updatedAt: modified,
            completedAt: status == "completed" ? end : nil, deletedAt: status == "deleted" ? end : nil,
            foreign: kept,
            recurrence: fields["recur"]?.string.flatMap(recurrence), wait: wait?.day,
            annotations: annotations, project: fields["project"]?.string,
            started: status == "pending" || status == "waiting" ? try time("start") : nil, carriesStart: true,
            depends: try dependencies(fields["depends"], position: position),
            scheduled: scheduled?.day, until: try time("until").map { LocalDate($0, in: zone) },
            source: foreignKey, dueTime: due?.time, waitTime: wait?.time, scheduledTime: scheduled?.time, carriesTimes: true)
    }

    /// Taskwarrior's `depends`: an array of uuids (2.6.2's export and 3's), or one string of
    /// them comma-separated (2.5 and 2.6.0's); none is an empty list, so an import clears them.
    private static func dependencies(_ value: InteropJSON?, position: String) throws(InteropError) -> [UUID] {
        guard let value else { return [] }
        let texts = value.string.map { $0.split(separator: ",").map(String.init) } ?? stringArray(value)
        guard let texts else { throw InteropError(position, "depends is \(value.text), not uuids (an array of them, or one string of them comma-separated)") }
        return try texts.map { text throws(InteropError) in
            guard let id = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
                throw InteropError(position, "depends holds \"\(text)\", not a uuid: a task depends on others by their uuids")
            }
            return id
        }
    }

    /// Taskwarrior's `recur` (`weekly`, `2weeks`, `quarterly`, `weekdays`, …) as todod's
    /// rule, counted from the due date as Taskwarrior does; nil for what todod cannot hold
    /// (minutes, hours, ISO periods), which stays in the foreign fields only. Read as add's
    /// `recur:` reads it (`Recurrence(typed:)`), so that each takes what the other takes.
    static func recurrence(_ text: String) -> Recurrence? {
        Recurrence(typed: text)
    }

    /// todod's rule as Taskwarrior's `recur` (it counts from the due date only).
    static func recurText(_ rule: Recurrence) -> String {
        if rule.unit == .weekday { return "weekdays" }
        let names: [Recurrence.Unit: (one: String, many: String)] = [
            .day: ("daily", "days"), .week: ("weekly", "weeks"), .month: ("monthly", "months"), .year: ("yearly", "years"),
        ]
        let name = names[rule.unit] ?? ("daily", "days")
        return rule.count == 1 ? name.one : "\(rule.count)\(name.many)"
    }

    private static func stringArray(_ value: InteropJSON) -> [String]? {
        guard case .array(let items) = value else { return nil }
        return items.compactMap(\.string)
    }

    private static func annotationList(_ value: InteropJSON) -> [(entry: String, text: String)]? {
        guard case .array(let items) = value else { return nil }
        return items.compactMap { item in
            guard case .object(let fields) = item, let text = fields["description"]?.string else { return nil }
            return (fields["entry"]?.string ?? "", text)
        }
    }

    private static func priority(_ text: String?) -> Priority {
        switch text {
        case "H": .high
        case "L": .low
        default: .normal
        }
    }

    /// One line per annotation: `2026-11-23 first draft sent` (the day it was made).
    private static func notes(_ annotations: [(entry: String, text: String)], zone: TimeZone) -> String {
        annotations.map { annotation in
            let day = BasicTime.instant(annotation.entry, in: zone).map { LocalDate($0, in: zone).description }
            return day.map { "\($0) \(annotation.text)" } ?? annotation.text
        }.joined(separator: "\n")
    }

    // MARK: Writing

    /// `todo` written over `original`, the task's fields as they came (or as `TaskwarriorSeries`
    /// gives them to an occurrence todod made), as the task `uuid`.
    private static func task(_ todo: Todo, original: [String: InteropJSON], uuid: String, zone: TimeZone) -> [String: InteropJSON] {
        var task = original
        task["uuid"] = .string(uuid)
        task["description"] = .string(todo.title)
        task["entry"] = .string(BasicTime.utcText(todo.createdAt))
        task["modified"] = .string(BasicTime.utcText(todo.updatedAt))
        let openStatus = original["status"]?.string.flatMap { ["pending", "waiting", "recurring"].contains($0) ? $0 : nil }
        task["status"] = .string(todo.isDeleted ? "deleted" : todo.isCompleted ? "completed" : openStatus ?? "pending")
        task["end"] = (todo.deletedAt ?? todo.completedAt).map { .string(BasicTime.utcText($0)) }
        if priority(original["priority"]?.string) != todo.priority {
            task["priority"] = todo.priority == .normal ? nil : .string(todo.priority == .high ? "H" : "L")
        }
        task["due"] = moment("due", todo.due, todo.dueTime, original: original, zone: zone)
        task["wait"] = moment("wait", todo.wait, todo.waitTime, original: original, zone: zone)
        // Taskwarrior's recurrence needs a due date; an unmapped original `recur` stays as it was.
        let originalRule = original["recur"]?.string.flatMap(recurrence)
        if originalRule?.period != todo.recurrence?.period, todo.due != nil || todo.recurrence == nil {
            task["recur"] = todo.recurrence.map { .string(recurText($0)) } ?? (originalRule == nil ? original["recur"] : nil)
        }
        task["project"] = todo.project.map(InteropJSON.string)
        task["start"] = todo.started.map { .string(BasicTime.utcText($0)) }
        task["scheduled"] = moment("scheduled", todo.scheduled, todo.scheduledTime, original: original, zone: zone)
        // As `due`: the exact time comes back while the day is the same. todod keeps a todo
        // open through its until day: its last second (Taskwarrior's `eod`), so that task
        // expires it when todod does.
        let originalUntil = original["until"]?.string.flatMap { BasicTime.instant($0, in: zone) }.map { LocalDate($0, in: zone) }
        if originalUntil != todo.until {
            task["until"] = todo.until.map { .string(BasicTime.utcText(BasicTime.midnight(of: $0.adding(days: 1), in: zone).addingTimeInterval(-1))) }
        }
        // As the task had them when they are the same (its order, its form); else an array, as 2.6.2 exports.
        let originalDepends = try? dependencies(original["depends"], position: uuid)
        if originalDepends.map(Todo.dependencySet) != todo.depends {
            task["depends"] = todo.depends.isEmpty ? nil : .array(todo.depends.map { .string($0.uuidString.lowercased()) })
        }
        task["tags"] = todo.tags.isEmpty ? nil : .array(todo.tags.map(InteropJSON.string))
        task["annotations"] = annotations(todo, original: original["annotations"], zone: zone)
        return task
    }

    /// `due` (`wait`, `scheduled`) as Taskwarrior's UTC instant (`instant`). The task's own
    /// instant comes back while it reads as the same day and minute (its seconds, `eod`'s
    /// 23:59:59, are kept).
    private static func moment(
        _ key: String, _ day: LocalDate?, _ time: TimeOfDay?, original: [String: InteropJSON], zone: TimeZone
    ) -> InteropJSON? {
        guard let day else { return nil }
        if let kept = original[key], let instant = kept.string.flatMap({ BasicTime.instant($0, in: zone) }),
            reading(instant, zone: zone) == (day, time)
        {
            return kept
        }
        return .string(BasicTime.utcText(instant(of: day, at: time, zone: zone)))
    }

    /// A todo's day at its time of day as Taskwarrior's instant in `zone`: a whole day is local
    /// midnight, as `task add due:fri` stores it, and a time of 00:00 one second after, so that
    /// the two stay apart through task (which keeps its instants to the second, shown as
    /// 00:00:01 by `task info`): both went as midnight, and 00:00 came back as the whole day.
    static func instant(of day: LocalDate, at time: TimeOfDay?, zone: TimeZone) -> Date {
        BasicTime.instant(of: day, at: time, in: zone).addingTimeInterval(time?.minutes == 0 ? 1 : 0)
    }

    /// A task's instant as todod's day and time of day in `zone` (the seconds behind the minute
    /// dropped): no time at exactly local midnight, the whole day (`instant`).
    static func reading(_ instant: Date, zone: TimeZone) -> (day: LocalDate, time: TimeOfDay?) {
        let local = BasicTime.localTime(instant, in: zone)
        return (local.day, local.time.minutes == 0 && local.second == 0 ? nil : local.time)
    }

    /// The annotations with their times, then the notes as annotations: each line that reads
    /// as an original annotation (notes imported before todod had annotations) gives that one
    /// back; a line of its own becomes a new annotation, dated by its leading day if it has one.
    private static func annotations(_ todo: Todo, original: InteropJSON?, zone: TimeZone) -> InteropJSON? {
        var originals: [String: InteropJSON] = [:]
        if case .array(let items)? = original {
            for item in items {
                guard case .object(let fields) = item, let text = fields["description"]?.string else { continue }
                originals[notes([(fields["entry"]?.string ?? "", text)], zone: zone)] = item
            }
        }
        let annotated = todo.annotations.map { annotation -> InteropJSON in
            .object(["entry": .string(BasicTime.utcText(annotation.entry)), "description": .string(annotation.description)])
        }
        let items = annotated + todo.notes.split(separator: "\n").map { line -> InteropJSON in
            if let kept = originals[String(line)] { return kept }
            var text = String(line)
            var entry = todo.updatedAt
            if line.count > 11, let day = LocalDate(String(line.prefix(10))), line.dropFirst(10).first == " " {
                entry = BasicTime.midnight(of: day, in: zone)
                text = String(line.dropFirst(11))
            }
            return .object(["entry": .string(BasicTime.utcText(entry)), "description": .string(text)])
        }
        return items.isEmpty ? nil : .array(items)
    }
}
