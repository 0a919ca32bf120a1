import Foundation
import Testing
import TodoModel

@Suite("Recurrence, subtasks and waiting in the Model")
struct PlanningRuleTests {
    private func day(_ text: String) -> LocalDate { LocalDate(text)! }
    private let created = Date(timeIntervalSince1970: 1_780_000_000)

    @Test("reads periods and words, and refuses the rest", arguments: [
        ("1w", "1w", "every week"), ("3d", "3d", "every 3 days"), ("daily", "1d", "every day"),
        ("weekly", "1w", "every week"), ("monthly", "1m", "every month"), ("Yearly", "1y", "every year"),
        ("weekdays", "weekdays", "every weekday"), ("12m", "12m", "every 12 months"),
    ])
    func reads(text: String, period: String, words: String) throws {
        let rule = try #require(Recurrence(text))
        #expect(rule.period == period)
        #expect(rule.description == words)
    }

    @Test("refuses what is not a period", arguments: ["", "w", "0d", "1000d", "3x", "-1d", "+1d", "1 w", "weekday", "1weekdays", "d3"])
    func refuses(text: String) {
        #expect(Recurrence(text) == nil)
    }

    @Test("from completion it says so")
    func afterCompletionWords() throws {
        #expect(try #require(Recurrence("3d", basis: .completion)).description == "3 days after completion")
        #expect(try #require(Recurrence("daily", basis: .completion)).description == "1 day after completion")
    }

    @Test("from the due date, a late completion still counts from the due date")
    func fromDue() throws {
        let weekly = try #require(Recurrence("1w"))
        #expect(weekly.nextDue(after: day("2026-11-20"), completedOn: day("2026-11-25")) == day("2026-11-27"))
        #expect(weekly.nextDue(after: nil, completedOn: day("2026-11-25")) == day("2026-12-02"))
    }

    @Test("from completion, it counts from the day it was done")
    func fromCompletion() throws {
        let rule = try #require(Recurrence("3d", basis: .completion))
        #expect(rule.nextDue(after: day("2026-11-20"), completedOn: day("2026-11-25")) == day("2026-11-28"))
    }

    @Test("months clamp to the month's end and come back to the day after")
    func monthsClamp() throws {
        let monthly = try #require(Recurrence("monthly")).anchored(to: day("2026-01-31"))
        let february = try #require(monthly.nextDue(after: day("2026-01-31"), completedOn: day("2026-01-31")))
        #expect(february == day("2026-02-28"))
        #expect(monthly.nextDue(after: february, completedOn: february) == day("2026-03-31"))
        #expect(monthly.nextDue(after: day("2024-01-31"), completedOn: day("2024-01-31")) == day("2024-02-29"))
        let yearly = try #require(Recurrence("yearly")).anchored(to: day("2024-02-29"))
        #expect(yearly.nextDue(after: day("2024-02-29"), completedOn: day("2024-02-29")) == day("2025-02-28"))
        #expect(yearly.nextDue(after: day("2027-02-28"), completedOn: day("2027-02-28")) == day("2028-02-29"))
    }

    @Test("past the calendar's end (9999-12-31) there is no next occurrence, rather than one due the same day")
    func calendarEnd() throws {
        let end = day("9999-12-31")
        for text in ["999y", "1m", "daily", "weekly", "weekdays"] {
            let rule = try #require(Recurrence(text)).anchored(to: end)
            #expect(rule.nextDue(after: end, completedOn: end) == nil, "\(text)")
        }
        #expect(try #require(Recurrence("1y")).nextDue(after: day("9998-06-01"), completedOn: day("9998-06-01")) == day("9999-06-01"))
        let last = Todo(number: 1, title: "e", due: end, createdAt: Date(timeIntervalSince1970: 0), recurrence: Recurrence("999y"))
        #expect(last.nextOccurrence(completedOn: end) == nil)
    }

    @Test("weekdays skip Saturday and Sunday")
    func weekdays() throws {
        let rule = try #require(Recurrence("weekdays"))
        #expect(rule.nextDue(after: day("2026-11-20"), completedOn: day("2026-11-20")) == day("2026-11-23"))
        #expect(rule.nextDue(after: day("2026-11-23"), completedOn: day("2026-11-23")) == day("2026-11-24"))
    }

    @Test("a rule codes as every/from and back, a bad period refused")
    func coding() throws {
        let rule = try #require(Recurrence("1m")).anchored(to: day("2026-01-31"))
        let data = try JSONEncoder().encode(rule)
        #expect(String(decoding: data, as: UTF8.self).contains("\"every\":\"1m\""))
        #expect(try JSONDecoder().decode(Recurrence.self, from: data) == rule)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Recurrence.self, from: Data(#"{"every":"0d"}"#.utf8)) }
    }

    @Test("the next occurrence keeps the todo, moves its due date and its wait by the same span")
    func nextOccurrence() throws {
        let todo = Todo(
            number: 4, title: "Water the plants", notes: "all of them", priority: .high, due: day("2026-11-20"),
            tags: ["home"], createdAt: created, recurrence: Recurrence("1w"), parent: 2, wait: day("2026-11-18"))
        let next = try #require(todo.nextOccurrence(completedOn: day("2026-11-22")))
        #expect(next.title == "Water the plants" && next.notes == "all of them" && next.priority == .high)
        #expect(next.tags == ["home"] && next.parent == 2 && next.recurrence == Recurrence("1w"))
        #expect(next.due == day("2026-11-27"))
        #expect(next.wait == day("2026-11-25"))
        #expect(Todo(number: 5, title: "once", createdAt: created).nextOccurrence(completedOn: day("2026-11-22")) == nil)
    }

    @Test("until ends a series: an occurrence due on the until day is made, with the same until; none due after it (Taskwarrior makes no instance past a template's until)")
    func untilEndsTheSeries() throws {
        let weekly = Todo(
            number: 4, title: "Standup notes", due: day("2026-11-20"), createdAt: created, recurrence: Recurrence("1w"), until: day("2026-11-27"))
        let last = try #require(weekly.nextOccurrence(completedOn: day("2026-11-20")))
        #expect(last.due == day("2026-11-27") && last.until == day("2026-11-27"))
        let made = Todo(last, number: 5, createdAt: created, previous: 4)
        #expect(made.until == day("2026-11-27"))
        #expect(made.nextOccurrence(completedOn: day("2026-11-27")) == nil)
        // After completion: counted from the day it is done, and ended as well.
        let afterDone = Todo(number: 6, title: "Descale", createdAt: created, recurrence: Recurrence(count: 1, unit: .week, basis: .completion), until: day("2026-12-01"))
        #expect(afterDone.nextOccurrence(completedOn: day("2026-11-23"))?.due == day("2026-11-30"))
        #expect(afterDone.nextOccurrence(completedOn: day("2026-11-25")) == nil)
    }

    @Test("an open todo expires once its until day has passed, not on it; a done or deleted one never does")
    func expiry() {
        let open = Todo(number: 1, title: "Renew passport", createdAt: created, until: day("2026-11-27"))
        #expect(!open.isExpired(on: day("2026-11-27")))
        #expect(open.isExpired(on: day("2026-11-28")))
        var done = open
        done.completedAt = created
        #expect(!done.isExpired(on: day("2026-12-01")))
        var deleted = open
        deleted.deletedAt = created
        #expect(!deleted.isExpired(on: day("2026-12-01")))
        #expect(!Todo(number: 2, title: "no until", createdAt: created).isExpired(on: day("2099-01-01")))
    }

    @Test("an edit sets and clears the until day, as it does the wait")
    func untilEdits() {
        let todo = Todo(number: 3, title: "t", createdAt: created)
        let set = TodoEdit(until: day("2026-12-24")).applied(to: todo)
        #expect(set.until == day("2026-12-24"))
        #expect(TodoEdit(until: day("2026-12-31"), clearUntil: true).applied(to: set).until == nil)
        #expect(TodoField.until.isEqual(in: set, and: todo) == false)
        #expect(TodoField.until.copied(from: set, to: todo).until == day("2026-12-24"))
    }

    @Test("an edit sets and clears the rule, the parent and the wait")
    func edits() throws {
        let todo = Todo(number: 3, title: "t", due: day("2026-01-31"), createdAt: created)
        let edited = TodoEdit(recurrence: Recurrence("monthly"), parent: 1, wait: day("2026-01-20")).applied(to: todo)
        #expect(edited.recurrence?.dayOfMonth == 31)
        #expect(edited.parent == 1 && edited.wait == day("2026-01-20"))
        let cleared = TodoEdit(recurrence: Recurrence("1d"), clearRecurrence: true, clearParent: true, clearWait: true).applied(to: edited)
        #expect(cleared.recurrence == nil && cleared.parent == nil && cleared.wait == nil)
    }

    @Test("subtasks are one level deep, never their own parent, and not under a deleted or done parent")
    func subtaskRule() {
        let parent = Todo(number: 1, title: "p", createdAt: created)
        let child = Todo(number: 2, title: "c", createdAt: created, parent: 1)
        let other = Todo(number: 3, title: "o", createdAt: created)
        func reason(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch {
                if case TodoModelError.invalid("parent", let reason) = error { return reason }
                return "\(error)"
            }
        }
        #expect(reason { try SubtaskRule.check(child: other, parentNumber: 1, parent: parent, childHasSubtasks: false) } == nil)
        #expect(reason { try SubtaskRule.check(child: other, parentNumber: 9, parent: nil, childHasSubtasks: false) }?.contains("no todo #9") == true)
        #expect(reason { try SubtaskRule.check(child: parent, parentNumber: 1, parent: parent, childHasSubtasks: false) }?.contains("its own parent") == true)
        #expect(reason { try SubtaskRule.check(child: other, parentNumber: 2, parent: child, childHasSubtasks: false) }?.hasSuffix(RuleAdvice.parentInstead(1)) == true)
        #expect(reason { try SubtaskRule.check(child: parent, parentNumber: 3, parent: other, childHasSubtasks: true) }?.contains("one level deep") == true)
        var deleted = parent
        deleted.deletedAt = created
        #expect(reason { try SubtaskRule.check(child: other, parentNumber: 1, parent: deleted, childHasSubtasks: false) }?.contains("restore it") == true)
        var done = parent
        done.completedAt = created
        #expect(reason { try SubtaskRule.check(child: nil, parentNumber: 1, parent: done, childHasSubtasks: false) }?.contains("reopen it") == true)
    }

    @Test("a parent with open subtasks is completed only with them")
    func parentCompletion() {
        let parent = Todo(number: 1, title: "p", createdAt: created)
        let open = [Todo(number: 2, title: "c", createdAt: created, parent: 1)]
        var refusal: String?
        do { try SubtaskRule.checkCompletion(of: parent, openSubtasks: open, withSubtasks: false) } catch { refusal = "\(error)" }
        #expect(refusal?.contains(RuleAdvice.completeWithSubtasks) == true)
        #expect(refusal?.contains("#2") == true)
        #expect(throws: Never.self) { try SubtaskRule.checkCompletion(of: parent, openSubtasks: open, withSubtasks: true) }
        #expect(throws: Never.self) { try SubtaskRule.checkCompletion(of: parent, openSubtasks: [], withSubtasks: false) }
    }

    @Test("a waiting todo is left out of open lists until its day, and is all `waiting` lists show")
    func waitingFilter() {
        let waiting = Todo(number: 1, title: "w", createdAt: created, wait: day("2026-11-25"))
        let plain = Todo(number: 2, title: "p", createdAt: created)
        let today = day("2026-11-22")
        #expect(!TodoFilter().matches(waiting, today: today))
        #expect(!TodoFilter(status: .all).matches(waiting, today: today))
        #expect(TodoFilter().matches(waiting, today: day("2026-11-25")))
        #expect(TodoFilter(waiting: true).matches(waiting, today: today))
        #expect(!TodoFilter(waiting: true).matches(plain, today: today))
        #expect(TodoFilter().matches(plain, today: today))
    }
}
