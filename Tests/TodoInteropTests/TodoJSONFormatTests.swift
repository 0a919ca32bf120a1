import Foundation
import Testing
import TodoInterop
import TodoModel

@Suite("todod's own JSON")
struct TodoJSONFormatTests {
    @Test("Every field comes back as written, foreign fields, annotations, project and milliseconds included")
    func roundTrip() throws {
        let created = Date(millisecondsSince1970: 1_795_000_000_123)
        let todo = Todo(
            number: 7, title: "Write report", notes: "2026-11-23 first draft", priority: .high, due: LocalDate("2026-11-30"),
            tags: ["office"], createdAt: created, updatedAt: created.addingTimeInterval(60.5),
            completedAt: created.addingTimeInterval(120), revision: 3, foreign: ["taskwarrior": #"{"estimate":3}"#],
            annotations: [Annotation(entry: created.addingTimeInterval(30.25), description: "called the editor")], project: "work.reports")
        let imported = try #require(try TodoJSONFormat.decode(TodoJSONFormat.encode([todo])).first)
        #expect(imported.todo(number: 7, revision: 3) == todo)
    }

    @Test("What a todo waits for and its scheduled day come back as written, and an import of them replaces todod's")
    func dependsAndScheduled() throws {
        let created = Date(millisecondsSince1970: 1_795_000_000_000)
        let flour = Todo(number: 1, title: "Buy flour", createdAt: created)
        let cake = Todo(number: 2, title: "Bake cake", createdAt: created, depends: [flour.id], scheduled: LocalDate("2026-12-01"))
        let imported = try TodoJSONFormat.decode(TodoJSONFormat.encode([flour, cake]))
        #expect(imported.map { $0.todo(number: 1).depends } == [[], [flour.id]])
        #expect(imported.last?.scheduled == LocalDate("2026-12-01"))
        var later = cake
        later.depends = []
        later.scheduled = nil
        later.updatedAt = created.addingTimeInterval(60)
        let replaced = try #require(try TodoJSONFormat.decode(TodoJSONFormat.encode([later])).first?.replacing(cake))
        #expect(replaced.depends == [] && replaced.scheduled == LocalDate("2026-12-01"), "an absent scheduled leaves todod's, as wait")
    }

    @Test("A time of day the zone's clocks skip, written under another zone, reads as the other formats read one: Berlin's 2027-03-28 02:30 is 03:30, wait and scheduled too; a whole day stays one")
    func timeInSummerTimeGap() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let day = LocalDate("2027-03-28")
        let night = Todo(
            number: 1, title: "Night train", due: day, createdAt: Date(millisecondsSince1970: 1_795_000_000_000), wait: day,
            scheduled: day, dueTime: TimeOfDay("02:30"), waitTime: TimeOfDay("02:00"), scheduledTime: nil)
        let imported = try #require(try TodoJSONFormat.decode(TodoJSONFormat.encode([night]), zone: berlin).first)
        #expect(imported.due == day && imported.dueTime == TimeOfDay("03:30") && imported.waitTime == TimeOfDay("03:00"), "\(imported)")
        #expect(imported.scheduled == day && imported.scheduledTime == nil, "\(imported)")
        #expect(try TodoJSONFormat.decode(TodoJSONFormat.encode([night]), zone: TimeZone(identifier: "UTC")!).first?.todo(number: 1) == night)
    }

    @Test("Times of day come back as written, and an import that takes one away makes todod's todo due all day (they were dropped)")
    func times() throws {
        let created = Date(millisecondsSince1970: 1_795_000_000_000)
        let call = Todo(
            number: 1, title: "Call the bank", due: LocalDate("2026-12-24"), createdAt: created, wait: LocalDate("2026-12-20"),
            scheduled: LocalDate("2026-12-22"), dueTime: TimeOfDay("15:00"), waitTime: TimeOfDay("08:30"), scheduledTime: TimeOfDay("09:00"))
        let imported = try #require(try TodoJSONFormat.decode(TodoJSONFormat.encode([call])).first)
        #expect(imported.todo(number: 1) == call)
        var whole = call
        whole.dueTime = nil
        whole.updatedAt = created.addingTimeInterval(60)
        let replaced = try #require(try TodoJSONFormat.decode(TodoJSONFormat.encode([whole])).first?.replacing(call))
        #expect(replaced.due == LocalDate("2026-12-24") && replaced.dueTime == nil && replaced.waitTime == TimeOfDay("08:30"), "\(replaced)")
    }

    @Test("A todo's until day comes back as written (it was left out of what todod's own JSON imports)")
    func until() throws {
        let created = Date(millisecondsSince1970: 1_795_000_000_000)
        let passport = Todo(number: 1, title: "Renew passport", createdAt: created, until: LocalDate("2026-12-24"))
        let imported = try TodoJSONFormat.decode(TodoJSONFormat.encode([passport]))
        #expect(imported.first?.until == LocalDate("2026-12-24"))
        #expect(imported.first?.todo(number: 1).until == LocalDate("2026-12-24"))
    }

    @Test("A recurrence comes back, and a parent's number becomes its id in the file")
    func planning() throws {
        let created = Date(millisecondsSince1970: 1_795_000_000_000)
        let parent = Todo(number: 3, title: "Garden", createdAt: created)
        let weekly = Recurrence(count: 1, unit: .week)
        let child = Todo(number: 4, title: "Mow", createdAt: created, recurrence: weekly, parent: 3)
        let orphan = Todo(number: 5, title: "Elsewhere", createdAt: created, parent: 9)
        let imported = try TodoJSONFormat.decode(TodoJSONFormat.encode([parent, child, orphan]))
        #expect(imported.map(\.recurrence) == [nil, weekly, nil])
        #expect(imported.map(\.parentID) == [nil, parent.id, nil])
    }

    @Test("A todo that does not fit is refused, naming it by position and field")
    func badField() {
        let text = #"[{"id":"504a33a9-5410-4636-928d-5ed88ba3419d","title":"x","createdAt":"yesterday","updatedAt":"2026-11-23T11:34:16.000Z","number":1,"revision":1}]"#
        #expect(throws: InteropError("todo 1, field createdAt", "\"yesterday\" is not an instant like 2026-11-22T02:32:02.677Z")) {
            try TodoJSONFormat.decode(Data(text.utf8))
        }
    }

    @Test("A missing field or one of the wrong kind is said in words, not as Swift's decoding error")
    func missingAndMistyped() {
        let missing = #"[{"id":"aaaaaaaa-0000-4000-8000-000000000001","title":"x","createdAt":"2026-11-23T10:00:00.000Z"}]"#
        #expect(throws: InteropError("todo 1", "has no \"number\"; --from json reads what `todoctl export --to json` writes")) {
            try TodoJSONFormat.decode(Data(missing.utf8))
        }
        let mistyped = #"[{"id":"aaaaaaaa-0000-4000-8000-000000000001","title":7,"number":1,"createdAt":"2026-11-23T10:00:00.000Z"}]"#
        #expect(throws: InteropError("todo 1, field title", "is not a string; --from json reads what `todoctl export --to json` writes")) {
            try TodoJSONFormat.decode(Data(mistyped.utf8))
        }
    }
}
