import Foundation
import Testing
import TodoModel

/// `Todo.project`: a field of its own, set and cleared by an edit, carried to a repeat's
/// next occurrence, undone field by field, and written in JSON only when the todo has one.
@Suite("A todo's project")
struct ProjectTests {
    let todo = Todo(number: 1, title: "Mow the lawn", tags: ["outside"], createdAt: at(0))

    @Test("an edit sets the project and leaves the tags; clearing it wins over a new one")
    func edit() throws {
        let moved = TodoEdit(project: "home.garden").applied(to: todo)
        #expect(moved.project == "home.garden" && moved.tags == ["outside"])
        #expect(TodoEdit(project: "work", clearProject: true).applied(to: moved).project == nil)
        #expect(TodoEdit(title: "Mow").applied(to: moved).project == "home.garden", "an edit without it leaves it")
    }

    @Test("a change of project is journaled as the project field, and undo's copy puts the old one back")
    func field() {
        var moved = todo
        moved.project = "home"
        #expect(TodoField.allCases.filter { !$0.isEqual(in: todo, and: moved) } == [.project])
        #expect(TodoField.project.copied(from: todo, to: moved).project == nil)
    }

    @Test("a new todo and a repeat's next occurrence keep the project")
    func newAndNext() throws {
        let made = Todo(NewTodo(title: "Water plants", due: day("2026-11-20"), recurrence: Recurrence("1w"), project: "home"), number: 2, createdAt: at(0))
        #expect(made.project == "home")
        #expect(made.nextOccurrence(completedOn: day("2026-11-20"))?.project == "home")
    }

    @Test("a new todo's and an edit's project come through their JSON (the daemon reads requests so), and none is none")
    func requestJSON() throws {
        let new = NewTodo(title: "Dig", project: "home.garden")
        #expect(try JSONDecoder().decode(NewTodo.self, from: JSONEncoder().encode(new)) == new)
        #expect(try JSONDecoder().decode(NewTodo.self, from: Data(#"{"title":"Dig"}"#.utf8)).project == nil)
        let edit = TodoEdit(project: "work", clearProject: true)
        #expect(try JSONDecoder().decode(TodoEdit.self, from: JSONEncoder().encode(edit)) == edit)
        #expect(try JSONDecoder().decode(TodoEdit.self, from: Data("{}".utf8)) == TodoEdit())
    }

    @Test("JSON holds project only when the todo has one, and a todo without the key reads as in none")
    func json() throws {
        let plain = String(decoding: try JSONEncoder().encode(todo), as: UTF8.self)
        #expect(!plain.contains("project"))
        var inProject = todo
        inProject.project = "home.garden"
        let data = try JSONEncoder().encode(inProject)
        #expect(String(decoding: data, as: UTF8.self).contains(#""project":"home.garden""#))
        #expect(try JSONDecoder().decode(Todo.self, from: data) == inProject)
        #expect(try JSONDecoder().decode(Todo.self, from: Data(plain.utf8)).project == nil)
    }
}
