import Foundation
import Testing
import TodoInterop
import TodoModel
import InteropTestSupport

/// Taskwarrior's `until` is the todo's until day, both ways, with the real `task`.
@Suite("Taskwarrior's until")
struct TaskwarriorUntilTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test("A task's until is the todo's day (it was only kept among the foreign fields); one left alone comes back at its exact time, one changed or set in todod is what the real task imports, and reads back the same")
    func bothWays() throws {
        let source = try TaskwarriorHome()
        defer { source.remove() }
        try source.run(["add", "Renew passport", "until:2099-05-02"])
        try source.run(["add", "Mow the lawn", "until:2099-06-01"])
        try source.run(["add", "Read"])
        let imported = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc)
        var todos = imported.enumerated().map { $1.todo(number: $0 + 1) }
        let passport = try #require(todos.firstIndex { $0.title == "Renew passport" })
        let lawn = try #require(todos.firstIndex { $0.title == "Mow the lawn" })
        let read = try #require(todos.firstIndex { $0.title == "Read" })
        #expect(todos[passport].until == LocalDate("2099-05-02") && todos[lawn].until == LocalDate("2099-06-01"))
        #expect(todos[read].until == nil)
        todos[lawn].until = LocalDate("2099-07-01")
        todos[read].until = LocalDate("2099-08-01")
        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        let tasks = try target.exportedTasks()
        func until(_ index: Int) -> String? { tasks[todos[index].id.uuidString.lowercased()]?["until"] as? String }
        #expect(until(passport) == "20990502T000000Z")
        // Kept through its day in todod: its last second, as Taskwarrior's until:eod.
        #expect(until(lawn) == "20990701T235959Z")
        #expect(until(read) == "20990801T235959Z")
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: utc)
        #expect(back.first { $0.title == "Mow the lawn" }?.until == LocalDate("2099-07-01"))
        #expect(back.first { $0.title == "Read" }?.until == LocalDate("2099-08-01"))
    }

    @Test("An until of today set in todod is still pending in the real task, which expires it only after the day, as todod does; one of yesterday task deletes as expired")
    func expiresWhenTodoDoes() throws {
        let today = LocalDate(Date(), in: utc)
        let created = Date().addingTimeInterval(-86_400 * 3)
        let todos = [
            Todo(number: 1, title: "Last day today", createdAt: created, until: today),
            Todo(number: 2, title: "Over yesterday", createdAt: created, until: today.adding(days: -1)),
        ]
        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        // Any report runs task's expiry first.
        try target.run(["list"])
        let tasks = try target.exportedTasks()
        #expect(tasks[todos[0].id.uuidString.lowercased()]?["status"] as? String == "pending")
        #expect(tasks[todos[1].id.uuidString.lowercased()]?["status"] as? String == "deleted")
    }
}
