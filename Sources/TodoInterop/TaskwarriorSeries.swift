import Foundation
import TodoModel

/// A Taskwarrior recurrence as todod's one repeating todo, both ways.
///
/// Taskwarrior keeps a template (`status: recurring`; its `mask` has a character per instance
/// made: `-` pending, `+` done, `X` deleted, `W` waiting) and makes instances of it (`parent`:
/// the template's uuid, `imask`: the instance's place in the mask), one for each place the
/// mask does not cover yet, up to one ahead of now (`due:today` makes today's and tomorrow's).
/// todod keeps one todo per series and makes the next occurrence itself when one is done. So:
/// - Reading, the earliest open instance is the todo; the template and the instances made
///   ahead of it travel with that todo (`Todo.foreign[foreignKey]`) instead of becoming todos
///   (each was one: the series came in twice or three times). A series with no open instance
///   gives them to its last instance; a template without instances stays a todo of its own.
/// - Writing, todod's next occurrence of an instance is Taskwarrior's instance at the next
///   place: the one Taskwarrior made ahead, by its uuid, or a new one under the same template,
///   whose mask is widened to cover it so that Taskwarrior makes no twin (written without
///   `parent`, as before, it became a second template). The template is written once, its mask
///   saying what became of each instance, with the rule, priority, project and tags todod gave
///   the series' latest todo.
/// - Reading again, a task that is a todod occurrence under a Taskwarrior uuid updates that
///   todo, which keeps the uuid among its Taskwarrior fields from then on.
/// - A series todod made (its first todo came from no Taskwarrior task) is written as
///   Taskwarrior would keep it: a template of its own, whose uuid is made from the first todo's
///   id (`templateID`, the same at every export), and that todo as its first instance (`imask`
///   0, the mask `-`), under its own uuid. Written as one task with `recur` and no `parent`,
///   `task import` made that task the template, under the todo's uuid, and an instance of it
///   under a new one, which came back as a second todo. Read back, that instance is the todo
///   and carries the template, as a series Taskwarrior made; todod's next occurrences of it are
///   the template's next places, as above. A todo done without a next occurrence ended its
///   series: it is written alone, as it was (Taskwarrior keeps a done task with `recur` as it is).
///   The instances Taskwarrior makes as it reads such a template (each place due by today, and
///   one more) todod writes itself, under uuids made from the template's and the place: an
///   export written again before Taskwarrior's comes back says the same, where a mask not
///   covering what Taskwarrior had made would have had it make them again. todod's occurrence
///   at a place one of those could have been written at (due by the day it was made) is that
///   instance, by its uuid; one made earlier keeps its own.
enum TaskwarriorSeries {
    /// The key of `Todo.foreign` for the series a todo carries: `{"template": {…}, "ahead": [{…}]}`.
    static let foreignKey = "taskwarrior.series"
    typealias Task = [String: InteropJSON]
    /// The most a todo carries of its series: half of what it may keep of other programs'
    /// fields (`TodoValidation.maximumForeignBytes`, 64 KiB), the rest left to its own.
    static let maximumCarriedBytes = 32 * 1024

    // MARK: Reading

    /// The places in `tasks` of those that become todos, each with the series it carries.
    static func folded(_ tasks: [Task]) -> [(index: Int, series: String?)] {
        var templates: [String: Int] = [:], instances: [String: [Int]] = [:]
        for (index, task) in tasks.enumerated() where task["status"]?.string == "recurring" {
            if let uuid = task["uuid"]?.string { templates[uuid] = index }
        }
        for (index, task) in tasks.enumerated() {
            if let parent = task["parent"]?.string, templates[parent] != nil { instances[parent, default: []].append(index) }
        }
        var folded = Set<Int>(), carried: [Int: String] = [:]
        for (uuid, members) in instances {
            guard let template = templates[uuid] else { continue }
            let ordered = members.sorted { (place(tasks[$0]) ?? .max, $0) < (place(tasks[$1]) ?? .max, $1) }
            let open = ordered.filter { ["pending", "waiting", nil].contains(tasks[$0]["status"]?.string) }
            guard let holder = open.first ?? ordered.last else { continue }
            // Without what Taskwarrior computes (see `TaskwarriorFormat.computed`).
            func kept(_ index: Int) -> InteropJSON { .object(tasks[index].filter { !TaskwarriorFormat.computed.contains($0.key) }) }
            // A daily series left alone for months has hundreds pending: those past what a
            // todo may carry stay todos of their own, as they were before, rather than refuse the import.
            var ahead: [InteropJSON] = [], bytes = kept(template).text.utf8.count
            for index in open.dropFirst() {
                bytes += kept(index).text.utf8.count
                guard bytes <= maximumCarriedBytes else { break }
                ahead.append(kept(index))
                folded.insert(index)
            }
            folded.insert(template)
            carried[holder] = InteropJSON.object(["template": kept(template), "ahead": .array(ahead)]).text
        }
        return tasks.indices.filter { !folded.contains($0) }.map { ($0, carried[$0]) }
    }

    // MARK: Writing

    /// How todos are written: the fields each is written over and its uuid, by todo number;
    /// its series' template and place; the templates and ahead instances the todos carry.
    struct Plan {
        var bases: [Int: Task] = [:]
        var uuids: [Int: String] = [:]
        var places: [Int: (template: String, imask: Int)] = [:]
        var templates: [String: Task] = [:]
        var ahead: [String: [Int: Task]] = [:]
        /// The templates of the series todod made, each with the number of its first todo.
        var made: [String: Int] = [:]
        /// Their rules and first due days: Taskwarrior's place N falls N periods after it.
        var grids: [String: Grid] = [:]
    }

    /// Whether `todo`, made in todod, begins a series Taskwarrior can hold: it repeats from a
    /// due day, and is open or was done with its next occurrence made (one done without a next
    /// ended its series: written as a template, Taskwarrior would start it again).
    private static func startsSeries(_ todo: Todo, repeated: Set<Int>) -> Bool {
        todo.recurrence != nil && todo.due != nil && !todo.isDeleted && (!todo.isCompleted || repeated.contains(todo.number))
    }

    /// The uuid of the template for the series todod began with `todo`: the same at every
    /// export, so that a series written twice before Taskwarrior's comes back is one template.
    static func templateID(of todo: Todo) -> String {
        StableID.uuid(for: "taskwarrior template\n" + todo.id.uuidString.lowercased()).uuidString.lowercased()
    }

    /// `today`, in `zone`: the day of the export (Taskwarrior's instances made ahead of a
    /// series todod made depend on it); nil for none of those past the series' todos.
    static func plan(_ todos: [Todo], zone: TimeZone, today: LocalDate?) -> Plan {
        var plan = Plan()
        let todos = todos.sorted { $0.number < $1.number }
        let repeated = Set(todos.compactMap(\.previous))
        // The carried series first: an occurrence may come before the todo carrying its next
        // instance. A later todo's copy wins: it came with a later import.
        for todo in todos {
            guard case .object(let series)? = todo.foreign[foreignKey].flatMap(InteropJSON.init(text:)),
                case .object(let template)? = series["template"], let uuid = template["uuid"]?.string
            else { continue }
            plan.templates[uuid] = template
            if case .array(let ahead)? = series["ahead"] {
                for case .object(let task) in ahead { if let imask = place(task) { plan.ahead[uuid, default: [:]][imask] = task } }
            }
        }
        let ids = Set(todos.map { $0.id.uuidString.lowercased() })
        // By number: an occurrence comes after the todo it repeats.
        for todo in todos {
            let original = fields(todo.foreign[TaskwarriorFormat.foreignKey])
            var base = original, uuid = original["uuid"]?.string ?? todo.id.uuidString.lowercased()
            if let template = original["parent"]?.string, let imask = place(original) {
                plan.places[todo.number] = (template, imask)
            } else if original.isEmpty, let previous = todo.previous, let repeated = plan.places[previous],
                let repeatedBase = plan.bases[previous]
            {
                // todod's occurrence of an instance: the instance at the next place.
                let imask = repeated.imask + 1
                plan.places[todo.number] = (repeated.template, imask)
                // In a series todod made, the instance an export wrote ahead at that place, if
                // one could have: Taskwarrior's place was due by the day this todo was made.
                if let grid = plan.grids[repeated.template], plan.ahead[repeated.template]?[imask] == nil,
                    let before = due(grid, imask - 1), before <= LocalDate(todo.createdAt, in: zone)
                {
                    plan.ahead[repeated.template, default: [:]][imask] = madeAhead(repeated.template, imask, grid: grid, zone: zone)
                }
                if let instance = plan.ahead[repeated.template]?[imask], let made = instance["uuid"]?.string, !ids.contains(made) {
                    (base, uuid) = (instance, made)
                } else {
                    base = repeatedBase
                    for key in ["end", "start", "uuid"] { base.removeValue(forKey: key) }
                    base["status"] = .string("pending")
                    base["imask"] = .number(Double(imask))
                }
            } else if original.isEmpty, startsSeries(todo, repeated: repeated), plan.templates[uuid] == nil {
                // A series todod made: its first todo is the first instance of a template of
                // its own (a task with `recur` and no `parent`, `task import` made a template
                // of, under the todo's uuid, and an instance of that under a new one: a twin).
                let template = templateID(of: todo)
                plan.places[todo.number] = (template, 0)
                plan.made[template] = todo.number
                if let rule = todo.recurrence, let first = todo.due {
                    plan.grids[template] = (Recurrence(count: rule.count, unit: rule.unit, dayOfMonth: rule.dayOfMonth), first, todo.dueTime)
                }
                base = ["parent": .string(template), "imask": .number(0), "rtype": .string("periodic")]
            }
            plan.bases[todo.number] = base
            plan.uuids[todo.number] = uuid
        }
        // Past a series todod made, the instances Taskwarrior makes as it reads the template
        // (every place due by today and one more, `recurrence.limit`'s 1), written by todod
        // under uuids of their own that are the same at each export: the mask covers them,
        // so an export written again before Taskwarrior's comes back makes none twice.
        var last: [String: Int] = [:]
        for (template, imask) in plan.places.values where plan.grids[template] != nil { last[template] = max(last[template] ?? 0, imask) }
        for (template, grid) in plan.grids where today != nil {
            var imask = (last[template] ?? 0) + 1
            while imask <= maximumMadeAhead, let before = due(grid, imask - 1), let today, before <= today, due(grid, imask) != nil {
                if plan.ahead[template]?[imask] == nil { plan.ahead[template, default: [:]][imask] = madeAhead(template, imask, grid: grid, zone: zone) }
                imask += 1
            }
        }
        return plan
    }

    /// The most instances written ahead of a series todod made: a daily one begun ten years back.
    static let maximumMadeAhead = 3700

    /// A series todod made: its rule, its first due day and the time of day every place is due at.
    typealias Grid = (rule: Recurrence, first: LocalDate, time: TimeOfDay?)

    /// The due day of place `imask` of a series todod made; nil past the calendar's end.
    private static func due(_ grid: Grid, _ imask: Int) -> LocalDate? {
        var day = grid.first
        for _ in 0..<imask {
            guard let next = grid.rule.nextDue(after: day, completedOn: day) else { return nil }
            day = next
        }
        return day
    }

    /// The instance Taskwarrior would make at `imask` of a series todod made, but for the
    /// template's fields (`written` adds them) and a uuid made from the template's and the place.
    private static func madeAhead(_ template: String, _ imask: Int, grid: Grid, zone: TimeZone) -> Task {
        let uuid = StableID.uuid(for: "taskwarrior instance\n\(template)\n\(imask)").uuidString.lowercased()
        var task: Task = ["uuid": .string(uuid), "parent": .string(template), "imask": .number(Double(imask)),
                          "status": .string("pending"), "rtype": .string("periodic")]
        // At the series' time, as Taskwarrior counts its instances from the template's due instant.
        task["due"] = due(grid, imask).map { .string(BasicTime.utcText(TaskwarriorFormat.instant(of: $0, at: grid.time, zone: zone))) }
        return task
    }

    /// The tasks for `todos`, in their order, each series' template and the instances it made
    /// ahead that no todo has become written just before its first todo. `task` writes a todo
    /// over the fields given, with the uuid given.
    static func written(_ todos: [Todo], zone: TimeZone, today: LocalDate, task: (Todo, Task, String) -> Task) -> [Task] {
        var plan = plan(todos, zone: zone, today: today)
        var written: [Int: Task] = [:]
        for todo in todos { written[todo.number] = task(todo, plan.bases[todo.number] ?? [:], plan.uuids[todo.number] ?? "") }
        // A template todod made is its first todo as Taskwarrior would have made it a template,
        // without what is that instance's own.
        for (uuid, first) in plan.made {
            var template = written[first] ?? [:]
            for key in ["parent", "imask", "end", "start", "annotations", "depends"] { template.removeValue(forKey: key) }
            template["uuid"] = .string(uuid)
            template["status"] = .string("recurring")
            template["mask"] = .string("")
            plan.templates[uuid] = template
        }
        let taken = Set(plan.uuids.values)
        var members: [String: [Todo]] = [:]
        for todo in todos { if let place = plan.places[todo.number] { members[place.template, default: []].append(todo) } }
        var result: [Task] = [], done = Set<String>()
        for todo in todos {
            if let template = plan.places[todo.number]?.template, let fields = plan.templates[template], done.insert(template).inserted {
                let made = self.template(fields, members: members[template] ?? [], plan: plan, written: written)
                result.append(made)
                var left = (plan.ahead[template] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
                if plan.made[template] != nil {
                    // Made as Taskwarrior makes an instance: the template's fields, the instance's own over them.
                    left = left.map { instance in made.filter { $0.key != "mask" }.merging(instance) { $1 } }
                }
                result += left.filter { !taken.contains($0["uuid"]?.string ?? "") }
            }
            // A template an earlier todod made a todo of is the series' (its todo deleted, it
            // would have ended the series): one uuid is written once.
            guard plan.templates[plan.uuids[todo.number] ?? ""] == nil else { continue }
            result.append(written[todo.number] ?? [:])
        }
        return result.map(placeAsText)
    }

    /// `task` with its `imask` as text: Taskwarrior 2.6 keeps a number `task import` reads as
    /// `1.000000`, not the `1` it made, so an instance written back unchanged looked changed
    /// (and its `modified` moved); the text `1` it keeps as it is.
    private static func placeAsText(_ task: Task) -> Task {
        guard let imask = place(task) else { return task }
        var task = task
        task["imask"] = .string(String(imask))
        return task
    }

    /// The template as its todos leave it: each one's place in the mask says what became of it
    /// (places past the mask widen it, so Taskwarrior does not make those instances again), and
    /// what todod changed of the latest one's rule, priority, project and tags is the series'.
    private static func template(_ original: Task, members: [Todo], plan: Plan, written: [Int: Task]) -> Task {
        var template = original
        var mask = Array(original["mask"]?.string ?? "")
        // The instances written ahead, pending (Taskwarrior's mask already has those it made).
        if let last = original["uuid"]?.string.flatMap({ plan.ahead[$0]?.keys.max() }) { while mask.count <= last { mask.append("-") } }
        for todo in members {
            guard let imask = plan.places[todo.number]?.imask else { continue }
            while mask.count <= imask { mask.append("-") }
            let waiting = written[todo.number]?["status"]?.string == "waiting"
            mask[imask] = todo.isDeleted ? "X" : todo.isCompleted ? "+" : waiting ? "W" : "-"
        }
        template["mask"] = .string(String(mask))
        if let latest = members.max(by: { (plan.places[$0.number]?.imask ?? 0) < (plan.places[$1.number]?.imask ?? 0) }),
            let task = written[latest.number], let base = plan.bases[latest.number]
        {
            for key in ["recur", "priority", "project", "tags"] where task[key] != base[key] { template[key] = task[key] }
        }
        // Changed, as Taskwarrior's own `done` would date it: when its latest todo changed.
        if template != original, let changed = members.map(\.updatedAt).max() {
            template["modified"] = .string(BasicTime.utcText(changed))
        }
        return template
    }

    /// `imported` with each task that is a todod occurrence under a Taskwarrior uuid given
    /// that todo's id; the uuid is kept among its fields, so the todo is written with it again.
    static func matched(_ imported: [ImportedTodo], to current: [Todo], zone: TimeZone) -> [ImportedTodo] {
        guard hasInstances(imported) else { return imported }
        // Only todos are matched: the instances written past them are not needed.
        let plan = plan(current, zone: zone, today: nil)
        var todos: [String: UUID] = [:]
        for todo in current {
            if let uuid = plan.uuids[todo.number], uuid != todo.id.uuidString.lowercased() { todos[uuid] = todo.id }
        }
        guard !todos.isEmpty else { return imported }
        return imported.map { record in
            let uuid = record.id.uuidString.lowercased()
            guard let id = todos[uuid] else { return record }
            var matched = record, original = fields(record.foreign[TaskwarriorFormat.foreignKey])
            original["uuid"] = .string(uuid)
            matched.id = id
            matched.foreign[TaskwarriorFormat.foreignKey] = InteropJSON.object(original).text
            return matched
        }
    }

    /// Whether any of `imported` is an instance of a recurrence: only those can be todod's occurrences.
    static func hasInstances(_ imported: [ImportedTodo]) -> Bool {
        imported.contains { fields($0.foreign[TaskwarriorFormat.foreignKey])["parent"] != nil }
    }

    // MARK: Fields

    /// A task's place in its template's mask (`imask`).
    private static func place(_ task: Task) -> Int? {
        switch task["imask"] {
        case .number(let value)?: Int(exactly: value)
        case .string(let text)?: Int(text)
        default: nil
        }
    }

    /// The JSON object `text` holds; empty when there is none.
    static func fields(_ text: String?) -> Task {
        guard let text, case .object(let fields)? = InteropJSON(text: text) else { return [:] }
        return fields
    }
}
