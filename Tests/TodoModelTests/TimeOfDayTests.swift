import Foundation
import Testing
import TodoModel

/// Times of day beside due, wait and scheduled: a time goes with its day, set, cleared,
/// coded, repeated and undone with it.
@Suite("Times of day")
struct TimeOfDayTests {
    let fifteen = TimeOfDay(hour: 15, minute: 0)!
    let nineThirty = TimeOfDay(hour: 9, minute: 30)!

    @Test("A time of day reads and writes HH:MM, 00:00 to 23:59, and nothing else")
    func text() throws {
        #expect(TimeOfDay("15:00") == fifteen && fifteen.description == "15:00" && fifteen.minutes == 900)
        #expect(TimeOfDay("00:00")?.minutes == 0 && TimeOfDay("23:59") == .endOfDay)
        for bad in ["24:00", "12:60", "9:30", "09:30:00", "ab:cd", "", "-1:00", "09-30"] { #expect(TimeOfDay(bad) == nil, "\(bad)") }
        #expect(TimeOfDay(minutes: 1440) == nil && TimeOfDay(minutes: -1) == nil)
        let coded = try JSONEncoder().encode([fifteen])
        #expect(String(decoding: coded, as: UTF8.self) == #"["15:00"]"#)
        #expect(try JSONDecoder().decode([TimeOfDay].self, from: coded) == [fifteen])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([TimeOfDay].self, from: Data(#"["25:00"]"#.utf8)) }
    }

    @Test("A todo codes its times beside its days, and a todo without them is the bytes it was; no time is kept without its day")
    func todoCoding() throws {
        let created = Date(millisecondsSince1970: 1_780_000_000_000)
        let plain = Todo(number: 1, title: "t", due: LocalDate("2026-12-24"), createdAt: created)
        var timed = plain
        timed.dueTime = fifteen
        timed.wait = LocalDate("2026-12-23")
        timed.waitTime = nineThirty
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(timed), as: UTF8.self)
        #expect(text.contains(#""dueTime":"15:00""#) && text.contains(#""waitTime":"09:30""#) && !text.contains("scheduledTime"))
        #expect(try JSONDecoder().decode(Todo.self, from: Data(text.utf8)) == timed)
        #expect(!String(decoding: try encoder.encode(plain), as: UTF8.self).contains("Time"))
        // A row carries them: a list tells overdue and waiting by the minute.
        #expect(timed.row.dueTime == fifteen && timed.row.waitTime == nineThirty)
        // Taking the day away takes its time; a time given without a day is not kept.
        timed.due = nil
        #expect(timed.dueTime == nil)
        #expect(Todo(number: 2, title: "t", createdAt: created, dueTime: fifteen).dueTime == nil)
        #expect(NewTodo(title: "t", scheduledTime: fifteen).scheduledTime == nil)
    }

    @Test("An edit sets a day with its time; a new day without one is due all day; clearing the day clears its time")
    func edits() throws {
        let now = Date(millisecondsSince1970: 1_780_000_000_000)
        let todo = Todo(
            number: 1, title: "Call the bank", due: LocalDate("2026-12-24"), createdAt: now, wait: LocalDate("2026-12-20"),
            scheduled: LocalDate("2026-12-22"), dueTime: fifteen, waitTime: nineThirty, scheduledTime: nineThirty)
        let moved = TodoEdit(due: LocalDate("2026-12-25"), dueTime: nineThirty).applied(to: todo)
        #expect(moved.due == LocalDate("2026-12-25") && moved.dueTime == nineThirty)
        let allDay = TodoEdit(due: LocalDate("2026-12-25"), wait: LocalDate("2026-12-21"), scheduled: LocalDate("2026-12-23")).applied(to: todo)
        #expect(allDay.dueTime == nil && allDay.waitTime == nil && allDay.scheduledTime == nil)
        let cleared = TodoEdit(clearDue: true, clearWait: true, clearScheduled: true).applied(to: todo)
        #expect(cleared.dueTime == nil && cleared.waitTime == nil && cleared.scheduledTime == nil)
        // A title edit leaves them alone.
        let renamed = TodoEdit(title: "Call the bank again").applied(to: todo)
        #expect(renamed.dueTime == fifteen && renamed.waitTime == nineThirty && renamed.scheduledTime == nineThirty)
        // An edit's time without its day means nothing.
        #expect(TodoEdit(dueTime: fifteen).dueTime == nil)
    }

    @Test("The due field is its day and its time: undo and sharing compare and copy them together")
    func field() {
        let now = Date(millisecondsSince1970: 1_780_000_000_000)
        let day = LocalDate("2026-12-24")
        let timed = Todo(number: 1, title: "t", due: day, createdAt: now, dueTime: fifteen)
        let allDay = Todo(id: timed.id, number: 1, title: "t", due: day, createdAt: now)
        #expect(!TodoField.due.isEqual(in: timed, and: allDay))
        #expect(TodoField.due.copied(from: timed, to: allDay) == timed)
        let waiting = Todo(id: timed.id, number: 1, title: "t", createdAt: now, wait: day, waitTime: fifteen)
        #expect(!TodoField.wait.isEqual(in: waiting, and: allDay) && TodoField.wait.copied(from: waiting, to: allDay).waitTime == fifteen)
    }

    @Test("A repeating todo's next occurrence is due at the same time of day, its wait and scheduled times kept")
    func repeating() throws {
        let now = Date(millisecondsSince1970: 1_780_000_000_000)
        let todo = Todo(
            number: 1, title: "Stand-up", due: LocalDate("2026-12-01"), createdAt: now, recurrence: Recurrence(count: 1, unit: .day),
            wait: LocalDate("2026-12-01"), scheduled: LocalDate("2026-12-01"), dueTime: nineThirty, waitTime: TimeOfDay(hour: 9, minute: 0),
            scheduledTime: TimeOfDay(hour: 9, minute: 15))
        let next = try #require(todo.nextOccurrence(completedOn: LocalDate("2026-12-01")!))
        #expect(next.due == LocalDate("2026-12-02") && next.dueTime == nineThirty)
        #expect(next.waitTime == TimeOfDay(hour: 9, minute: 0) && next.scheduledTime == TimeOfDay(hour: 9, minute: 15))
        let made = Todo(next, number: 2, createdAt: now)
        #expect(made.dueTime == nineThirty && made.waitTime == next.waitTime && made.scheduledTime == next.scheduledTime)
    }

    @Test("An import, whose formats carry no time of day yet, keeps todod's time while the day is the same, and drops it with a new day")
    func importKeepsTime() throws {
        let then = Date(millisecondsSince1970: 1_780_000_000_000)
        let current = Todo(
            number: 4, title: "Call the bank", due: LocalDate("2026-12-24"), createdAt: then, wait: LocalDate("2026-12-20"),
            dueTime: fifteen, waitTime: nineThirty)
        let later = then.addingTimeInterval(60)
        let renamed = ImportedTodo(
            id: current.id, title: "Call the bank today", due: LocalDate("2026-12-24"), createdAt: then, updatedAt: later,
            wait: LocalDate("2026-12-20"))
        let kept = try #require(renamed.replacing(current))
        #expect(kept.title == "Call the bank today" && kept.dueTime == fifteen && kept.waitTime == nineThirty)
        var moved = renamed
        moved.due = LocalDate("2026-12-27")
        #expect(try #require(moved.replacing(current)).dueTime == nil)
    }
}

/// The default order with due times: by day, then time, a whole day's after the times of that day.
@Suite("Due times in the default order")
struct DueTimeOrderTests {
    @Test("On one day a todo due at 09:00 comes before one due at 15:00, and both before one due all day; an earlier day still comes first")
    func order() {
        let created = Date(millisecondsSince1970: 1_780_000_000_000)
        func todo(_ number: Int, _ due: String, _ time: String?) -> Todo {
            Todo(number: number, title: "t", due: LocalDate(due), createdAt: created, dueTime: time.flatMap(TimeOfDay.init))
        }
        // Numbered so that the last tie-break (higher number first) would give another order.
        let todos = [todo(3, "2026-12-24", nil), todo(2, "2026-12-24", "15:00"), todo(4, "2026-12-25", "08:00"), todo(1, "2026-12-24", "09:00"),
                     todo(5, "2026-12-23", nil)]
        #expect(todos.sorted(by: Todo.precedesInDefaultOrder).map(\.number) == [5, 1, 2, 3, 4])
    }
}

@Suite("Timed waits")
struct TimedWaitTests {
    let today = LocalDate("2026-11-23")!

    private func waiting(_ day: String, _ time: String?) -> Todo {
        Todo(number: 1, title: "t", createdAt: Date(timeIntervalSince1970: 0), wait: LocalDate(day), waitTime: time.flatMap(TimeOfDay.init))
    }

    @Test("A todo waiting until 15:00 today waits through the morning and its wait is over from 15:00; one waiting for the whole day is over at midnight; the daemon's timer wakes at its minute")
    func waitEndsAtItsMinute() {
        let three = waiting("2026-11-23", "15:00")
        #expect(three.isWaiting(on: today) && !three.isWaitOver(on: today, at: TimeOfDay("14:59")!))
        #expect(three.isWaitOver(on: today, at: TimeOfDay("15:00")!))
        #expect(three.waitEnds?.day == today && three.waitEnds?.time == TimeOfDay("15:00"))
        let allDay = waiting("2026-11-23", nil)
        #expect(!allDay.isWaiting(on: today) && allDay.isWaitOver(on: today, at: TimeOfDay("00:00")!) && allDay.waitEnds == nil)
        let tomorrow = waiting("2026-11-24", "09:00")
        #expect(tomorrow.isWaiting(on: today) && !tomorrow.isWaitOver(on: today, at: .endOfDay))
        #expect(waiting("2026-11-22", "23:00").isWaitOver(on: today, at: TimeOfDay("00:00")!))
    }
}
