import Foundation
import Testing
import TodoModel
import TodoViewModel

@Suite("TodoDetailViewModel")
struct TodoDetailViewModelTests {
    let todo = Todo(
        number: 5, title: "Plan trip", notes: "Book train\nAsk about hotel", priority: .high, due: day("2026-12-01"),
        tags: ["travel", "family"], createdAt: at(0), revision: 3)
    var detail: TodoDetailViewModel { TodoDetailViewModel(todo, today: today) }

    @Test("holds the fields, the revision and the state")
    func fields() {
        #expect(detail.title == "Plan trip" && detail.priority == .high && detail.revision == 3)
        #expect(detail.tags == ["travel", "family"] && detail.due == day("2026-12-01"))
        #expect(detail.stateText == "open")
        #expect(detail.summary.dueText == "in 9 days")
        var done = todo
        done.completedAt = at(1)
        #expect(TodoDetailViewModel(done).stateText == "done")
        done.deletedAt = at(2)
        #expect(TodoDetailViewModel(done).stateText == "deleted")
    }

    @Test("codes as its todo")
    func coding() throws {
        let detail = TodoDetailViewModel(todo)
        let decoded = try JSONDecoder().decode(TodoDetailViewModel.self, from: try JSONEncoder().encode(detail))
        #expect(decoded == detail)
        #expect(try JSONDecoder().decode(Todo.self, from: try JSONEncoder().encode(detail)) == todo)
    }
}
