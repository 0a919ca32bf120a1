import Foundation
import TodoModel

/// iCalendar (RFC 5545) `VTODO`s: what Thunderbird, Nextcloud Tasks, Apple Reminders and
/// CalDAV servers hold.
///
/// UID is the id (a UID that is not a UUID gets a stable one made from it, and is written
/// back as it was); SUMMARY, DESCRIPTION, PRIORITY 1–4 / 5 / 6–9 (written 1 / 5 / 9),
/// DUE (a whole day: `DUE;VALUE=DATE`; a todo due at a time: a floating local date-time,
/// `DUE:20261224T150000`, read on the phone at that time of its own zone as todod's time is in
/// the machine's; a DUE with `Z` or a TZID reads as that instant's local time), STATUS COMPLETED / CANCELLED (deleted), COMPLETED,
/// CATEGORIES (tags; spaces become `-`), CREATED, LAST-MODIFIED, SEQUENCE (the revision),
/// RRULE (the recurrence, when it is `FREQ=DAILY|WEEKLY|MONTHLY|YEARLY` with an `INTERVAL`,
/// or every weekday; its `UNTIL` is the todo's until day, the series' last). RELATED-TO (a parent) names the parent by its UID, both ways. The
/// project is `X-TODOD-PROJECT`, and also a category `project:NAME`, so that an app that
/// shows only CATEGORIES (a phone's) shows it; read back, that category is the project,
/// not a tag (a file without X-TODOD-PROJECT gets its project from the category).
/// Every other line of the VTODO (other RELATED-TOs, VALARM, X- properties) is kept in
/// `foreign["ical"]` and written back, and so are the originals of PRIORITY, DUE, STATUS,
/// CATEGORIES and RRULE while the todo still says the same (an RRULE todod cannot hold
/// is kept as it was).
public enum ICalendarFormat {
    /// The key of `Todo.foreign` for a VTODO's other lines.
    public static let foreignKey = "ical"
    /// PRODID of what todod writes.
    public static let productID = "-//todod//todod//EN"
    /// The properties todod reads and writes; kept as written while their meaning holds.
    private static let mapped: Set<String> = [
        "UID", "SUMMARY", "DESCRIPTION", "PRIORITY", "DUE", "STATUS", "COMPLETED", "CATEGORIES",
        "CREATED", "LAST-MODIFIED", "DTSTAMP", "SEQUENCE", "RRULE", projectProperty,
    ]
    /// The property that holds the project.
    static let projectProperty = "X-TODOD-PROJECT"

    /// Every VTODO of a calendar file (events and other components are skipped, and so are
    /// overrides of one occurrence, VTODOs with RECURRENCE-ID: todod keeps no occurrence of its own).
    /// `now` stands in for times the file does not give.
    public static func decode(_ text: String, now: Date, zone: TimeZone = .current) throws(InteropError) -> [ImportedTodo] {
        var todos: [ImportedTodo] = []
        var current: [(line: ContentLine, number: Int)]?
        var nested: [String] = []
        var sawCalendar = false
        for (index, raw) in ContentLine.unfold(text).enumerated() {
            guard let line = ContentLine(parsing: raw) else {
                guard current == nil else { throw InteropError("line \(index + 1)", "is not an iCalendar line NAME:VALUE: \(raw.prefix(60))") }
                continue
            }
            if line.name == "BEGIN", line.value.uppercased() == "VCALENDAR" { sawCalendar = true }
            if line.name == "BEGIN", line.value.uppercased() == "VTODO", current == nil {
                current = []
                continue
            }
            guard current != nil else { continue }
            if line.name == "END", line.value.uppercased() == "VTODO", nested.isEmpty {
                let lines = current ?? []
                current = nil
                if lines.contains(where: { $0.line.name == "RECURRENCE-ID" && !isNested($0.line, lines.map(\.line)) }) { continue }
                todos.append(try todo(lines, now: now, zone: zone))
                continue
            }
            if line.name == "BEGIN" { nested.append(line.value.uppercased()) }
            if line.name == "END" { nested.removeLast(nested.isEmpty ? 0 : 1) }
            current?.append((line, index + 1))
        }
        if current != nil { throw InteropError("end of file", "a VTODO has no END:VTODO") }
        if todos.isEmpty, !sawCalendar {
            throw InteropError("input", "is not iCalendar: it has no BEGIN:VCALENDAR line (expected a .ics file of VTODOs)")
        }
        return todos
    }

    /// The SEQUENCE of each VTODO in `text`, by the id its UID becomes: the revision of
    /// todod's todo the file was written from, when todod wrote it.
    public static func sequences(in text: String) -> [UUID: Int] {
        var sequences: [UUID: Int] = [:]
        var uid: String?, sequence: Int?, isOverride = false
        for raw in ContentLine.unfold(text) {
            guard let line = ContentLine(parsing: raw) else { continue }
            switch (line.name, line.value.uppercased()) {
            case ("BEGIN", "VTODO"): (uid, sequence, isOverride) = (nil, nil, false)
            case ("UID", _) where uid == nil: uid = line.text
            case ("SEQUENCE", _) where sequence == nil: sequence = Int(line.value)
            case ("RECURRENCE-ID", _): isOverride = true
            case ("END", "VTODO"):
                if let uid, let sequence, !isOverride { sequences[UUID(uuidString: uid) ?? StableID.uuid(for: "ical\n" + uid)] = sequence }
            default: break
            }
        }
        return sequences
    }

    /// Whether `text` ends where a calendar file ends (its last line END:VCALENDAR): a file
    /// still being written seldom does.
    public static func isWhole(_ text: String) -> Bool {
        guard let last = ContentLine.unfold(text).last(where: { !$0.allSatisfy(\.isWhitespace) }),
            let line = ContentLine(parsing: last) else { return false }
        return line.name == "END" && line.value.uppercased() == "VCALENDAR"
    }

    /// One todo's VTODO as `encode` writes it, for a file that holds other components too.
    public static func component(_ todo: Todo, parents: [Int: String] = [:], zone: TimeZone = .current) -> String {
        vtodo(todo, parents: parents.merging([(todo.number, uid(of: todo))]) { $1 }, zone: zone).map(\.folded).joined()
    }

    /// A VCALENDAR holding one VTODO per todo, CRLF line ends, folded at 75 octets.
    /// - Parameter parents: the UIDs (`uid(of:)`) of parents by number, beyond those among
    ///   `todos`: a subtask's RELATED-TO names its parent's.
    public static func encode(_ todos: [Todo], parents: [Int: String] = [:], zone: TimeZone = .current) -> String {
        var lines = [ContentLine("BEGIN", value: "VCALENDAR"), ContentLine("VERSION", value: "2.0"),
                     ContentLine("PRODID", value: productID)]
        let uids = parents.merging(todos.map { ($0.number, uid(of: $0)) }) { $1 }
        for todo in todos { lines += vtodo(todo, parents: uids, zone: zone) }
        lines.append(ContentLine("END", value: "VCALENDAR"))
        return lines.map(\.folded).joined()
    }

    // MARK: Reading

    private static func todo(_ lines: [(line: ContentLine, number: Int)], now: Date, zone: TimeZone) throws(InteropError) -> ImportedTodo {
        var position = "VTODO at line \((lines.first?.number ?? 1) - 1)"
        let all = lines.map(\.line)
        func first(_ name: String) -> (line: ContentLine, number: Int)? { lines.first { $0.line.name == name && !isNested($0.line, all) } }
        func time(_ name: String) throws(InteropError) -> Date? {
            guard let (line, number) = first(name) else { return nil }
            guard let instant = instant(line, zone: zone) else {
                throw InteropError("line \(number)", "\(name) is \(line.value), not a time like 20261122T153000Z")
            }
            return instant
        }
        guard let uid = first("UID")?.line.text, !uid.isEmpty else { throw InteropError(position, "has no UID") }
        position += " (UID \(uid))"
        let title = first("SUMMARY")?.line.text ?? ""
        guard !title.isEmpty else { throw InteropError(position, "has no SUMMARY: a todo needs a title") }
        var due: (day: LocalDate, time: TimeOfDay?)?
        if let (line, number) = first("DUE") {
            guard let moment = moment(line, zone: zone) else {
                throw InteropError("line \(number)", "DUE is \(line.value), not a day like 20261122 or a time like 20261122T153000Z")
            }
            due = moment
        }
        let lastModified = try time("LAST-MODIFIED"), stamp = try time("DTSTAMP")
        let modified = lastModified ?? stamp ?? now
        let status = first("STATUS")?.line.value.uppercased()
        let completed = try time("COMPLETED"), created = try time("CREATED")
        // Originals first, in a fixed order, then the rest as the file had them: the same todo
        // always keeps the same text, however a writer ordered its lines.
        let categories = tags(lines.filter { $0.line.name == "CATEGORIES" }.map(\.line))
        let project = first(projectProperty)?.line.text ?? categories.lazy.compactMap(projectName).first
        let rule = first("RRULE").flatMap { Self.rule($0.line.value) }
        var imported = ImportedTodo(
            id: UUID(uuidString: uid) ?? StableID.uuid(for: "ical\n" + uid), title: title,
            notes: first("DESCRIPTION")?.line.text ?? "", priority: priority(first("PRIORITY")?.line),
            due: due?.day, tags: categories.filter { projectName($0).map { $0 != project } ?? true },
            createdAt: created ?? modified, updatedAt: modified,
            completedAt: status == "COMPLETED" || (completed != nil && status != "CANCELLED") ? completed ?? modified : nil,
            deletedAt: status == "CANCELLED" ? modified : nil,
            recurrence: rule?.recurrence,
            parentID: parentID(lines.map(\.line).filter { $0.name == "RELATED-TO" && !isNested($0, all) }),
            project: project.flatMap { $0.isEmpty ? nil : $0 }, until: rule?.until, source: foreignKey,
            dueTime: due?.time, carriesTimes: true)
        let derived = derivedLines(imported.todo(number: 0), zone: zone)
        let shadowed = shadowOrder.flatMap { name in
            let originals = all.filter { $0.name == name && !isNested($0, all) }
            return originals == (derived[name] ?? []) ? [] : originals
        }
        let kept = shadowed + all.filter { !mapped.contains($0.name) || isNested($0, all) }
        if !kept.isEmpty { imported.foreign = [foreignKey: kept.map(\.unfolded).joined(separator: "\n")] }
        return imported
    }

    /// Lines inside a VALARM (or another nested component) are the component's, not the VTODO's.
    private static func isNested(_ line: ContentLine, _ lines: [ContentLine]) -> Bool {
        var depth = 0
        for entry in lines {
            if entry.name == "BEGIN" { depth += 1 }
            if entry.name == "END" { depth -= 1 }
            if entry == line { return depth > 0 || line.name == "END" }
        }
        return false
    }

    /// Originals whose meaning todod holds, kept (in this order) to be written back as they
    /// were, when todod would write them otherwise.
    private static let shadowOrder = ["UID", "PRIORITY", "DUE", "STATUS", "CATEGORIES", "RRULE"]

    private static let weekdays = "MO,TU,WE,TH,FR"

    /// An RRULE todod can hold: `FREQ=DAILY|WEEKLY|MONTHLY|YEARLY` with an optional
    /// `INTERVAL` (and `WKST`), or every weekday; nil for any other (`COUNT`, `BYDAY`, …).
    static func recurrence(_ rule: String) -> Recurrence? {
        self.rule(rule)?.recurrence
    }

    /// An RRULE todod can hold (`recurrence(_:)`) and its `UNTIL`, the day the series ends
    /// (`Todo.until`: no occurrence due after it), the day of its date or date-time as written.
    static func rule(_ rule: String) -> (recurrence: Recurrence, until: LocalDate?)? {
        var parts: [String: String] = [:]
        for part in rule.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, parts[pair[0]] == nil else { return nil }
            parts[pair[0]] = pair[1]
        }
        var until: LocalDate?
        if let text = parts.removeValue(forKey: "UNTIL") {
            guard let day = BasicTime.date(String(text.prefix(8))) else { return nil }
            until = day
        }
        let interval = parts.removeValue(forKey: "INTERVAL").map { Int($0) ?? 0 } ?? 1
        parts["WKST"] = nil
        let units: [String: Recurrence.Unit] = ["DAILY": .day, "WEEKLY": .week, "MONTHLY": .month, "YEARLY": .year]
        guard let frequency = parts.removeValue(forKey: "FREQ"), let unit = units[frequency],
            (1...Recurrence.maximumCount).contains(interval) else { return nil }
        if let days = parts.removeValue(forKey: "BYDAY") {
            guard days == weekdays, interval == 1, unit == .day || unit == .week, parts.isEmpty else { return nil }
            return (Recurrence(count: 1, unit: .weekday), until)
        }
        return parts.isEmpty ? (Recurrence(count: interval, unit: unit), until) : nil
    }

    /// todod's rule as an RRULE (counted from the due date: RRULE knows no other way), with
    /// `UNTIL` the series' last day when it has one (a date, as the DUE it repeats is).
    static func rrule(_ rule: Recurrence, until: LocalDate? = nil) -> String {
        let frequencies: [Recurrence.Unit: String] = [.day: "DAILY", .week: "WEEKLY", .month: "MONTHLY", .year: "YEARLY"]
        let end = until.map { ";UNTIL=" + BasicTime.dateText($0) } ?? ""
        if rule.unit == .weekday { return "FREQ=DAILY;BYDAY=" + weekdays + end }
        return "FREQ=\(frequencies[rule.unit] ?? "DAILY")" + (rule.count == 1 ? "" : ";INTERVAL=\(rule.count)") + end
    }

    /// The parent a VTODO names (RELATED-TO without RELTYPE, or RELTYPE=PARENT), as the id
    /// its UID becomes.
    static func parentID(_ lines: [ContentLine]) -> UUID? {
        guard let line = lines.first(where: { ($0.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT" }) else { return nil }
        let uid = line.text
        guard !uid.isEmpty else { return nil }
        return UUID(uuidString: uid) ?? StableID.uuid(for: "ical\n" + uid)
    }

    static func priority(_ line: ContentLine?) -> Priority {
        switch Int(line?.value ?? "") ?? 0 {
        case 1...4: .high
        case 6...9: .low
        default: .normal
        }
    }

    /// The project a category names (`project:home.garden`), or nil.
    private static func projectName(_ category: String) -> String? {
        let prefix = TodoFilter.projectTagPrefix
        return category.hasPrefix(prefix) && category.count > prefix.count ? String(category.dropFirst(prefix.count)) : nil
    }

    /// What CATEGORIES holds for `todo`: its tags, then its project as `project:NAME`.
    private static func categories(of todo: Todo) -> [String] {
        todo.tags + (todo.project.map { [TodoFilter.projectTagPrefix + $0] } ?? [])
    }

    static func tags(_ lines: [ContentLine]) -> [String] {
        var tags: [String] = []
        for category in lines.flatMap(\.textList) {
            let tag = category.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "-")
            if !tag.isEmpty, !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }

    /// A DUE's day and time of day: a DATE is the whole day; a DATE-TIME (floating, UTC or
    /// with a TZID) is that instant's day and time in `zone`, the local one todod keeps
    /// times in (midnight too: the file said a time).
    static func moment(_ line: ContentLine, zone: TimeZone) -> (day: LocalDate, time: TimeOfDay?)? {
        if line.parameter("VALUE")?.uppercased() == "DATE" || line.value.count == 8 { return BasicTime.date(line.value).map { ($0, nil) } }
        return instant(line, zone: zone).map { instant in
            let local = BasicTime.localTime(instant, in: zone)
            return (local.day, local.time)
        }
    }

    static func instant(_ line: ContentLine, zone: TimeZone) -> Date? {
        let tz = line.parameter("TZID").flatMap(TimeZone.init(identifier:)) ?? zone
        if line.value.count == 8 { return BasicTime.date(line.value).map { BasicTime.midnight(of: $0, in: tz) } }
        return BasicTime.instant(line.value, in: tz)
    }

    // MARK: Writing

    /// The UID a todo is written with: the one it came with, or its id.
    public static func uid(of todo: Todo) -> String {
        let kept = (todo.foreign[foreignKey] ?? "").split(separator: "\n").compactMap(ContentLine.init(parsing:))
        return kept.first { $0.name == "UID" }?.text ?? todo.id.uuidString.lowercased()
    }

    private static func vtodo(_ todo: Todo, parents: [Int: String], zone: TimeZone) -> [ContentLine] {
        let kept = (todo.foreign[foreignKey] ?? "").split(separator: "\n").compactMap(ContentLine.init(parsing:))
        func original(_ name: String, meaning same: ([ContentLine]) -> Bool) -> [ContentLine]? {
            let lines = kept.filter { $0.name == name && !isNested($0, kept) }
            return !lines.isEmpty && same(lines) ? lines : nil
        }
        func utc(_ date: Date) -> String { BasicTime.utcText(date) }
        let derived = derivedLines(todo, zone: zone)
        var lines = [ContentLine("BEGIN", value: "VTODO")]
        lines += original("UID") { _ in true } ?? derived["UID"] ?? []
        lines.append(ContentLine("DTSTAMP", value: utc(todo.updatedAt)))
        lines.append(ContentLine("CREATED", value: utc(todo.createdAt)))
        lines.append(ContentLine("LAST-MODIFIED", value: utc(todo.updatedAt)))
        lines.append(ContentLine("SEQUENCE", value: String(todo.revision)))
        lines.append(ContentLine("SUMMARY", text: todo.title))
        if !todo.notes.isEmpty { lines.append(ContentLine("DESCRIPTION", text: todo.notes)) }
        lines += original("PRIORITY") { priority($0.first) == todo.priority } ?? derived["PRIORITY"] ?? []
        if let due = todo.due {
            lines += original("DUE") { moment($0[0], zone: zone).map { $0 == (due, todo.dueTime) } ?? false } ?? derived["DUE"] ?? []
        }
        let state = derived["STATUS"]?.first?.value ?? ""
        lines += original("STATUS") { lines in
            let was = lines[0].value.uppercased()
            return was == state || (state == "NEEDS-ACTION" && was == "IN-PROCESS")
        } ?? derived["STATUS"] ?? []
        if let done = todo.completedAt { lines.append(ContentLine("COMPLETED", value: utc(done))) }
        let named = categories(of: todo)
        if !named.isEmpty { lines += original("CATEGORIES") { tags($0) == named } ?? derived["CATEGORIES"] ?? [] }
        if let project = todo.project { lines.append(ContentLine(projectProperty, text: project)) }
        // One todod cannot hold (nil) stays while todod's todo does not repeat either.
        lines += original("RRULE") { kept in
            let rule = Self.rule(kept[0].value)
            return rule?.recurrence.period == todo.recurrence?.period && (rule == nil || rule?.until == todo.until)
        } ?? derived["RRULE"] ?? []
        lines += relatedTo(todo, kept: kept, parents: parents)
        lines += kept.filter { (!mapped.contains($0.name) && !isParentLink($0)) || isNested($0, kept) }
        lines.append(ContentLine("END", value: "VTODO"))
        return lines
    }

    /// A RELATED-TO naming a parent (no RELTYPE, or RELTYPE=PARENT); siblings and children stay foreign.
    private static func isParentLink(_ line: ContentLine) -> Bool {
        line.name == "RELATED-TO" && (line.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT"
    }

    /// The parent link: the one the file had while it names the same parent, todod's parent
    /// otherwise. Without a parent in todod, a kept link is dropped only when it names a todo
    /// todod knows (the parent was taken away); one naming a todo todod never had is kept.
    private static func relatedTo(_ todo: Todo, kept: [ContentLine], parents: [Int: String]) -> [ContentLine] {
        let links = kept.filter { isParentLink($0) && !isNested($0, kept) }
        guard let parent = todo.parent else {
            let known = Set(parents.values)
            return links.filter { !known.contains($0.text) }
        }
        guard let uid = parents[parent] else { return links }
        return links.first?.text == uid ? links : [ContentLine("RELATED-TO", text: uid)]
    }

    /// The lines todod writes for the properties it keeps originals of.
    private static func derivedLines(_ todo: Todo, zone: TimeZone) -> [String: [ContentLine]] {
        var lines: [String: [ContentLine]] = [
            "UID": [ContentLine("UID", value: todo.id.uuidString.lowercased())],
            "PRIORITY": [ContentLine("PRIORITY", value: todo.priority == .high ? "1" : todo.priority == .low ? "9" : "5")],
            "STATUS": [ContentLine("STATUS", value: todo.isDeleted ? "CANCELLED" : todo.isCompleted ? "COMPLETED" : "NEEDS-ACTION")],
        ]
        if let due = todo.due {
            // A time as a floating date-time (no VTIMEZONE to write, and none to go wrong).
            let line = todo.dueTime.map { ContentLine("DUE", value: BasicTime.dateText(due) + "T" + BasicTime.clockText($0)) }
            lines["DUE"] = [line ?? ContentLine("DUE", [("VALUE", "DATE")], value: BasicTime.dateText(due))]
        }
        if let rule = todo.recurrence { lines["RRULE"] = [ContentLine("RRULE", value: rrule(rule, until: todo.until))] }
        let named = categories(of: todo)
        if !named.isEmpty {
            lines["CATEGORIES"] = [ContentLine("CATEGORIES", value: named.map(ContentLine.escaped).joined(separator: ","))]
        }
        return lines
    }
}
