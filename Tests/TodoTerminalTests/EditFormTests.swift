import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// An instant `minutes` after a fixed origin, in whole milliseconds.
private func at(_ minutes: Int) -> Date {
    Date(millisecondsSince1970: 1_780_000_000_000 + Int64(minutes) * 60_000)
}

private func day(_ text: String) -> LocalDate {
    guard let date = LocalDate(text) else { preconditionFailure("bad test date \(text)") }
    return date
}

private let today = day("2026-11-22")

@Suite("The edit form (todoctl edit)")
struct EditFormTests {
    let todo = Todo(
        number: 5, title: "Plan trip", notes: "Book train\nAsk about hotel", priority: .high, due: day("2026-12-01"),
        tags: ["travel", "family"], createdAt: at(0), revision: 3)
    var detail: TodoDetailViewModel { TodoDetailViewModel(todo, today: today) }

    /// The form with the line starting with `field:` replaced by `field: value`.
    private func form(_ field: String, _ value: String) -> String {
        detail.editForm.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("\(field):") ? "\(field): \(value)" : String($0) }
            .joined(separator: "\n")
    }

    /// The field named by the validation error `body` throws.
    private func refusedField(_ body: () throws(TodoError) -> TodoEdit?) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            #expect(error.code == .validation)
            return error.field
        }
    }

    @Test("the edit form shows every field")
    func editForm() {
        let form = detail.editForm
        #expect(form.contains("#5 at revision 3"))
        #expect(form.contains("\ntitle: Plan trip\n"))
        #expect(form.contains("\npriority: high\n"))
        #expect(form.contains("\ndue: 2026-12-01\n"))
        #expect(form.contains("\ntags: travel family\n"))
        #expect(form.hasSuffix("notes:\nBook train\nAsk about hotel"))
    }

    @Test("an unchanged form asks for no change", arguments: [false, true])
    func unchangedForm(editorAddsNewline: Bool) throws {
        let form = detail.editForm + (editorAddsNewline ? "\n" : "")
        #expect(try detail.edit(fromForm: form, today: today) == TodoEdit())
        let bare = TodoDetailViewModel(Todo(number: 1, title: "x", createdAt: at(0)))
        #expect(try bare.edit(fromForm: bare.editForm + (editorAddsNewline ? "\n" : ""), today: today) == TodoEdit())
    }

    @Test("a changed title gives only the title")
    func changedTitle() throws {
        #expect(try detail.edit(fromForm: form("title", "  Plan the trip "), today: today) == TodoEdit(title: "Plan the trip"))
    }

    @Test("a changed priority gives only the priority, in any case")
    func changedPriority() throws {
        #expect(try detail.edit(fromForm: form("priority", "low"), today: today) == TodoEdit(priority: .low))
        #expect(try detail.edit(fromForm: form("priority", "Normal"), today: today) == TodoEdit(priority: .normal))
    }

    @Test("a changed due date gives the date; an emptied one clears it")
    func changedDue() throws {
        #expect(try detail.edit(fromForm: form("due", "2027-01-15"), today: today) == TodoEdit(due: day("2027-01-15")))
        #expect(try detail.edit(fromForm: form("due", ""), today: today) == TodoEdit(clearDue: true))
    }

    @Test("changed tags give the whole normalised tag list")
    func changedTags() throws {
        #expect(try detail.edit(fromForm: form("tags", "travel #work family work"), today: today) == TodoEdit(tags: ["travel", "work", "family"]))
        #expect(try detail.edit(fromForm: form("tags", ""), today: today) == TodoEdit(tags: []))
    }

    @Test("changed notes give only the notes")
    func changedNotes() throws {
        let edited = detail.editForm.replacingOccurrences(of: "Ask about hotel", with: "Ask about hotel\n\n# not a comment here")
        #expect(try detail.edit(fromForm: edited, today: today) == TodoEdit(notes: "Book train\nAsk about hotel\n\n# not a comment here"))
        let emptied = detail.editForm.replacingOccurrences(of: "Book train\nAsk about hotel", with: "")
        #expect(try detail.edit(fromForm: emptied, today: today) == TodoEdit(notes: ""))
    }

    @Test("several changes at once")
    func severalChanges() throws {
        let edited = form("title", "Trip").replacingOccurrences(of: "priority: high", with: "priority: low")
        #expect(try detail.edit(fromForm: edited, today: today) == TodoEdit(title: "Trip", priority: .low))
    }

    @Test("an emptied title cancels the edit")
    func emptiedTitle() throws {
        #expect(try detail.edit(fromForm: form("title", ""), today: today) == nil)
        #expect(try detail.edit(fromForm: form("title", "   "), today: today) == nil)
    }

    @Test("a bad priority or due date is a validation error naming the field")
    func badFields() {
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: form("priority", "urgent"), today: today) } == "priority")
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: form("due", "2026-02-30"), today: today) } == "due")
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: form("due", "next fortnight"), today: today) } == "due")
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: form("tags", "ok a,b"), today: today) } == "tags")
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: form("title", String(repeating: "t", count: 501)), today: today) } == "title")
    }

    @Test("the due line takes the words --due takes", arguments: [
        ("tomorrow", 1), ("+3d", 3), ("+2w", 14), ("today", 0), ("Tomorrow", 1),
    ])
    func dueWords(word: String, days: Int) throws {
        #expect(try detail.edit(fromForm: form("due", word), today: today) == TodoEdit(due: today.adding(days: days)))
    }

    @Test("a form with a problem shows it as comments at the top, once, and still reads as before")
    func formWithProblem() throws {
        let bad = form("priority", "urgent")
        let once = TodoDetailViewModel.form(bad, withProblem: "priority: \"urgent\" is not low, normal or high")
        #expect(once.hasPrefix("# ERROR: priority: \"urgent\" is not low, normal or high\n"))
        #expect(once.hasSuffix(bad))
        let twice = TodoDetailViewModel.form(once, withProblem: "due: \"soon\" is not a date\nsecond line")
        #expect(twice.hasPrefix("# ERROR: due: \"soon\" is not a date\n# ERROR: second line\n# ERROR: Fix it"))
        #expect(!twice.contains("urgent\" is not"))
        #expect(twice.hasSuffix(bad))
        let fixed = TodoDetailViewModel.form(detail.editForm, withProblem: "x")
        #expect(try detail.edit(fromForm: fixed, today: today) == TodoEdit())
    }

    @Test("a line that is not `field: value` or names an unknown field is refused")
    func badLines() {
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: form("title", "x") + "\ncolour: red", today: today) } == nil)
        let unknown = detail.editForm.replacingOccurrences(of: "priority: high", with: "colour: red")
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: unknown, today: today) } == "form")
        let noColon = detail.editForm.replacingOccurrences(of: "priority: high", with: "just words")
        #expect(refusedField { () throws(TodoError) in try detail.edit(fromForm: noColon, today: today) } == "form")
    }

    @Test("the edit from a form applies back to the todo")
    func editApplies() throws {
        let edited = form("title", "Trip").replacingOccurrences(of: "tags: travel family", with: "tags: travel")
        let edit = try #require(try detail.edit(fromForm: edited, today: today))
        let next = try #require(try TodoMutation.edit(.number(5), edit, expectedRevision: detail.revision).applied(to: todo, at: at(9)))
        #expect(next.title == "Trip" && next.tags == ["travel"] && next.notes == todo.notes && next.revision == 4)
        #expect(try TodoDetailViewModel(next, today: today).edit(fromForm: TodoDetailViewModel(next, today: today).editForm, today: today) == TodoEdit())
    }
}

@Suite("The edit form's planning lines")
struct TodoDetailPlanningFormTests {
    let todo = Todo(
        number: 7, title: "Water the plants", due: day("2026-11-27"), createdAt: at(0),
        recurrence: Recurrence("3d", basis: .completion), parent: 2, wait: day("2026-11-25"))

    private func replaced(_ name: String, _ value: String) -> String {
        TodoDetailViewModel(todo).editForm.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("\(name):") ? "\(name): \(value)" : String($0) }.joined(separator: "\n")
    }

    @Test("shows every, parent and wait, and an unchanged form asks for no change")
    func shown() throws {
        let detail = TodoDetailViewModel(todo, today: today)
        #expect(detail.editForm.contains("\nevery: after 3d\nparent: 2\nwait: 2026-11-25\n"))
        #expect(try detail.edit(fromForm: detail.editForm, today: today) == TodoEdit())
    }

    @Test("changes, and emptied lines remove", arguments: [
        ("every", "weekly", TodoEdit(recurrence: Recurrence("1w"))),
        ("every", "", TodoEdit(clearRecurrence: true)),
        ("parent", "#4", TodoEdit(parent: 4)),
        ("parent", "", TodoEdit(clearParent: true)),
        ("wait", "tomorrow", TodoEdit(wait: day("2026-11-23"))),
        ("wait", "", TodoEdit(clearWait: true)),
    ])
    func changes(name: String, value: String, expected: TodoEdit) throws {
        #expect(try TodoDetailViewModel(todo).edit(fromForm: replaced(name, value), today: today) == expected)
    }

    @Test("bad lines name their field", arguments: [("every", "sometimes"), ("parent", "twelve"), ("wait", "soonish")])
    func refused(name: String, value: String) {
        do {
            _ = try TodoDetailViewModel(todo).edit(fromForm: replaced(name, value), today: today)
            Issue.record("\(name): \(value) was accepted")
        } catch {
            #expect(error.field == name)
        }
    }
}

@Suite("The edit form's priority line")
struct EditFormPriorityTests {
    @Test("takes H, M, L and medium as -p and pri: do", arguments: [("H", Priority.high), ("medium", .normal), ("l", .low)])
    func priorityWords(text: String, expected: Priority) throws {
        let detail = TodoDetailViewModel(Todo(number: 1, title: "t", createdAt: at(0)), today: today)
        let form = detail.editForm.replacingOccurrences(of: "priority: normal", with: "priority: \(text)")
        let edit = try detail.edit(fromForm: form, today: today)
        #expect(edit?.priority == (expected == .normal ? nil : expected), "\(String(describing: edit))")
    }
}

@Suite("The edit form's times of day")
struct EditFormTimeTests {
    let timed = Todo(number: 5, title: "Dentist", due: day("2026-12-01"), createdAt: at(0), revision: 3, wait: day("2026-11-30"),
                     dueTime: TimeOfDay("15:00"), waitTime: TimeOfDay("09:00"))
    var detail: TodoDetailViewModel { TodoDetailViewModel(timed, today: today) }

    private func form(_ field: String, _ value: String) -> String {
        detail.editForm.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("\(field):") ? "\(field): \(value)" : String($0) }
            .joined(separator: "\n")
    }

    @Test("the form shows due and wait with their times, and saved unchanged asks for no change (the time is kept)")
    func shownAndKept() throws {
        #expect(detail.editForm.contains("\ndue: 2026-12-01T15:00\n") && detail.editForm.contains("\nwait: 2026-11-30T09:00\n"), "\(detail.editForm)")
        #expect(try detail.edit(fromForm: detail.editForm, today: today) == TodoEdit())
    }

    @Test("due: and wait: take a time as --due does ('fri 9am', 2026-12-01 10:30, 15:00 after the minute); the day alone is due all day; a time that does not read says why")
    func takesTimes() throws {
        let now = TimeOfDay("16:00")
        #expect(try detail.edit(fromForm: form("due", "2026-12-01 10:30"), today: today, now: now) == TodoEdit(due: day("2026-12-01"), dueTime: TimeOfDay("10:30")))
        #expect(try detail.edit(fromForm: form("due", "fri 9am"), today: today, now: now) == TodoEdit(due: day("2026-11-27"), dueTime: TimeOfDay("09:00")))
        #expect(try detail.edit(fromForm: form("due", "2026-12-01"), today: today, now: now) == TodoEdit(due: day("2026-12-01")))
        #expect(try detail.edit(fromForm: form("wait", "15:00"), today: today, now: now) == TodoEdit(wait: day("2026-11-23"), waitTime: TimeOfDay("15:00")))
        do {
            _ = try detail.edit(fromForm: form("due", "fri 9"), today: today, now: now)
            Issue.record("fri 9 was taken")
        } catch {
            #expect(error.field == "due" && error.message.contains("9am, 9pm or 09:00"), "\(error.message)")
        }
    }
}
