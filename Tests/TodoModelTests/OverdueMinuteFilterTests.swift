import Foundation
import Testing
import TodoModel

/// `--overdue` and `+OVERDUE` at the minute: a filter's due span may end at a time on its
/// last day (`TodoFilter.dueByTime`), as a todo due at 09:00 is overdue from 09:00.
@Suite("Overdue at the minute in a filter")
struct OverdueMinuteFilterTests {
    let today = LocalDate("2026-11-23")!
    let created = Date(timeIntervalSince1970: 0)

    private func todo(_ day: String, _ time: String?) -> Todo {
        Todo(number: 1, title: "t", due: LocalDate(day), createdAt: created, dueTime: time.flatMap(TimeOfDay.init))
    }

    private func overdue(at minute: String) -> TodoFilter {
        TodoFilter(dueBefore: today, dueByTime: TimeOfDay(minute))
    }

    @Test("A todo due today at 09:00 is overdue at 09:01 and at 09:00, not at 08:59; one due today without a time is not; one due yesterday is at any minute")
    func dueToday() {
        let nine = todo("2026-11-23", "09:00")
        #expect(overdue(at: "09:01").matches(nine, today: today))
        #expect(overdue(at: "09:00").matches(nine, today: today))
        #expect(!overdue(at: "08:59").matches(nine, today: today))
        #expect(!overdue(at: "23:59").matches(todo("2026-11-23", nil), today: today))
        #expect(overdue(at: "00:00").matches(todo("2026-11-22", "23:59"), today: today))
        #expect(overdue(at: "00:00").matches(todo("2026-11-22", nil), today: today))
        #expect(!overdue(at: "23:59").matches(todo("2026-11-24", "00:00"), today: today))
        // Without a time the span ends with the day before, as it always did.
        #expect(!TodoFilter(dueBefore: today).matches(nine, today: today))
    }

    @Test("Two ends of the due span (a context's and the command's) keep the earlier: the earlier day, on one day the earlier time, a day's end before any time on it")
    func narrowing() {
        var filter = overdue(at: "09:01")
        filter.narrowDue(before: LocalDate("2026-11-27")!)
        #expect(filter.dueBefore == today && filter.dueByTime == TimeOfDay("09:01"))
        filter.narrowDue(before: today, by: TimeOfDay("08:00"))
        #expect(filter.dueBefore == today && filter.dueByTime == TimeOfDay("08:00"))
        filter.narrowDue(before: today)
        #expect(filter.dueBefore == today && filter.dueByTime == nil)
        filter.narrowDue(before: today, by: TimeOfDay("12:00"))
        #expect(filter.dueByTime == nil)
        var later = TodoFilter(dueBefore: LocalDate("2026-11-27"))
        later.narrowDue(before: today, by: TimeOfDay("09:01"))
        #expect(later.dueBefore == today && later.dueByTime == TimeOfDay("09:01"))
    }

    @Test("The minute crosses the wire as dueByTime beside dueBefore, and a filter from before it reads without one")
    func coding() throws {
        let coded = try JSONEncoder().encode(overdue(at: "09:01"))
        let text = String(decoding: coded, as: UTF8.self)
        #expect(text.contains(#""dueByTime":"09:01""#), "\(text)")
        #expect(try JSONDecoder().decode(TodoFilter.self, from: coded) == overdue(at: "09:01"))
        let old = try JSONDecoder().decode(TodoFilter.self, from: Data(#"{"status":"open","dueBefore":"2026-11-23"}"#.utf8))
        #expect(old == TodoFilter(dueBefore: today) && old.dueByTime == nil)
    }
}
