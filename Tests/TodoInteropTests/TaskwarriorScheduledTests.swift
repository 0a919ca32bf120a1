import Foundation
import Testing
import TodoInterop
import TodoModel
import InteropTestSupport

/// Taskwarrior's `scheduled` is the todo's scheduled day, both ways, with the real `task`.
@Suite("Taskwarrior's scheduled")
struct TaskwarriorScheduledTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test("A task's scheduled is the todo's day; one set or taken away in todod is what the real task imports, and reads back the same")
    func bothWays() throws {
        let source = try TaskwarriorHome()
        defer { source.remove() }
        try source.run(["add", "Paint the fence", "scheduled:2099-05-02"])
        try source.run(["add", "Mow the lawn"])
        let imported = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc)
        var todos = imported.enumerated().map { $1.todo(number: $0 + 1) }
        let fence = try #require(todos.firstIndex { $0.title == "Paint the fence" })
        let lawn = try #require(todos.firstIndex { $0.title == "Mow the lawn" })
        #expect(todos[fence].scheduled == LocalDate("2099-05-02"))
        #expect(todos[lawn].scheduled == nil)
        todos[fence].scheduled = nil
        todos[lawn].scheduled = LocalDate("2099-06-01")
        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        let tasks = try target.exportedTasks()
        #expect(tasks[todos[fence].id.uuidString.lowercased()]?["scheduled"] == nil)
        #expect(tasks[todos[lawn].id.uuidString.lowercased()]?["scheduled"] as? String == "20990601T000000Z")
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: utc)
        #expect(back.first { $0.title == "Mow the lawn" }?.scheduled == LocalDate("2099-06-01"))
    }
}
