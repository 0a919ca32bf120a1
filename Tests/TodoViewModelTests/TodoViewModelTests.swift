import Foundation
import Testing
import TodoModel
import TodoViewModel

@Suite("TodoViewModel")
struct TodoViewModelTests {
    private func viewModel(priority: Priority = .normal, due: String? = nil, tags: [String] = [], completed: Bool = false) -> TodoViewModel {
        let todo = Todo(number: 7, title: "Water plants", priority: priority, due: due.map(day), tags: tags,
                        createdAt: at(0), completedAt: completed ? at(1) : nil)
        return TodoViewModel(todo, today: today)
    }

    @Test("the done box shows whether the todo is completed")
    func doneBox() {
        #expect(viewModel().doneBox == "[ ]")
        #expect(viewModel(completed: true).doneBox == "[x]")
        #expect(viewModel().numberText == "#7")
        #expect(viewModel().title == "Water plants")
    }

    @Test("the priority mark: ! for high, · for low, nothing for normal")
    func priorityMark() {
        #expect(viewModel(priority: .high).priorityMark == "!")
        #expect(viewModel(priority: .normal).priorityMark == "")
        #expect(viewModel(priority: .low).priorityMark == "·")
    }

    @Test("the due date as people say it", arguments: [
        ("2026-11-22", "today"), ("2026-11-23", "tomorrow"), ("2026-11-25", "in 3 days"), ("2026-12-05", "in 13 days"),
        ("2026-11-21", "1 day overdue"), ("2026-11-20", "2 days overdue"), ("2026-10-23", "30 days overdue"),
        ("2026-12-06", "2026-12-06"),
    ])
    func dueText(due: String, expected: String) {
        #expect(viewModel(due: due).dueText == expected)
        #expect(TodoViewModel.describe(due: day(due), today: today) == expected)
    }

    @Test("no due date, no due text")
    func noDue() {
        #expect(viewModel().dueText == nil)
        #expect(!viewModel().isOverdue)
    }

    @Test("overdue only while open and due before today")
    func overdue() {
        #expect(viewModel(due: "2026-11-21").isOverdue)
        #expect(!viewModel(due: "2026-11-21", completed: true).isOverdue)
        #expect(viewModel(due: "2026-11-21", completed: true).dueText == "1 day overdue")
        #expect(!viewModel(due: "2026-11-22").isOverdue)
        #expect(!viewModel(due: "2026-11-30").isOverdue)
    }

    @Test("a row given no day (one the daemon makes to send) says its due date as the date and is never overdue: no clock is read")
    func noDay() {
        let todo = Todo(number: 7, title: "Water plants", due: day("2000-01-01"), createdAt: at(0))
        #expect(TodoViewModel(todo).dueText == "2000-01-01")
        #expect(!TodoViewModel(todo).isOverdue)
        #expect(TodoViewModel(todo, today: today).isOverdue)
    }

    @Test("the tags line puts a # before each tag")
    func tagsLine() {
        #expect(viewModel(tags: ["home", "errands"]).tagsLine == "#home #errands")
        #expect(viewModel(tags: ["x"]).tagsLine == "#x")
        #expect(viewModel().tagsLine == "")
    }

    @Test("codes as its todo's fields and recomputes the texts when decoded")
    func coding() throws {
        let todo = Todo(number: 3, title: "a", priority: .high, tags: ["t"], createdAt: at(0), completedAt: at(2))
        let viewModel = TodoViewModel(todo)
        let data = try JSONEncoder().encode(viewModel)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["title"] as? String == "a")
        #expect(object["doneBox"] == nil)
        let decoded = try JSONDecoder().decode(TodoViewModel.self, from: data)
        #expect(decoded == viewModel)
        #expect(decoded.doneBox == "[x]" && decoded.priorityMark == "!" && decoded.tagsLine == "#t")
    }
}
