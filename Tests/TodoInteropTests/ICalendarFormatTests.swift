import Foundation
import TestHarness
import Testing
import TodoInterop
import TodoModel

@Suite("iCalendar VTODOs")
struct ICalendarFormatTests {
    let utc = TimeZone(identifier: "UTC")!
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    private func todos(_ imported: [ImportedTodo]) -> [Todo] {
        imported.enumerated().map { $1.todo(number: $0 + 1, revision: 3) }
    }

    @Test("Lines are folded at 75 octets, never inside a character, and unfold to what was written")
    func folding() {
        let title = String(repeating: "Grüße, 東京; ", count: 20)
        let line = ContentLine("SUMMARY", text: title)
        let physical = line.folded.components(separatedBy: "\r\n").dropLast()
        #expect(physical.count > 3)
        #expect(physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        let unfolded = ContentLine.unfold(line.folded)
        #expect(unfolded.count == 1)
        #expect(ContentLine(parsing: unfolded[0])?.text == title)
    }

    @Test("Text is escaped as RFC 5545 says: backslash, semicolon, comma, line break")
    func escaping() {
        #expect(ContentLine.escaped("a\\b; c, d\ne") == "a\\\\b\\; c\\, d\\ne")
        #expect(ContentLine(parsing: "DESCRIPTION:a\\\\b\\; c\\, d\\ne\\Nf")?.text == "a\\b; c, d\ne\nf")
        #expect(ContentLine(parsing: "CATEGORIES:one\\,two,three")?.textList == ["one,two", "three"])
        #expect(ContentLine(parsing: "DTSTART;TZID=\"America/New_York\":20261121T090000")?.parameter("TZID") == "America/New_York")
    }

    @Test("Thunderbird's VTODO imports: escaped text, priority 3, a zoned due day, categories with spaces")
    func thunderbird() throws {
        let todo = try #require(try ICalendarFormat.decode(ICalendarFixtures.thunderbird, now: now, zone: utc).first)
        #expect(todo.id == UUID(uuidString: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"))
        #expect(todo.title == "Renew passport, before the trip")
        #expect(todo.notes == "Photos first.\nThen the form; sign it.")
        #expect(todo.priority == .high)
        #expect(todo.due == LocalDate("2026-11-28"))
        #expect(todo.tags == ["Travel", "Important-Things"])
        #expect(todo.completedAt == nil)
        #expect(todo.updatedAt == BasicTime.instant("20261120T101500Z"))
        #expect(todo.createdAt == BasicTime.instant("20261101T090000Z"))
        let kept = try #require(todo.foreign["ical"])
        #expect(kept.contains("X-MOZ-GENERATION:4"))
        #expect(kept.contains("BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER;VALUE=DURATION:-PT15M\nDESCRIPTION:Default Mozilla Description\nEND:VALARM"))
    }

    @Test("Nextcloud's VTODO imports: a UID that is no UUID keeps one id, repeated CATEGORIES, low priority")
    func nextcloud() throws {
        let first = try #require(try ICalendarFormat.decode(ICalendarFixtures.nextcloud, now: now, zone: utc).first)
        let again = try #require(try ICalendarFormat.decode(ICalendarFixtures.nextcloud, now: now, zone: utc).first)
        #expect(first.id == again.id)
        #expect(first.title == "Buy milk")
        #expect(first.priority == .low)
        #expect(first.due == LocalDate("2026-11-25"))
        #expect(first.tags == ["home", "errands"])
        #expect(first.foreign["ical"]?.contains("RELATED-TO;RELTYPE=PARENT:7a8b9c0d1e") == true)
        #expect(first.foreign["ical"]?.contains("RRULE:FREQ=WEEKLY;BYDAY=SA") == true)
    }

    @Test("Apple Reminders' completed VTODO imports, its folded summary joined")
    func appleReminders() throws {
        let todo = try #require(try ICalendarFormat.decode(ICalendarFixtures.appleReminders, now: now, zone: utc).first)
        #expect(todo.title == "Call the plumber about the leaking tap in the upstairs bathroom before the weekend")
        #expect(todo.completedAt == BasicTime.instant("20261121T073000Z"))
        #expect(todo.id == UUID(uuidString: "A1B2C3D4-E5F6-4789-ABCD-0123456789AB"))
    }

    @Test("Written back unchanged, every property reads as it came: originals kept while their meaning holds")
    func roundTrip() throws {
        for fixture in [ICalendarFixtures.thunderbird, ICalendarFixtures.nextcloud, ICalendarFixtures.appleReminders] {
            let imported = try ICalendarFormat.decode(fixture, now: now, zone: utc)
            let written = ICalendarFormat.encode(todos(imported), zone: utc)
            let reread = try ICalendarFormat.decode(written, now: now, zone: utc)
            #expect(reread == imported, "\(reread) != \(imported)")
            // The VTODO's own lines, less those todod writes anew from the todo (times, revision).
            func vtodoLines(_ text: String) -> Set<String> {
                let lines = ContentLine.unfold(text).map(String.init)
                guard let begin = lines.firstIndex(of: "BEGIN:VTODO"), let end = lines.lastIndex(of: "END:VTODO") else { return [] }
                let rewritten = ["DTSTAMP:", "SEQUENCE:", "LAST-MODIFIED:", "CREATED:", "COMPLETED:"]
                return Set(lines[begin...end].filter { line in !rewritten.contains { line.hasPrefix($0) } })
            }
            let lost = vtodoLines(fixture).subtracting(vtodoLines(written))
            #expect(lost.isEmpty, "lost: \(lost)")
        }
    }

    @Test("A todo changed in todod writes its new priority, due day, state and categories")
    func changed() throws {
        var todo = try #require(todos(try ICalendarFormat.decode(ICalendarFixtures.thunderbird, now: now, zone: utc)).first)
        todo.priority = .low
        // A new day given without a time is the whole day (as `edit N due:2026-12-24` makes it).
        todo.due = LocalDate("2026-12-24")
        todo.dueTime = nil
        todo.completedAt = BasicTime.instant("20261122T100000Z")
        todo.tags = ["travel"]
        let lines = Set(ContentLine.unfold(ICalendarFormat.encode([todo], zone: utc)).map(String.init))
        #expect(lines.isSuperset(of: ["PRIORITY:9", "DUE;VALUE=DATE:20261224", "STATUS:COMPLETED", "COMPLETED:20261122T100000Z",
                                      "CATEGORIES:travel", "SEQUENCE:3", "X-MOZ-GENERATION:4"]))
        #expect(!lines.contains("PRIORITY:3"))
        #expect(!lines.contains("STATUS:IN-PROCESS"))
    }

    @Test("What todod writes parses with Python's icalendar library, field for field")
    func pythonICalendar() throws {
        let todo = Todo(
            number: 1, title: "Grüße; über, alles \\ " + String(repeating: "lang ", count: 20), notes: "one\ntwo",
            priority: .high, due: LocalDate("2026-11-22"), tags: ["home", "@phone"],
            createdAt: BasicTime.instant("20261101T090000Z")!, updatedAt: BasicTime.instant("20261102T090000Z")!,
            completedAt: BasicTime.instant("20261103T090000Z")!, revision: 4)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(ICalendarFormat.encode([todo], zone: utc).utf8).write(to: file)
        let script = """
            import icalendar, json, sys
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            t = [c for c in cal.walk('VTODO')][0]
            cats = t.get('CATEGORIES')
            print(json.dumps({'uid': str(t['UID']), 'summary': str(t['SUMMARY']), 'description': str(t['DESCRIPTION']),
                'priority': int(t['PRIORITY']), 'due': t.decoded('DUE').isoformat(), 'status': str(t['STATUS']),
                'completed': t.decoded('COMPLETED').isoformat(), 'sequence': int(t['SEQUENCE']),
                'categories': [str(c) for c in cats.cats] if hasattr(cats, 'cats') else [str(c) for c in cats]}))
            """
        let python = try runToEndNow("/usr/bin/python3", ["-c", script, file.path], environment: inheritedEnvironment())
        #expect(python.status == 0, "\(python.stderr)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        #expect(parsed["uid"] as? String == todo.id.uuidString.lowercased())
        #expect(parsed["summary"] as? String == todo.title)
        #expect(parsed["description"] as? String == "one\ntwo")
        #expect(parsed["priority"] as? Int == 1)
        #expect(parsed["due"] as? String == "2026-11-22")
        #expect(parsed["status"] as? String == "COMPLETED")
        #expect(parsed["completed"] as? String == "2026-11-03T09:00:00+00:00")
        #expect(parsed["sequence"] as? Int == 4)
        #expect(parsed["categories"] as? [String] == ["home", "@phone"])
    }

    private func vtodo(_ lines: String...) -> String {
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "DTSTAMP:20261120T100000Z"] + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    @Test("A DUE with a time keeps its local time: floating as written, UTC and a TZID as that instant here; a DATE is the whole day; todod writes a time as a floating DUE, a whole day as a DATE, an original while it says the same")
    func dueTimes() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let file = vtodo("UID:a", "SUMMARY:Floating", "DUE:20261224T150000")
            + vtodo("UID:b", "SUMMARY:In UTC", "DUE:20261224T090000Z")
            + vtodo("UID:c", "SUMMARY:In New York", "DUE;TZID=America/New_York:20261224T090000")
            + vtodo("UID:d", "SUMMARY:Whole day", "DUE;VALUE=DATE:20261224")
            + vtodo("UID:e", "SUMMARY:At midnight", "DUE:20261224T000000")
        let imported = try ICalendarFormat.decode(file, now: now, zone: berlin)
        #expect(imported.map(\.due) == Array(repeating: LocalDate("2026-12-24"), count: 5))
        #expect(imported.map(\.dueTime) == ["15:00", "10:00", "15:00", nil, "00:00"].map { $0.flatMap(TimeOfDay.init) })
        var todos = todos(imported)
        let written = Set(ContentLine.unfold(ICalendarFormat.encode(todos, zone: berlin)).map(String.init))
        #expect(written.isSuperset(of: ["DUE:20261224T150000", "DUE:20261224T090000Z", "DUE;TZID=America/New_York:20261224T090000",
                                        "DUE;VALUE=DATE:20261224", "DUE:20261224T000000"]), "\(written)")
        todos[1].dueTime = TimeOfDay("11:30")
        todos[3].dueTime = TimeOfDay("08:00")
        todos[0].dueTime = nil
        let changed = Set(ContentLine.unfold(ICalendarFormat.encode(todos, zone: berlin)).map(String.init))
        #expect(changed.isSuperset(of: ["DUE;VALUE=DATE:20261224", "DUE:20261224T113000", "DUE:20261224T080000"]), "\(changed)")
        #expect(!changed.contains("DUE:20261224T090000Z") && !changed.contains("DUE:20261224T150000"), "\(changed)")
        let back = try ICalendarFormat.decode(ICalendarFormat.encode(todos, zone: berlin), now: now, zone: berlin)
        #expect(back.map(\.dueTime) == todos.map(\.dueTime))
    }

    @Test("A DUE at a time the zone's clocks skip is read with the offset before the gap (RFC 5545 §3.3.5): Berlin's 2027-03-28 02:30 is 01:30Z, 03:30 in Berlin, as todod's Taskwarrior export reads it; a time shown twice is the first")
    func dueInSummerTimeGap() throws {
        let dues = ["DUE;TZID=Europe/Berlin:20270328T023000", "DUE:20270328T023000", "DUE;TZID=Europe/Berlin:20261025T023000"]
        let file = zip(["Zoned gap", "Floating gap", "Zoned twice"], dues).map { vtodo("UID:\($0)", "SUMMARY:\($0)", $1) }.joined()
        let here = try ICalendarFormat.decode(file, now: now, zone: utc)
        #expect(here.map(\.dueTime) == ["01:30", "02:30", "00:30"].map(TimeOfDay.init), "\(here.map(\.dueTime))")
        let inBerlin = try ICalendarFormat.decode(file, now: now, zone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(inBerlin.map(\.dueTime) == ["03:30", "03:30", "02:30"].map(TimeOfDay.init), "\(inBerlin.map(\.dueTime))")
        #expect(inBerlin.allSatisfy { $0.due == LocalDate($0.title == "Zoned twice" ? "2026-10-25" : "2027-03-28") })
    }

    @Test("RRULE with FREQ and INTERVAL is the recurrence, written back; one todod cannot hold is kept as it came")
    func recurrence() throws {
        let file = vtodo("UID:a", "SUMMARY:Pay rent", "DUE;VALUE=DATE:20261201", "RRULE:FREQ=MONTHLY;INTERVAL=2")
            + vtodo("UID:b", "SUMMARY:Standup", "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR")
            + vtodo("UID:c", "SUMMARY:Ten times", "RRULE:FREQ=WEEKLY;COUNT=10")
        let imported = try ICalendarFormat.decode(file, now: now, zone: utc)
        #expect(imported.map(\.recurrence) == [Recurrence(count: 2, unit: .month), Recurrence(count: 1, unit: .weekday), nil])
        #expect(imported[2].foreign["ical"]?.split(separator: "\n").contains("RRULE:FREQ=WEEKLY;COUNT=10") == true)
        func lines(_ todo: Todo) -> [String] { ContentLine.unfold(ICalendarFormat.encode([todo], zone: utc)).map(String.init) }
        var rent = todos(imported)[0]
        #expect(lines(rent).contains("RRULE:FREQ=MONTHLY;INTERVAL=2"))
        rent.recurrence = Recurrence(count: 1, unit: .week)
        #expect(lines(rent).filter { $0.hasPrefix("RRULE") } == ["RRULE:FREQ=WEEKLY"])
        rent.recurrence = nil
        #expect(lines(rent).filter { $0.hasPrefix("RRULE") }.isEmpty)
        #expect(lines(todos(imported)[2]).filter { $0.hasPrefix("RRULE") } == ["RRULE:FREQ=WEEKLY;COUNT=10"])
        #expect(try ICalendarFormat.decode(ICalendarFormat.encode(todos(imported), zone: utc), now: now, zone: utc).map(\.recurrence)
            == imported.map(\.recurrence))
    }

    @Test("An RRULE's UNTIL is the repeating todo's until day, both ways (such a rule was only kept); one written as a time is kept while the day is the same; a todo that does not repeat writes none")
    func until() throws {
        let file = vtodo("UID:a", "SUMMARY:Standup notes", "DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY;UNTIL=20261222")
            + vtodo("UID:b", "SUMMARY:Water plants", "DUE;VALUE=DATE:20261201", "RRULE:FREQ=DAILY;UNTIL=20261210T230000Z")
        let imported = try ICalendarFormat.decode(file, now: now, zone: utc)
        #expect(imported.map(\.recurrence) == [Recurrence(count: 1, unit: .week), Recurrence(count: 1, unit: .day)])
        #expect(imported.map(\.until) == [LocalDate("2026-12-22"), LocalDate("2026-12-10")])
        func rrule(_ todo: Todo) -> [String] {
            ContentLine.unfold(ICalendarFormat.encode([todo], zone: utc)).map(String.init).filter { $0.hasPrefix("RRULE") }
        }
        var standup = todos(imported)[0]
        #expect(rrule(standup) == ["RRULE:FREQ=WEEKLY;UNTIL=20261222"])
        #expect(rrule(todos(imported)[1]) == ["RRULE:FREQ=DAILY;UNTIL=20261210T230000Z"])
        standup.until = LocalDate("2027-01-05")
        #expect(rrule(standup) == ["RRULE:FREQ=WEEKLY;UNTIL=20270105"])
        standup.until = nil
        #expect(rrule(standup) == ["RRULE:FREQ=WEEKLY"])
        let once = Todo(number: 3, title: "Renew passport", createdAt: now, until: LocalDate("2026-12-24"))
        #expect(!ICalendarFormat.encode([once], zone: utc).contains("UNTIL"))
    }

    @Test("RELATED-TO names the parent by the id its UID becomes, and stays in the file as written")
    func parent() throws {
        let child = try #require(try ICalendarFormat.decode(ICalendarFixtures.nextcloud, now: now, zone: utc).first)
        let parent = try #require(try ICalendarFormat.decode(vtodo("UID:7a8b9c0d1e", "SUMMARY:Garden"), now: now, zone: utc).first)
        #expect(child.parentID == parent.id)
        #expect(child.foreign["ical"]?.contains("RELATED-TO;RELTYPE=PARENT:7a8b9c0d1e") == true)
        let sibling = try ICalendarFormat.decode(vtodo("UID:d", "SUMMARY:x", "RELATED-TO;RELTYPE=SIBLING:7a8b9c0d1e"), now: now, zone: utc)
        #expect(sibling.first?.parentID == nil)
    }

    @Test("A todod subtask is written with RELATED-TO its parent's UID, which imports back as the parent; a parent taken away drops it")
    func subtaskWritten() throws {
        let parent = Todo(number: 3, title: "Garden", createdAt: now)
        var child = Todo(number: 4, title: "Mow", createdAt: now, parent: 3)
        let text = ICalendarFormat.encode([parent, child], zone: utc)
        #expect(text.contains("RELATED-TO:\(parent.id.uuidString.lowercased())\r\n"))
        let imported = try ICalendarFormat.decode(text, now: now, zone: utc)
        #expect(imported.map(\.parentID) == [nil, parent.id])

        // Alone in its file (the iCalendar directory), the parent's UID comes from `parents`.
        let nextcloud = try #require(try ICalendarFormat.decode(ICalendarFixtures.nextcloud, now: now, zone: utc).first)
        let garden = Todo(number: 7, title: "Garden", createdAt: now, foreign: ["ical": "UID:7a8b9c0d1e"])
        #expect(ICalendarFormat.uid(of: garden) == "7a8b9c0d1e")
        var mow = nextcloud.todo(number: 8)
        mow.parent = 7
        #expect(ICalendarFormat.encode([mow], parents: [7: "7a8b9c0d1e"], zone: utc).contains("RELATED-TO;RELTYPE=PARENT:7a8b9c0d1e"))
        mow.parent = nil
        #expect(!ICalendarFormat.encode([mow], parents: [7: "7a8b9c0d1e"], zone: utc).contains("RELATED-TO"))
        // A parent todod never had stays as the file named it.
        #expect(ICalendarFormat.encode([mow], zone: utc).contains("RELATED-TO;RELTYPE=PARENT:7a8b9c0d1e"))
        child.parent = nil
        #expect(!ICalendarFormat.encode([parent, child], zone: utc).contains("RELATED-TO"))
    }
}
