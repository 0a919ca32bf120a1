import Foundation
import TestHarness
import Testing

/// A list request's `"rows": true` (docs/PROTOCOL.md): the daemon answers each todo with
/// the members a list shows, and `todoctl list` asks for them and prints what it printed
/// from whole todos.
@Suite("list rows")
struct ListRowsTests {
    /// The members of the first todo and of the first context parent of a list answer to `data`.
    private func members(of data: String, on raw: RawConnection, id: String) async throws -> (todo: Set<String>, context: Set<String>) {
        try raw.send(#"{"event":"requestTodoViewModels","id":"\#(id)","data":\#(data)}"# + "\n")
        let answer = try jsonObject(try await raw.awaitLine(containing: "responseTodoViewModels", "\"id\":\"\(id)\""))
        let todos = try #require(answer.path("data", "todos") as? [[String: Any]])
        let context = try #require(answer.path("data", "context") as? [[String: Any]])
        return (Set(try #require(todos.first).keys), Set(try #require(context.first).keys))
    }

    @Test("a list asked for rows is answered with rows, one not asked with whole todos as before")
    func rowsOnlyWhenAsked() async throws {
        let daemon = try await DaemonProcess.start()
        #expect(try await daemon.todoctl("add", "Plant the bulbs", "+garden", "project:home", "pri:H", "due:2030-01-05").status == 0)
        #expect(try await daemon.todoctl("add", "Buy bulbs", "--parent", "1").status == 0)
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        // The subtask is listed, its parent comes as context.
        let rows = try await members(of: #"{"rows":true,"search":"Buy"}"#, on: raw, id: "rows")
        #expect(rows.todo == ["number", "title", "createdAt", "parent"])
        #expect(rows.context == ["number", "title", "createdAt", "priority", "due", "tags", "project"])
        let whole = try await members(of: #"{"search":"Buy"}"#, on: raw, id: "whole")
        let every: Set = [
            "id", "number", "title", "notes", "priority", "due", "tags", "createdAt", "updatedAt", "completedAt", "deletedAt",
            "revision", "recurrence", "parent", "wait", "previous",
        ]
        #expect(whole.todo == every)
        #expect(whole.context == every.union(["project"]))
        try await daemon.stop()
    }

    @Test("todoctl list prints from rows what it prints from whole todos")
    func sameTableFromRows() async throws {
        let daemon = try await DaemonProcess.start()
        #expect(try await daemon.todoctl("add", "Plant the bulbs", "+garden", "+weekend", "project:home.garden", "pri:H", "due:2030-01-05").status == 0)
        #expect(try await daemon.todoctl("add", "Buy bulbs", "--parent", "1", "pri:L").status == 0)
        #expect(try await daemon.todoctl("add", "File the taxes", "due:2020-01-01").status == 0)
        #expect(try await daemon.todoctl("done", "3").status == 0)
        for columns in ["80", "40"] {
            // A sort by number alone reads rows; by number then updated, whole todos (a row has no
            // update time), in the same order.
            let environment = ["COLUMNS": columns]
            let rows = try await daemon.todoctl("list", "--all", "--sort", "number", environment: environment)
            let whole = try await daemon.todoctl("list", "--all", "--sort", "number,updated", environment: environment)
            #expect(rows.status == 0)
            #expect(rows.stdout == whole.stdout)
            // At 40 columns the project gives way to the tags' +N, and stderr names it.
            #expect(rows.stdout.contains("home.") || rows.stderr.contains("project did not fit in 40 columns"), "\(rows)")
            let chosen = "number,done,priority,title,due,tags,project,state,wait,created"
            let rowColumns = try await daemon.todoctl("list", "--all", "--columns", chosen, environment: environment)
            let wholeColumns = try await daemon.todoctl("list", "--all", "--columns", chosen, "--sort", "number,updated", environment: environment)
            #expect(rowColumns.status == 0)
            #expect(rowColumns.stdout.split(separator: "\n").sorted() == wholeColumns.stdout.split(separator: "\n").sorted())
        }
        try await daemon.stop()
    }
}
