import Foundation
import Testing
import TodoInterop
import TodoModel
import InteropTestSupport

/// Taskwarrior's `depends` is the todo's: the uuids of the tasks it waits for, both ways,
/// with the real `task`.
@Suite("Taskwarrior's depends")
struct TaskwarriorDependsTests {
    let utc = TimeZone(identifier: "UTC")!

    /// #1 Buy flour, #2 Buy eggs, #3 Bake cake (depends on both).
    private func kitchen() throws -> TaskwarriorHome {
        let task = try TaskwarriorHome()
        try task.run(["add", "Buy flour"])
        try task.run(["add", "Buy eggs"])
        try task.run(["add", "Bake cake", "depends:1,2"])
        return task
    }

    private func byTitle(_ imported: [ImportedTodo]) -> [String: ImportedTodo] {
        Dictionary(imported.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("A task's depends become the todo's dependencies by uuid, not a foreign field")
    func imported() throws {
        let source = try kitchen()
        defer { source.remove() }
        let todos = byTitle(try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc))
        let flour = try #require(todos["Buy flour"]), eggs = try #require(todos["Buy eggs"]), cake = try #require(todos["Bake cake"])
        #expect(cake.depends.map(Todo.dependencySet) == Todo.dependencySet([flour.id, eggs.id]))
        #expect(flour.depends == [])
        #expect(cake.foreign["taskwarrior"]?.contains("depends") != true, "\(cake.foreign)")
        #expect(cake.todo(number: 3).depends == Todo.dependencySet([flour.id, eggs.id]))
    }

    @Test("A dependency taken away and one added in todod are what the real task imports: its +BLOCKED agrees")
    func changedInTodod() throws {
        let source = try kitchen()
        defer { source.remove() }
        var todos = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc).enumerated().map { $1.todo(number: $0 + 1) }
        let flour = try #require(todos.firstIndex { $0.title == "Buy flour" })
        let eggs = try #require(todos.firstIndex { $0.title == "Buy eggs" })
        let cake = try #require(todos.firstIndex { $0.title == "Bake cake" })
        todos[cake].depends = [todos[eggs].id]
        todos[flour].depends = [todos[eggs].id]
        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        let tasks = try target.exportedTasks()
        #expect(tasks[todos[cake].id.uuidString.lowercased()]?["depends"] as? [String] == [todos[eggs].id.uuidString.lowercased()])
        #expect(tasks[todos[flour].id.uuidString.lowercased()]?["depends"] as? [String] == [todos[eggs].id.uuidString.lowercased()])
        let blocked = try JSONSerialization.jsonObject(with: target.run(["+BLOCKED", "export"])) as? [[String: Any]] ?? []
        #expect(Set(blocked.compactMap { $0["description"] as? String }) == ["Buy flour", "Bake cake"])
        // And back: what todod wrote reads as it went.
        let back = byTitle(try TaskwarriorFormat.decode(try target.run(["export"]), zone: utc))
        #expect(back["Bake cake"]?.depends == [todos[eggs].id])
        #expect(back["Buy eggs"]?.depends == [])
    }

    @Test("Dependencies all taken away in todod leave the task without depends")
    func cleared() throws {
        let source = try kitchen()
        defer { source.remove() }
        var todos = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc).enumerated().map { $1.todo(number: $0 + 1) }
        let cake = try #require(todos.firstIndex { $0.title == "Bake cake" })
        todos[cake].depends = []
        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        #expect(try target.exportedTasks()[todos[cake].id.uuidString.lowercased()]?["depends"] == nil)
    }

    @Test("depends as one comma-separated string (Taskwarrior before 2.6.2) reads too; a word that is no uuid is refused, naming it")
    func stringForm() throws {
        let a = "8f4375f4-ea0d-4a1a-b310-70e3dcef20ea", b = "63f62c69-c59f-4510-bec7-fd7f5c145981"
        let data = Data(#"[{"uuid":"a051a4c7-4a24-427a-bf80-aa8d23fa2d76","description":"x","depends":"\#(a),\#(b)"}]"#.utf8)
        #expect(try TaskwarriorFormat.decode(data, zone: utc).first?.depends.map(Todo.dependencySet) == Todo.dependencySet([UUID(uuidString: a)!, UUID(uuidString: b)!]))
        let bad = Data(#"[{"uuid":"a051a4c7-4a24-427a-bf80-aa8d23fa2d76","description":"x","depends":["3"]}]"#.utf8)
        #expect(throws: InteropError.self) { try TaskwarriorFormat.decode(bad, zone: utc) }
    }
}
