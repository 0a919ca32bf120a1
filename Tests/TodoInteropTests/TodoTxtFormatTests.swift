import Foundation
import Testing
import TodoInterop
import TodoModel

@Suite("todo.txt")
struct TodoTxtFormatTests {
    let utc = TimeZone(identifier: "UTC")!
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let file = """
        x 2026-11-20 2026-11-01 Call mum +family @phone due:2026-11-22 t:2026-11-19
        (A) 2026-11-01 Pay rent +home due:2026-12-01

        (B) Water the plants
        (D) Sort the shed rec:1m h:1
        Read https://example.org/a:b slowly
        """

    @Test("Each part of a line becomes the todo's: done and its day, priority, tags, due, t: the wait, kept fields")
    func fields() throws {
        let todos = try TodoTxtFormat.decode(file, now: now, zone: utc)
        #expect(todos.map(\.title) == ["Call mum", "Pay rent", "Water the plants", "Sort the shed", "Read https://example.org/a:b slowly"])
        #expect(todos[0].completedAt == BasicTime.midnight(of: LocalDate("2026-11-20")!, in: utc))
        #expect(todos[0].createdAt == BasicTime.midnight(of: LocalDate("2026-11-01")!, in: utc))
        #expect(todos[0].tags == ["family", "@phone"])
        #expect(todos[0].due == LocalDate("2026-11-22"))
        #expect(todos[0].foreign == [:])
        #expect(todos[0].wait == LocalDate("2026-11-19"))
        #expect(todos.map(\.priority) == [.normal, .high, .normal, .low, .normal])
        #expect(todos[3].foreign == ["todotxt": "pri:D h:1"])
        #expect(todos[3].recurrence == Recurrence(count: 1, unit: .month, basis: .completion))
        #expect(todos[2].createdAt == now)
        #expect(todos[1].completedAt == nil)
    }

    @Test("due: and t: take a time of day, due:2026-12-24T15:00, written back so; a day alone is the whole day; a bad time is refused saying what to write")
    func times() throws {
        let todos = try TodoTxtFormat.decode("Call the bank due:2026-12-24T15:00 t:2026-12-20T08:30\nPay rent due:2026-12-24\n", now: now, zone: utc)
        #expect(todos[0].due == LocalDate("2026-12-24") && todos[0].dueTime == TimeOfDay("15:00"))
        #expect(todos[0].wait == LocalDate("2026-12-20") && todos[0].waitTime == TimeOfDay("08:30"))
        #expect(todos[1].due == LocalDate("2026-12-24") && todos[1].dueTime == nil)
        var made = todos.enumerated().map { $1.todo(number: $0 + 1) }
        made[1].dueTime = TimeOfDay("09:05")
        let lines = TodoTxtFormat.encode(made, zone: utc).split(separator: "\n")
        #expect(lines[0].contains(" due:2026-12-24T15:00 ") && lines[0].contains(" t:2026-12-20T08:30 "), "\(lines)")
        #expect(lines[1].contains(" due:2026-12-24T09:05 "), "\(lines)")
        let refusal = #expect(throws: InteropError.self) { try TodoTxtFormat.decode("Late due:2026-12-24T25:00", now: now, zone: utc) }
        #expect(refusal?.description.contains("due:2026-11-22T15:00") == true, "\(String(describing: refusal))")
    }

    @Test("A due: or t: at a time the zone's clocks skip reads as the time RFC 5545's instant shows, as iCalendar's does: Berlin's 2027-03-28T02:30 is 03:30; one shown twice stays as written")
    func timeInSummerTimeGap() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let todos = try TodoTxtFormat.decode("Gap due:2027-03-28T02:30 t:2027-03-28T02:00\nTwice due:2026-10-25T02:30\n", now: now, zone: berlin)
        #expect(todos[0].due == LocalDate("2027-03-28") && todos[0].dueTime == TimeOfDay("03:30"), "\(todos[0])")
        #expect(todos[0].wait == LocalDate("2027-03-28") && todos[0].waitTime == TimeOfDay("03:00"), "\(todos[0])")
        #expect(todos[1].dueTime == TimeOfDay("02:30"), "\(todos[1])")
    }

    @Test("What is written reads back as the same todos, with todod's id and the kept fields")
    func roundTrip() throws {
        let todos = try TodoTxtFormat.decode(file, now: now, zone: utc)
        let written = TodoTxtFormat.encode(todos.enumerated().map { $1.todo(number: $0 + 1) }, zone: utc)
        let lines = written.split(separator: "\n")
        #expect(lines[0] == "x 2026-11-20 2026-11-01 Call mum +family @phone due:2026-11-22 t:2026-11-19 uid:\(todos[0].id.uuidString.lowercased())")
        #expect(lines[1].hasPrefix("(A) 2026-11-01 Pay rent +home due:2026-12-01 uid:"))
        #expect(lines[2].hasPrefix("(B) "))
        #expect(lines[3].hasPrefix("(D) ") && lines[3].contains(" rec:1m h:1 "))
        let again = try TodoTxtFormat.decode(written, now: now, zone: utc)
        // A line without a creation day is written with the day it was imported: all else is the same.
        func summary(_ todo: ImportedTodo) -> String {
            "\(todo.id) \(todo.title) \(todo.priority) \(todo.due?.description ?? "-") \(todo.tags) \(String(describing: todo.completedAt)) \(todo.foreign)"
        }
        #expect(again.map(summary) == todos.map(summary))
    }

    @Test("The same lines read twice give the same ids, so a second import finds the first")
    func stableIDs() throws {
        let first = try TodoTxtFormat.decode(file, now: now, zone: utc).map(\.id)
        let second = try TodoTxtFormat.decode(file, now: now.addingTimeInterval(60), zone: utc).map(\.id)
        #expect(first == second)
        #expect(Set(first).count == first.count)
    }

    @Test("A due date that is not a day is refused with its line")
    func badDue() {
        #expect(throws: InteropError("line 2", "due:friday is not a day like due:2026-11-22, or a day and time like due:2026-11-22T15:00")) {
            try TodoTxtFormat.decode("Fine\nCall Bob due:friday\n", now: now)
        }
    }

    @Test("Deleted todos are not written: todo.txt has no such state")
    func deleted() {
        let gone = Todo(number: 1, title: "Gone", createdAt: now, deletedAt: now)
        #expect(TodoTxtFormat.encode([gone]) == "")
    }

    @Test("rec: is the recurrence, + counting from the due date; one todod cannot hold stays in the line as written")
    func recurrence() throws {
        let todos = try TodoTxtFormat.decode("Standup due:2026-11-24 rec:+1b\nRent rec:+2w\nOdd rec:3b\nBad rec:0d\n", now: now, zone: utc)
        #expect(todos.map(\.recurrence) == [
            Recurrence(count: 1, unit: .weekday, basis: .due), Recurrence(count: 2, unit: .week, basis: .due), nil, nil,
        ])
        #expect(todos.map(\.foreign) == [[:], [:], ["todotxt": "rec:3b"], ["todotxt": "rec:0d"]])
        var edited = todos[1].todo(number: 2)
        edited.recurrence = Recurrence(count: 5, unit: .day, basis: .completion)
        #expect(TodoTxtFormat.encode([edited], zone: utc).contains(" rec:5d uid:"))
        #expect(TodoTxtFormat.encode([todos[2].todo(number: 3)], zone: utc).contains(" rec:3b uid:"))
    }
}
