import Foundation
import Testing
import TodoModel
import TodoViewModel

/// The words for a day with a time of day (`due:2026-12-24T15:00`, `--due 'fri 9am'`, `eod`),
/// read against a fixed today and minute; what is ambiguous is refused, saying why.
@Suite("Times of day in the date words")
struct TimeWordsTests {
    /// Sunday 2026-11-22 (the fixtures' today), at 10:30.
    let now = TimeOfDay(hour: 10, minute: 30)!

    private func read(_ text: String) -> DayTime? { DueDateParser.parseWithTime(text, today: today, now: now) }
    private func at(_ date: String, _ time: String?) -> DayTime { DayTime(LocalDate(date)!, time.flatMap(TimeOfDay.init)) }

    @Test("ISO date-times, now, sod and eod as Taskwarrior has them, a time alone as the next one, and any day with a time after it or joined by @")
    func forms() {
        #expect(read("2026-12-24T15:00") == at("2026-12-24", "15:00"))
        #expect(read("2026-12-24T15:00:30") == at("2026-12-24", "15:00"))
        #expect(read("2026-12-24 15:00") == at("2026-12-24", "15:00"))
        #expect(read("now") == at("2026-11-22", "10:30"))
        #expect(read("eod") == at("2026-11-22", "23:59"))
        #expect(read("sod") == at("2026-11-22", "00:00"))
        // Taskwarrior's due:15:00: today's while it is to come, else tomorrow's.
        #expect(read("15:00") == at("2026-11-22", "15:00"))
        #expect(read("9am") == at("2026-11-23", "09:00"))
        #expect(read("10:30") == at("2026-11-23", "10:30"))
        #expect(read("noon") == at("2026-11-22", "12:00"))
        #expect(read("tomorrow 15:00") == at("2026-11-23", "15:00"))
        #expect(read("fri 9am") == at("2026-11-27", "09:00"))
        #expect(read("Fri 3:30PM") == at("2026-11-27", "15:30"))
        #expect(read("fri@9am") == at("2026-11-27", "09:00"))
        #expect(read("dec 24 at 12am") == at("2026-12-24", "00:00"))
        #expect(read("in 2 days 12pm") == at("2026-11-24", "12:00"))
        // A day without a time is the whole day, as before.
        #expect(read("tomorrow") == at("2026-11-23", nil))
        #expect(at("2026-12-24", "15:00").description == "2026-12-24T15:00" && at("2026-12-24", nil).description == "2026-12-24")
    }

    @Test("A time that does not exist, a bare number and midnight are refused, saying why and what to write")
    func refusals() {
        for text in ["25:00", "fri 25:00", "2026-12-24T24:00", "13pm", "fri 9", "midnight", "fri@midnight", "12:5", "0am", "fri 9:60"] {
            #expect(read(text) == nil, "\(text)")
        }
        func problem(_ text: String) -> String? { DueDateParser.timeProblem(with: text, today: today, now: now) }
        #expect(problem("25:00") == "25:00: there is no hour 25; hours run from 00 to 23")
        #expect(problem("2026-12-24T24:00") == "2026-12-24T24:00: there is no hour 24; hours run from 00 to 23: write 00:00 with the next day, or eod (23:59)")
        #expect(problem("13pm")?.contains("1am to 12pm") == true)
        #expect(problem("fri 9") == "fri 9: 9 is no time of day: write 9am, 9pm or 09:00")
        #expect(problem("midnight")?.contains("sod or 00:00 for the start, eod or 23:59 for the end") == true)
        #expect(problem("fri 9:60")?.contains("60 is no minute") == true)
        #expect(problem("tomorow") == nil)
    }

    @Test("A day that does not exist before a time says so, and a time with a zone (Z, +02:00) says the zone is not taken and to write the local time")
    func dayAndZoneRefusals() {
        func problem(_ text: String) -> String? { DueDateParser.timeProblem(with: text, today: today, now: now) }
        #expect(read("2026-02-30T10:00") == nil && problem("2026-02-30T10:00") == "2026-02-30: February 2026 has 28 days")
        for text in ["2026-12-24T15:00Z", "2026-12-24T15:00+02:00", "2026-12-24T15:00-05:00", "2026-12-24T15:00:30z"] {
            #expect(read(text) == nil, "\(text)")
            let reason = problem(text) ?? ""
            #expect(reason.hasPrefix("\(text): todod keeps times in the local zone") && reason.contains("a zone (Z, +02:00) is not taken: write the local time, 2026-12-2"), "\(reason)")
        }
    }

    @Test("due:, wait: and scheduled: keep a time with their day; until: and a filter's days take none, and say so; a second different time is refused")
    func modifiers() throws {
        let words = try TaskwarriorWords.parse(
            ["Call", "the", "bank", "due:2026-12-24T15:00", "wait:fri@9am", "scheduled:eod"], use: .add, today: today, now: now)
        #expect(words.title == ["Call", "the", "bank"])
        #expect(words.dueMoment == at("2026-12-24", "15:00") && words.waitMoment == at("2026-11-27", "09:00"))
        #expect(words.scheduled == LocalDate("2026-11-22") && words.scheduledTime == .endOfDay)
        // One argument with a space, as the shell passes a quoted one.
        let quoted = try TaskwarriorWords.parse(["x", "due:tomorrow 15:00"], use: .edit, today: today, now: now)
        #expect(quoted.dueMoment == at("2026-11-23", "15:00") && quoted.title == ["x"])
        let allDay = try TaskwarriorWords.parse(["x", "due:fri"], use: .add, today: today, now: now)
        #expect(allDay.dueMoment == at("2026-11-27", nil))

        func refusal(_ words: [String], _ use: TaskwarriorWords.Use = .add) -> String {
            do {
                _ = try TaskwarriorWords.parse(words, use: use, today: today, now: now)
                return "taken"
            } catch {
                return error.message
            }
        }
        #expect(refusal(["x", "until:2026-12-24T15:00"]).contains("give the day alone, 2026-12-24"))
        #expect(refusal(["due:2026-12-24T15:00"], .filter).contains("give the day alone, 2026-12-24"))
        #expect(refusal(["x", "due:fri", "due:fri@9am"]).contains("due:fri"))
        #expect(refusal(["x", "due:fri@25:00"]).contains("there is no hour 25"))
    }
}

/// A row's due text and overdue mark with a due time, read against a day and a minute.
@Suite("Due times in a list's rows")
struct DueTimeRowTests {
    let created = Date(timeIntervalSince1970: 0)

    private func row(_ due: String, _ time: String?, now: String?) -> TodoViewModel {
        TodoViewModel(
            Todo(number: 1, title: "t", due: LocalDate(due), createdAt: created, dueTime: time.flatMap(TimeOfDay.init)),
            today: today, now: now.flatMap(TimeOfDay.init))
    }

    @Test("A todo due today at a time is overdue from that minute, said in minutes or hours; another day's time stands beside its words; without a time or a minute, by the day as before")
    func dueTexts() {
        #expect(row("2026-11-22", "15:00", now: "10:30").dueText == "in 4 h" && !row("2026-11-22", "15:00", now: "10:30").isOverdue)
        #expect(row("2026-11-22", "10:45", now: "10:30").dueText == "in 15 min")
        #expect(row("2026-11-22", "10:30", now: "10:30").isOverdue && row("2026-11-22", "10:30", now: "10:30").dueText == "due now")
        #expect(row("2026-11-22", "08:00", now: "10:30").dueText == "2 h overdue" && row("2026-11-22", "08:00", now: "10:30").isOverdue)
        #expect(row("2026-11-23", "09:00", now: "10:30").dueText == "tomorrow 09:00" && !row("2026-11-23", "09:00", now: "10:30").isOverdue)
        #expect(row("2026-11-25", "09:00", now: "10:30").dueText == "in 3 days 09:00")
        #expect(row("2026-12-24", "15:00", now: "10:30").dueText == "2026-12-24 15:00")
        #expect(row("2026-11-21", "23:00", now: "10:30").dueText == "1 day overdue" && row("2026-11-21", "23:00", now: "10:30").isOverdue)
        // Without the minute (a View that knows only the day): today's time is not yet overdue.
        #expect(row("2026-11-22", "08:00", now: nil).dueText == "today 08:00" && !row("2026-11-22", "08:00", now: nil).isOverdue)
        #expect(row("2026-11-22", nil, now: "10:30").dueText == "today" && !row("2026-11-22", nil, now: "23:59").isOverdue)
        // A row to send says its moment as the wire writes it.
        #expect(TodoViewModel(Todo(number: 1, title: "t", due: LocalDate("2026-12-24"), createdAt: created, dueTime: TimeOfDay("15:00"))).dueText == "2026-12-24T15:00")
    }
}

@Suite("Due times in --sort due")
struct DueTimeSortTests {
    @Test("--sort due puts the times of one day in order, before that day's whole-day todo")
    func sortByDue() throws {
        let created = Date(timeIntervalSince1970: 0)
        let rows = [("2026-12-24", nil), ("2026-12-24", "15:00"), ("2026-12-24", "09:00")].enumerated().map { index, due in
            TodoViewModel(Todo(number: index + 1, title: "t", due: LocalDate(due.0), createdAt: created, dueTime: due.1.flatMap(TimeOfDay.init)))
        }
        #expect(try TodoSort("due").sorted(rows).map(\.number) == [3, 2, 1])
        #expect(try TodoSort("-due").sorted(rows).map(\.number) == [1, 2, 3])
    }
}

@Suite("Due times in next")
struct DueTimeNextTests {
    @Test("next puts a todo due today in an hour before one due by the day's end and one due at 23:00, on the same points")
    func nextByTheMinute() {
        let created = Date(timeIntervalSince1970: 0)
        let today = LocalDate("2026-11-23")!
        let rows = [nil, "23:00", "10:00"].enumerated().map { index, time in
            TodoViewModel(Todo(number: index + 1, title: "t", due: today, createdAt: created, dueTime: time.flatMap(TimeOfDay.init)))
        }
        #expect(rows.map { NextOrder.points($0.todo, today: today) } == [12, 12, 12])
        #expect(NextOrder.ordered(rows, today: today).map(\.number) == [3, 2, 1])
    }
}
