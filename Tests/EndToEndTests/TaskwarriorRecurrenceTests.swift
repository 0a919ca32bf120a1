import Foundation
import InteropTestSupport
import Testing

/// A recurring task used from both tools, with the real `task` and a real daemon: Taskwarrior
/// keeps a template (`status:recurring`) and makes instances (`parent`, `imask`); todod keeps
/// one repeating todo and makes its next occurrence itself. Both run on the real clock, as a
/// user's would (`due:today` gives today's instance and, ahead, tomorrow's).
@Suite("A Taskwarrior recurrence round-trips through todod as one series")
struct TaskwarriorRecurrenceTests {
    /// A Taskwarrior holding one daily series, its instances made (`task list` makes them).
    private func standup() throws -> TaskwarriorHome {
        let task = try TaskwarriorHome()
        try task.run(["add", "Daily standup", "due:today", "recur:daily"])
        try task.run(["list"])
        return task
    }

    /// `task export | todoctl import --from taskwarrior`.
    @discardableResult
    private func sync(_ task: TaskwarriorHome, to daemon: DaemonProcess) async throws -> CommandResult {
        try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try task.run(["export"]), as: UTF8.self))
    }

    /// `todoctl export --to taskwarrior | task import`.
    private func sync(_ daemon: DaemonProcess, to task: TaskwarriorHome) async throws {
        try task.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior").stdout.utf8))
    }

    /// The open todos in todod, as `todoctl export --to json` writes them.
    private func openTodos(_ daemon: DaemonProcess) async throws -> [[String: Any]] {
        let exported = try await daemon.todoctl("export", "--to", "json")
        return try jsonArray(exported.stdout).filter { ($0["completedAt"] ?? NSNull()) is NSNull && ($0["deletedAt"] ?? NSNull()) is NSNull }
    }

    /// Expects `change` to leave every task of `task` as it was.
    private func expectUnchanged(_ task: TaskwarriorHome, by change: () async throws -> Void) async throws {
        let before = try task.exportedTasks()
        try await change()
        let after = try task.exportedTasks()
        #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before), "\(after)\n--- before:\n\(before)")
    }

    /// How many tasks `task FILTER export` writes (`task count` leaves templates out).
    private func count(_ task: TaskwarriorHome, _ filter: String...) throws -> Int {
        (try JSONSerialization.jsonObject(with: try task.run(filter + ["export"])) as? [Any])?.count ?? -1
    }

    @Test("A template and its instances import as one open repeating todo (they came in as three), and again as nothing new")
    func importsOneTodo() async throws {
        let task = try standup()
        defer { task.remove() }
        let exported = String(decoding: try task.run(["export"]), as: UTF8.self)
        let templates = try count(task, "status:recurring"), instances = try count(task, "status:pending")
        #expect(templates == 1 && instances == 2, "\(templates) templates, \(instances) pending instances")
        let daemon = try await DaemonProcess.start()
        let imported = try await daemon.todoctl("import", "--from", "taskwarrior", input: exported)
        #expect(imported.status == 0, "\(imported.stderr)")
        let open = try await openTodos(daemon)
        #expect(open.count == 1, "\(open)")
        #expect(open.first?["title"] as? String == "Daily standup", "\(open)")
        #expect((open.first?["recurrence"] as? [String: Any])?["every"] as? String == "1d", "\(open)")
        // The todo is today's instance, by its uuid; tomorrow's and the template come with it.
        let today = try task.exportedTasks().values.first { $0["imask"] as? Int == 0 }
        #expect(open.first?["id"] as? String == today?["uuid"] as? String, "\(open)")
        let again = try await daemon.todoctl("import", "--from", "taskwarrior", input: exported)
        #expect(again.stdout.contains("0 created, 0 updated"), "\(again.stdout)")
        try await daemon.stop()
    }

    @Test("Done in todod and exported back, Taskwarrior keeps one template and one pending instance; each way again changes nothing")
    func doneInTodod() async throws {
        let task = try standup()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        try await sync(task, to: daemon)
        let done = try await daemon.todoctl("done", "1")
        #expect(done.status == 0, "\(done.stderr)")
        let made = try await openTodos(daemon)
        #expect(made.count == 1, "\(made)")

        let back = try await daemon.todoctl("export", "--to", "taskwarrior")
        try task.run(["import", "-"], input: Data(back.stdout.utf8))
        let counts = try ["recurring", "pending", "completed"].map { try count(task, "status:\($0)") }
        #expect(counts == [1, 1, 1], "templates, pending, completed: \(counts)")
        // Taskwarrior's next report makes nothing more: the template's mask covers todod's occurrence.
        try task.run(["list"])
        let pending = try count(task, "status:pending")
        #expect(pending == 1, "\(pending) pending")

        // The same export again, then Taskwarrior's export into todod twice: nothing changes.
        try await expectUnchanged(task) { try task.run(["import", "-"], input: Data(back.stdout.utf8)) }
        let exported = String(decoding: try task.run(["export"]), as: UTF8.self)
        let first = try await daemon.todoctl("import", "--from", "taskwarrior", input: exported)
        #expect(first.stdout.contains(" 0 created"), "\(first.stdout)")
        let second = try await daemon.todoctl("import", "--from", "taskwarrior", input: exported)
        #expect(second.stdout.contains("0 created, 0 updated"), "\(second.stdout)")
        let open = try await openTodos(daemon)
        #expect(open.count == 1, "\(open)")
        // And todod's export after those imports is what Taskwarrior already has.
        try await expectUnchanged(task) { try await sync(daemon, to: task) }
        try await daemon.stop()
    }

    @Test("Done in task after todod's occurrence went back, the import completes that occurrence instead of adding a twin")
    func doneInTaskAfterTodod() async throws {
        let task = try standup()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        try await sync(task, to: daemon)
        _ = try await daemon.todoctl("done", "1")
        try await sync(daemon, to: task)

        try task.run(["status:pending", "done"])
        let imported = try await sync(task, to: daemon)
        #expect(imported.stdout.contains(" 0 created"), "\(imported.stdout)")
        // As many open as Taskwarrior has pending (tomorrow's instance was done early: none until its template makes the next).
        let open = try await openTodos(daemon).count, pending = try count(task, "status:pending")
        #expect(open == pending, "\(open) open in todod, \(pending) pending in Taskwarrior")
        // Two todos in all: today's (done in todod) and tomorrow's (done in task).
        let exported = try await daemon.todoctl("export", "--to", "json")
        let all = try jsonArray(exported.stdout)
        #expect(all.count == 2, "\(exported.stdout)")
        try await daemon.stop()
    }

    @Test("Done in task first, the import completes the todo, and the instance Taskwarrior made ahead is the series' one open todo")
    func doneInTaskFirst() async throws {
        let task = try standup()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        try await sync(task, to: daemon)
        let today = try #require(try task.exportedTasks().values.first { $0["imask"] as? Int == 0 }?["uuid"] as? String)
        try task.run([today, "done"])
        let imported = try await sync(task, to: daemon)
        #expect(imported.stdout == "imported 2 todos from standard input: 1 created, 1 updated, 0 unchanged\n", "\(imported.stdout)")
        let open = try await openTodos(daemon)
        let tomorrow = try task.exportedTasks().values.first { $0["imask"] as? Int == 1 }
        #expect(open.map { $0["id"] as? String } == [tomorrow?["uuid"] as? String], "\(open)")

        // Written back, Taskwarrior has what it had.
        try await expectUnchanged(task) { try await sync(daemon, to: task) }
        try await daemon.stop()
    }
    /// todod's one repeating todo, `todoctl add Water plants recur:daily due:today`, and its id.
    private func waterPlants(_ daemon: DaemonProcess) async throws -> String {
        let added = try await daemon.todoctl("add", "Water", "plants", "recur:daily", "due:today")
        #expect(added.status == 0, "\(added.stderr)")
        return try #require(try await openTodos(daemon).first?["id"] as? String)
    }

    /// `waterPlants`, written to Taskwarrior, and Taskwarrior's next report run.
    private func waterPlantsWentOut(_ daemon: DaemonProcess, to task: TaskwarriorHome) async throws -> String {
        let id = try await waterPlants(daemon)
        try await sync(daemon, to: task)
        try task.run(["list"])
        return id
    }

    /// The uuids of `task FILTER export`.
    private func uuids(_ task: TaskwarriorHome, _ filter: String...) throws -> [String] {
        let tasks = try JSONSerialization.jsonObject(with: try task.run(filter + ["export"])) as? [[String: Any]] ?? []
        return tasks.compactMap { $0["uuid"] as? String }
    }

    @Test("A repeating todo made in todod goes into Taskwarrior as one series under its own uuid, and comes back as that todo, not a twin")
    func todoMadeInTodod() async throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        let id = try await waterPlantsWentOut(daemon, to: task)
        // One template, and today's instance is the todo (beside tomorrow's, written ahead).
        let templates = try uuids(task, "status:recurring")
        #expect(templates.count == 1 && !templates.contains(id), "templates \(templates), the todo \(id)")
        let today = try uuids(task, "status:pending", "due:today")
        #expect(today == [id], "pending today: \(today), the todo \(id)")
        #expect(try count(task, "status:pending") == 2)

        let back = try await sync(task, to: daemon)
        #expect(back.stdout.contains(" 0 created"), "\(back.stdout)")
        let open = try await openTodos(daemon)
        #expect(open.map { $0["id"] as? String } == [id], "\(open)")

        // Done in task: the next import completes the todo and tomorrow's instance is the one open todo.
        try task.run([id, "done"])
        let done = try await sync(task, to: daemon)
        #expect(done.stdout.contains("1 created, 1 updated"), "\(done.stdout)")
        let next = try await openTodos(daemon)
        let tomorrow = try uuids(task, "status:pending")
        #expect(next.count == 1 && tomorrow.count == 1 && next.first?["id"] as? String == tomorrow.first, "\(next)\n--- pending in task: \(tomorrow)")

        // Done in todod and written back: Taskwarrior has the same one template and one pending.
        let number = try #require(next.first?["number"] as? Int)
        _ = try await daemon.todoctl("done", String(number))
        try await sync(daemon, to: task)
        try task.run(["list"])
        #expect(try uuids(task, "status:recurring") == templates)
        let pending = try uuids(task, "status:pending"), after = try await openTodos(daemon)
        #expect(pending.count == 1 && pending.first == after.first?["id"] as? String, "pending \(pending), open in todod \(after)")
        let again = try await sync(task, to: daemon)
        #expect(again.stdout.contains(" 0 created"), "\(again.stdout)")
        #expect(try await openTodos(daemon).count == 1)
        try await daemon.stop()
    }

    @Test("A series todod made goes round again unchanged: the same template, nothing new either way")
    func seriesMadeInTododRoundTripsAgain() async throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        _ = try await waterPlants(daemon)
        // Written twice before Taskwarrior's comes back, `task` run between: still one template.
        try await sync(daemon, to: task)
        try task.run(["list"])
        try await sync(daemon, to: task)
        try task.run(["list"])
        let templates = try uuids(task, "status:recurring")
        #expect(templates.count == 1, "\(templates)")
        // Today's (the todo) and tomorrow's, which todod wrote ahead, as Taskwarrior would have made it: not again.
        let pending = try uuids(task, "status:pending")
        #expect(pending.count == 2, "\(pending)")
        try await sync(task, to: daemon)
        try await expectUnchanged(task) {
            try await sync(daemon, to: task)
            try task.run(["list"])
        }
        let imported = try await sync(task, to: daemon)
        #expect(imported.stdout.contains("0 created, 0 updated"), "\(imported.stdout)")
        #expect(try await openTodos(daemon).count == 1)
        try await daemon.stop()
    }

    @Test("Done in todod before Taskwarrior's came back, its next occurrence is the instance written ahead, not a second one beside it")
    func seriesMadeInTododDoneBeforeComingBack() async throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        let id = try await waterPlantsWentOut(daemon, to: task)
        let tomorrow = try uuids(task, "status:pending", "due:tomorrow")
        #expect(tomorrow.count == 1, "\(tomorrow)")
        let done = try await daemon.todoctl("done", id)
        #expect(done.status == 0, "\(done.stderr)")
        try await sync(daemon, to: task)
        try task.run(["list"])
        let pending = try uuids(task, "status:pending")
        #expect(pending == tomorrow, "pending \(pending), tomorrow's \(tomorrow)")
        #expect(try uuids(task, "status:completed") == [id])
        #expect(try uuids(task, "status:recurring").count == 1)
        // Back in todod, that instance is todod's occurrence: nothing new.
        let back = try await sync(task, to: daemon)
        #expect(back.stdout.contains(" 0 created"), "\(back.stdout)")
        #expect(try await openTodos(daemon).count == 1)
        try await daemon.stop()
    }

    @Test("A repeating todo an older todod wrote as one task, which Taskwarrior made a template, comes back beside its twin; removed, it is never written again")
    func seriesAnOlderTododWrote() async throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        let daemon = try await DaemonProcess.start()
        let id = try await waterPlants(daemon)
        // What todod wrote before: the todo as one task with recur, and no parent.
        var old = try #require(try jsonArray(try await daemon.todoctl("export", "--to", "taskwarrior").stdout).first { $0["uuid"] as? String == id })
        for key in ["parent", "imask", "rtype"] { old.removeValue(forKey: key) }
        try task.run(["import", "-"], input: try JSONSerialization.data(withJSONObject: [old]))
        try task.run(["list"])
        #expect(try uuids(task, "status:recurring") == [id])
        try await sync(task, to: daemon)
        #expect(try await openTodos(daemon).count == 2)
        // Its template's todo is not written, before or after it is removed.
        try await expectUnchanged(task) { try await sync(daemon, to: task) }
        let removed = try await daemon.todoctl("rm", id)
        #expect(removed.status == 0, "\(removed.stderr)")
        try await expectUnchanged(task) { try await sync(daemon, to: task) }
        #expect(try uuids(task, "status:recurring") == [id])
        let open = try await openTodos(daemon)
        #expect(open.count == 1 && open.first?["id"] as? String != id, "\(open)")
        try await daemon.stop()
    }
}
