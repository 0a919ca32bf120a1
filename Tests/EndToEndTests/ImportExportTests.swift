import Foundation
import InteropTestSupport
import Testing

@Suite("todoctl import and export against a real daemon and the real Taskwarrior")
struct ImportExportTests {
    private static let settings = ["uda.estimate.type=numeric", "uda.estimate.label=Est"]

    /// A Taskwarrior with a task of each kind: a project, a UDA, an annotation, a timed due,
    /// a wait, a recurrence, a completed and a deleted one.
    /// Its due days, wait and recurrence lie far ahead: `task` reads them against the real clock,
    /// and a daily recurrence that has come due grows an instance a day (a test that broke on 2026-11-24).
    private func sample() throws -> TaskwarriorHome {
        let task = try TaskwarriorHome(settings: Self.settings)
        try task.run(["add", "Write report", "project:work.reports", "priority:H", "due:2099-11-30", "+office", "estimate:3"])
        try task.run(["1", "annotate", "first draft sent"])
        try task.run(["add", "Call mum", "+family", "due:2026-11-22T15:30"])
        try task.run(["add", "Buy milk", "wait:2099-12-01"])
        try task.run(["add", "Daily standup", "due:2099-11-24", "recur:daily"])
        try task.run(["add", "Old thing"])
        try task.run(["add", "Gone"])
        try task.run(["list"])
        try task.run(["description:Old thing", "done"])
        try task.run(["description:Gone", "delete"])
        return task
    }

    @Test("task export | todoctl import, then todoctl export --to taskwarrior --all | task import loses nothing")
    func taskwarriorRoundTrip() async throws {
        let source = try sample()
        defer { source.remove() }
        let daemon = try await DaemonProcess.start()
        let exported = String(decoding: try source.run(["export"]), as: UTF8.self)
        let imported = try await daemon.todoctl("import", "--from", "taskwarrior", input: exported)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Seven tasks, six todos: the recurrence's template travels with its instance.
        #expect(imported.stdout == "imported 6 todos from standard input: 6 created, 0 updated, 0 unchanged\n")
        let list = try await daemon.todoctl("list")
        // The project is its own column, not a tag.
        let report = list.lines.first { $0.contains("Write report") } ?? ""
        #expect(report.contains(" work.reports ") && report.hasSuffix("#office") && !list.stdout.contains("#project:"), "\(list.stdout)")
        // Taskwarrior's wait is todod's: the task waits, out of the list, and is exported all the same.
        #expect(!list.stdout.contains("Buy milk"))
        let listed = try await daemon.todoctl("list", "--waiting")
        #expect(listed.stdout.contains("Buy milk"))

        let back = try await daemon.todoctl("export", "--to", "taskwarrior", "--all")
        let target = try TaskwarriorHome(settings: Self.settings)
        defer { target.remove() }
        try target.run(["import", "-"], input: Data(back.stdout.utf8))
        let before = try source.exportedTasks(), after = try target.exportedTasks()
        #expect(before.count == 7)
        #expect(Set(after.keys) == Set(before.keys))
        for (uuid, task) in before {
            #expect(NSDictionary(dictionary: task) == NSDictionary(dictionary: after[uuid] ?? [:]), "task \(uuid)")
        }
        try await daemon.stop()
    }

    @Test("start goes both ways with the real task: started in task, the todo is started (not a foreign field); stopped there, it stops; started in todod, task lists it +ACTIVE")
    func startBothWays() async throws {
        let source = try TaskwarriorHome(settings: Self.settings)
        defer { source.remove() }
        try source.run(["add", "Write the report"])
        try source.run(["1", "start"])
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try source.run(["export"]), as: UTF8.self))
        let started = try jsonObject(try await daemon.todoctl("show", "1", "-j").stdout)
        _ = try #require(try source.exportedTasks().values.first?["start"] as? String)
        #expect(started["started"] != nil && (started["foreign"] as? [String: String])?["taskwarrior"]?.contains("start") != true, "\(started)")
        #expect(try await daemon.todoctl("list", "+ACTIVE").stdout.contains("Write the report"))

        try source.run(["1", "stop"])
        _ = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try source.run(["export"]), as: UTF8.self))
        let stopped = try jsonObject(try await daemon.todoctl("show", "1", "-j").stdout)
        #expect(stopped["started"] == nil, "\(stopped)")

        let again = try await daemon.todoctl("start", "1")
        #expect(again.status == 0, "\(again.stderr)")
        let back = try await daemon.todoctl("export", "--to", "taskwarrior", "--all")
        try source.run(["import", "-"], input: Data(back.stdout.utf8))
        let task = try #require(try source.exportedTasks().values.first)
        #expect(task["start"] as? String != nil, "\(task)")
        #expect(String(decoding: try source.run(["+ACTIVE", "export"]), as: UTF8.self).contains("Write the report"))
        try await daemon.stop()
    }

    @Test("A project goes both ways with the real task: set in todod, it is task's project; changed in task, it is todod's, never a tag")
    func projectBothWays() async throws {
        let source = try TaskwarriorHome(settings: Self.settings)
        defer { source.remove() }
        try source.run(["add", "Dig beds", "project:home", "+outside"])
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try source.run(["export"]), as: UTF8.self))
        let edited = try await daemon.todoctl("edit", "1", "project:home.garden", "-j")
        #expect(edited.status == 0, "\(edited.stderr)")
        let back = try await daemon.todoctl("export", "--to", "taskwarrior", "--all")
        try source.run(["import", "-"], input: Data(back.stdout.utf8))
        let task = try #require(try source.exportedTasks().values.first)
        #expect(task["project"] as? String == "home.garden" && task["tags"] as? [String] == ["outside"], "\(task)")

        try source.run(["description:Dig beds", "modify", "project:work"])
        _ = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try source.run(["export"]), as: UTF8.self))
        let todo = try jsonObject(try await daemon.todoctl("show", "1", "-j").stdout)
        #expect(todo["project"] as? String == "work" && todo["tags"] as? [String] == ["outside"], "\(todo)")
        try await daemon.stop()
    }

    @Test("Importing the same export twice changes nothing; a task modified since is updated")
    func reimport() async throws {
        let source = try sample()
        defer { source.remove() }
        let daemon = try await DaemonProcess.start()
        let first = String(decoding: try source.run(["export"]), as: UTF8.self)
        _ = try await daemon.todoctl("import", "--from", "taskwarrior", input: first)
        let again = try await daemon.todoctl("import", "--from", "taskwarrior", input: first)
        #expect(again.stdout == "imported 6 todos from standard input: 0 created, 0 updated, 6 unchanged\n")

        let before = try source.exportedTasks()
        try source.run(["description:Call mum", "modify", "priority:L", "Call mum and dad"])
        let changed = String(decoding: try source.run(["export"]), as: UTF8.self)
        // Taskwarrior may touch more than the modified task (a recurring task's instances): those too;
        // a touched template is its instance's todo's.
        let touched = try source.exportedTasks().filter { NSDictionary(dictionary: $0.value) != NSDictionary(dictionary: before[$0.key] ?? [:]) }
            .filter { $0.value["status"] as? String != "recurring" }
        #expect(touched.count >= 1)
        let dry = try await daemon.todoctl("import", "--from", "taskwarrior", "--dry-run", input: changed)
        #expect(dry.lines.contains("would update #2 Call mum and dad"))
        #expect(dry.lines.last == "dry run: 0 to create, \(touched.count) to update, \(6 - touched.count) unchanged; nothing was changed")
        let update = try await daemon.todoctl("import", "--from", "taskwarrior", input: changed)
        #expect(update.stdout == "imported 6 todos from standard input: 0 created, \(touched.count) updated, \(6 - touched.count) unchanged\n")
        let shown = try await daemon.todoctl("show", "2")
        #expect(shown.stdout.contains("Call mum and dad"))
        #expect(shown.stdout.contains("low"))
        // The import is in the journal like any edit (and the stop's todod --check agrees).
        let history = try await daemon.todoctl("history", "2")
        #expect(history.stdout.contains(#"title "Call mum" → "Call mum and dad""#), "\(history.stdout)")
        try await daemon.stop()
    }

    @Test("A bad record is reported with its place and reason, and nothing is imported")
    func badRecord() async throws {
        let daemon = try await DaemonProcess.start()
        let input = """
            [{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"fine","entry":"20261123T113416Z"},
             {"uuid":"1a687bbc-4770-4b11-b3d8-5e5b65b47886","description":"ring the bell\\u0007","entry":"20261123T113416Z"}]
            """
        let result = try await daemon.todoctl("import", "--from", "taskwarrior", input: input)
        #expect(result.status == 65)
        #expect(result.stderr.contains("todo 2 (ring the bell\\u{7}): title: contains the control character U+0007"))
        #expect(result.stderr.contains("nothing was imported"))
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout == "no open todos\n")
        try await daemon.stop()
    }

    @Test("A task that depends on itself, or two that wait for each other, are refused saying what to take away, and nothing is imported (outside probe P7-8)")
    func dependencyCyclesRefused() async throws {
        let daemon = try await DaemonProcess.start()
        let selfish = """
            [{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"fine","entry":"20261123T113416Z"},
             {"uuid":"1a687bbc-4770-4b11-b3d8-5e5b65b47886","description":"me first","entry":"20261123T113416Z","depends":["1a687bbc-4770-4b11-b3d8-5e5b65b47886"]}]
            """
        let refused = try await daemon.todoctl("import", "--from", "taskwarrior", input: selfish)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("todo 2 (me first): depends: it waits for itself (its depends holds its own id)"), "\(refused.stderr)")
        let round = """
            [{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"U1","entry":"20261123T113416Z","depends":["1a687bbc-4770-4b11-b3d8-5e5b65b47886"]},
             {"uuid":"1a687bbc-4770-4b11-b3d8-5e5b65b47886","description":"U2","entry":"20261123T113416Z","depends":"504a33a9-5410-4636-928d-5ed88ba3419d"}]
            """
        let cycle = try await daemon.todoctl("import", "--from", "taskwarrior", input: round)
        #expect(cycle.status == 65)
        #expect(cycle.stderr.contains("todo 1 (504a33a9-5410-4636-928d-5ed88ba3419d) waits for itself through the others' dependencies"), "\(cycle.stderr)")
        #expect(cycle.stderr.contains("nothing was imported"), "\(cycle.stderr)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout == "no open todos\n")
        try await daemon.stop()
    }

    @Test("Two records with one id in a file are refused, naming both, instead of the second replacing the first")
    func duplicateIDs() async throws {
        let daemon = try await DaemonProcess.start()
        let input = """
            [{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"first","entry":"20261123T113416Z"},
             {"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"second","entry":"20261123T113416Z"}]
            """
        let result = try await daemon.todoctl("import", "--from", "taskwarrior", input: input)
        #expect(result.status == 65)
        #expect(result.stderr.contains("todo 2 (second): has the same id as todo 1 (504a33a9-5410-4636-928d-5ed88ba3419d)"), "\(result.stderr)")
        let listed2 = try await daemon.todoctl("list")
        #expect(listed2.stdout == "no open todos\n")
        try await daemon.stop()
    }

    @Test("A subtask listed before its parent is linked; an undated VTODO from a file older than a todod edit does not undo it")
    func parentOrderAndUndatedFiles() async throws {
        let daemon = try await DaemonProcess.start()
        let file = daemon.directory + "/order.ics"
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            + "BEGIN:VTODO\r\nUID:kid\r\nSUMMARY:Kid\r\nRELATED-TO;RELTYPE=PARENT:mom\r\nEND:VTODO\r\n"
            + "BEGIN:VTODO\r\nUID:mom\r\nSUMMARY:Mom\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try calendar.write(toFile: file, atomically: false, encoding: .utf8)
        // Neither LAST-MODIFIED nor DTSTAMP: the file's own time dates its todos.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file)
        let imported2 = try await daemon.todoctl("import", "--from", "ical", file)
        #expect(imported2.status == 0, "\(imported2.stderr)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.lines == ["#1 [ ]   Mom [0/1]", "#2 [ ]     Kid"])
        let exported = try await daemon.todoctl("export", "--to", "ical")
        #expect(exported.stdout.contains("RELATED-TO;RELTYPE=PARENT:mom\r\n"))
        _ = try await daemon.todoctl("edit", "1", "--title", "Renamed in todod")
        let again = try await daemon.todoctl("import", "--from", "ical", file)
        #expect(again.stdout == "imported 2 todos from \(file): 0 created, 0 updated, 2 unchanged\n", "\(again.stderr)")
        let listed2 = try await daemon.todoctl("list")
        #expect(listed2.lines.first == "#1 [ ]   Renamed in todod [0/1]")
        try await daemon.stop()
    }
}
