import Foundation
import Testing
import TodoInterop
import TodoModel
import InteropTestSupport

@Suite("Taskwarrior's export format")
struct TaskwarriorFormatTests {
    let utc = TimeZone(identifier: "UTC")!

    /// A Taskwarrior holding one of each kind of task todod has to carry.
    /// Its due days, wait and recurrence lie far ahead: `task` reads them against the real clock,
    /// and a daily recurrence that has come due grows an instance a day (a test that broke on 2026-11-24).
    private func sample() throws -> TaskwarriorHome {
        let task = try TaskwarriorHome(settings: ["uda.estimate.type=numeric", "uda.estimate.label=Est"])
        try task.run(["add", "Write report", "project:work.reports", "priority:H", "due:2099-11-30", "+office", "estimate:3"])
        try task.run(["1", "annotate", "first draft sent"])
        try task.run(["add", "Call mum", "+family", "due:2026-11-22T15:30"])
        try task.run(["add", "Buy milk", "wait:2099-12-01", "priority:M"])
        try task.run(["add", "Daily standup", "due:2099-11-24", "recur:daily"])
        try task.run(["add", "Old thing", "priority:L"])
        try task.run(["add", "Gone"])
        try task.run(["list"])
        try task.run(["description:Old thing", "done"])
        try task.run(["description:Gone", "delete"])
        return task
    }

    private func todos(_ imported: [ImportedTodo]) -> [Todo] {
        imported.enumerated().map { $1.todo(number: $0 + 1) }
    }

    @Test("What task export writes, read and written back, task import takes with every field as it was")
    func roundTrip() throws {
        let source = try sample()
        defer { source.remove() }
        let exported = try source.run(["export"])
        let imported = try TaskwarriorFormat.decode(exported, zone: utc)
        let written = TaskwarriorFormat.encode(todos(imported), zone: utc)

        let target = try TaskwarriorHome(settings: ["uda.estimate.type=numeric", "uda.estimate.label=Est"])
        defer { target.remove() }
        try target.run(["import", "-"], input: written)
        let before = try source.exportedTasks(), after = try target.exportedTasks()
        #expect(before.count == 7)
        #expect(Set(after.keys) == Set(before.keys))
        for (uuid, task) in before {
            #expect(NSDictionary(dictionary: task) == NSDictionary(dictionary: after[uuid] ?? [:]), "task \(uuid)")
        }
    }

    @Test("Each task's fields become the todo's: uuid, title, priority, due day, project, dated notes, states")
    func fields() throws {
        let source = try sample()
        defer { source.remove() }
        let imported = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc)
        let byTitle = Dictionary(imported.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        let report = try #require(byTitle["Write report"])
        let exported = try source.exportedTasks()
        #expect(exported[report.id.uuidString.lowercased()] != nil)
        #expect(report.priority == .high)
        #expect(report.due == LocalDate("2099-11-30"))
        #expect(report.tags == ["office"])
        #expect(report.project == "work.reports")
        // An annotation is the todo's annotation, at the time Taskwarrior gave it, not a line of the notes.
        let annotation = try #require(report.annotations?.first, "\(String(describing: report.annotations))")
        let taskAnnotation = try #require((exported[report.id.uuidString.lowercased()]?["annotations"] as? [[String: Any]])?.first)
        #expect(report.annotations?.count == 1 && annotation.description == "first draft sent", "\(String(describing: report.annotations))")
        #expect(BasicTime.utcText(annotation.entry) == taskAnnotation["entry"] as? String, "\(annotation) \(taskAnnotation)")
        #expect(report.notes == "", "\(report.notes)")
        #expect(report.foreign["taskwarrior"]?.contains("\"estimate\":3") == true)
        #expect(byTitle["Call mum"]?.due == LocalDate("2026-11-22"))
        #expect(byTitle["Old thing"]?.priority == .low)
        #expect(byTitle["Old thing"]?.completedAt != nil)
        #expect(byTitle["Gone"]?.deletedAt != nil)
        #expect(byTitle["Buy milk"]?.completedAt == nil)
        #expect(byTitle["Buy milk"]?.wait == LocalDate("2099-12-01"))
        #expect(byTitle["Call mum"]?.wait == nil)
    }

    @Test("A wait set or taken away in todod is one the real task import takes, and reads back the same")
    func waitChanged() throws {
        let source = try sample()
        defer { source.remove() }
        var todos = todos(try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc))
        let milk = try #require(todos.firstIndex { $0.title == "Buy milk" })
        let mum = try #require(todos.firstIndex { $0.title == "Call mum" })
        todos[milk].wait = nil
        todos[mum].wait = LocalDate("2031-01-06")
        let target = try TaskwarriorHome()
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: utc)
        let byTitle = Dictionary(back.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byTitle["Buy milk"]?.wait == nil)
        #expect(byTitle["Call mum"]?.wait == LocalDate("2031-01-06"))
    }

    @Test("A todo changed in todod is written with its new fields and keeps the ones todod does not know")
    func changedTodo() throws {
        let source = try sample()
        defer { source.remove() }
        let imported = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc)
        var todo = try #require(todos(imported).first { $0.title == "Write report" })
        todo.title = "Write the report"
        todo.priority = .low
        todo.due = LocalDate("2099-12-24")
        todo.tags = ["paper"]
        todo.project = "home"
        todo.notes += "\n2026-11-25 second draft"
        todo.completedAt = Date(timeIntervalSince1970: 1_795_000_000)
        todo.wait = LocalDate("2099-12-20")
        let task = try #require(try JSONSerialization.jsonObject(with: TaskwarriorFormat.encode([todo], zone: utc)) as? [[String: Any]]).first
        #expect(task?["description"] as? String == "Write the report")
        #expect(task?["priority"] as? String == "L")
        #expect(task?["due"] as? String == "20991224T000000Z")
        #expect(task?["project"] as? String == "home")
        #expect(task?["tags"] as? [String] == ["paper"])
        #expect(task?["status"] as? String == "completed")
        #expect(task?["estimate"] as? Int == 3)
        #expect(task?["wait"] as? String == "20991220T000000Z")
        let annotations = task?["annotations"] as? [[String: String]]
        #expect(annotations?.count == 2)
        #expect(annotations?.last == ["entry": "20261125T000000Z", "description": "second draft"])
    }

    @Test("An annotation added in todod goes to the real task with its time, and comes back as it went")
    func annotationKeepsItsTime() throws {
        let source = try sample()
        defer { source.remove() }
        var todos = todos(try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc))
        let report = try #require(todos.firstIndex { $0.title == "Write report" })
        // Later than the one `task annotate` made now: Taskwarrior keeps them in the order of their times.
        let added = Annotation(entry: Date(timeIntervalSince1970: 4_044_783_787), description: "second draft sent")
        todos[report].annotations.append(added)
        let target = try TaskwarriorHome(settings: ["uda.estimate.type=numeric", "uda.estimate.label=Est"])
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        let task = try #require(try target.exportedTasks()[todos[report].id.uuidString.lowercased()])
        let entries = (task["annotations"] as? [[String: Any]])?.map { "\($0["entry"] ?? "") \($0["description"] ?? "")" }
        #expect(entries?.last == "\(BasicTime.utcText(added.entry)) second draft sent", "\(String(describing: entries))")
        // Its time of day, not midnight as the notes' dated lines go out.
        #expect(BasicTime.utcText(added.entry) == "20980304T150307Z")
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: utc).first { $0.id == todos[report].id }
        #expect(back?.annotations == todos[report].annotations, "\(String(describing: back?.annotations))")
    }

    @Test("A task without a uuid is refused, naming its place in the file")
    func missingUUID() throws {
        let data = Data(#"[{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"fine"},{"description":"no id"}]"#.utf8)
        #expect(throws: InteropError("task 2", "has no valid uuid (got none); every exported task has one")) {
            try TaskwarriorFormat.decode(data)
        }
    }

    @Test("A time that is not Taskwarrior's is refused with the field and what was expected")
    func badTime() throws {
        let data = Data(#"[{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"x","due":"tomorrow"}]"#.utf8)
        #expect(throws: InteropError("task 1 (504a33a9-5410-4636-928d-5ed88ba3419d)", #"due is "tomorrow", not a time like 20261122T153000Z"#)) {
            try TaskwarriorFormat.decode(data)
        }
    }

    @Test("recur is the recurrence; a rule changed in todod is one the real task import takes, and reads back the same")
    func recurrence() throws {
        let source = try sample()
        defer { source.remove() }
        let imported = try TaskwarriorFormat.decode(try source.run(["export"]), zone: utc)
        let standups = imported.filter { $0.title == "Daily standup" }
        #expect(!standups.isEmpty)
        #expect(standups.allSatisfy { $0.recurrence == Recurrence(count: 1, unit: .day) })
        #expect(imported.filter { $0.title != "Daily standup" }.allSatisfy { $0.recurrence == nil })

        let odd = Data(#"[{"uuid":"504a33a9-5410-4636-928d-5ed88ba3419d","description":"x","recur":"quarterly"},{"uuid":"1a687bbc-4770-4b11-b3d8-5e5b65b47886","description":"y","recur":"3h"}]"#.utf8)
        let rules = try TaskwarriorFormat.decode(odd).map(\.recurrence)
        #expect(rules == [Recurrence(count: 3, unit: .month), nil])
        #expect(try TaskwarriorFormat.decode(odd)[1].foreign["taskwarrior"]?.contains(#""recur":"3h""#) == true)

        var changed = todos(imported)
        for index in changed.indices where changed[index].title == "Daily standup" {
            changed[index].recurrence = Recurrence(count: 2, unit: .week)
        }
        let target = try TaskwarriorHome(settings: ["uda.estimate.type=numeric", "uda.estimate.label=Est"])
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(changed, zone: utc))
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: utc).filter { $0.title == "Daily standup" }
        #expect(back.count == standups.count)
        #expect(back.allSatisfy { $0.recurrence == Recurrence(count: 2, unit: .week) })
        // The template is the series' rule: Taskwarrior makes its next instances by it.
        let templates = try target.exportedTasks().values.filter { $0["status"] as? String == "recurring" }
        #expect(templates.map { $0["recur"] as? String } == ["2weeks"], "\(templates)")
    }

    @Test("todod's next occurrence of an instance Taskwarrior made none ahead of is a new instance under the one template, whose mask covers it")
    func occurrenceWithoutAhead() throws {
        let task = try TaskwarriorHome(settings: ["uda.estimate.type=numeric", "uda.estimate.label=Est"])
        defer { task.remove() }
        // Due far ahead: Taskwarrior makes this one instance and none ahead of it.
        try task.run(["add", "Weekly review", "due:2099-11-24", "recur:weekly", "estimate:2"])
        try task.run(["list"])
        var todos = todos(try TaskwarriorFormat.decode(try task.run(["export"]), zone: utc))
        #expect(todos.count == 1, "\(todos)")
        todos[0].completedAt = Date(timeIntervalSince1970: 1_795_000_000)
        let next = try #require(todos[0].nextOccurrence(completedOn: LocalDate("2099-11-24")!))
        todos.append(Todo(next, number: 2, createdAt: Date(timeIntervalSince1970: 1_795_000_000), previous: 1))
        try task.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        try task.run(["list"])

        let tasks = try task.exportedTasks().values
        let template = tasks.filter { $0["status"] as? String == "recurring" }
        let pending = tasks.filter { $0["status"] as? String == "pending" }
        #expect(template.count == 1, "\(tasks)")
        #expect(template.first?["mask"] as? String == "+-", "\(template)")
        #expect(pending.count == 1, "\(tasks)")
        #expect(pending.first?["parent"] as? String == template.first?["uuid"] as? String, "\(pending)")
        #expect(pending.first?["imask"] as? Int == 1, "\(pending)")
        #expect(pending.first?["due"] as? String == "20991201T000000Z", "\(pending)")
        // What todod does not hold comes with the occurrence, as Taskwarrior's own instance would have it.
        #expect(pending.first?["estimate"] as? Int == 2, "\(pending)")
        #expect(pending.first?["uuid"] as? String == todos[1].id.uuidString.lowercased(), "\(pending)")
    }

    @Test("A repeating todo made in todod is written as a template and its first instance, under the todo's uuid: task import makes no twin, and it reads back as that todo")
    func seriesMadeInTodod() throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        // Due far ahead: Taskwarrior makes no instance ahead of it.
        let rule = Recurrence(count: 1, unit: .week)
        let todo = Todo(NewTodo(title: "Weekly review", due: LocalDate("2099-11-24"), recurrence: rule), number: 1,
                        createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        let written = TaskwarriorFormat.encode([todo], zone: utc)
        #expect(written == TaskwarriorFormat.encode([todo], zone: utc), "each export the same template")
        try task.run(["import", "-"], input: written)
        try task.run(["list"])
        let tasks = try task.exportedTasks().values
        let templates = tasks.filter { $0["status"] as? String == "recurring" }
        let pending = tasks.filter { $0["status"] as? String == "pending" }
        #expect(templates.count == 1 && pending.count == 1, "\(tasks)")
        let id = todo.id.uuidString.lowercased()
        #expect(pending.first?["uuid"] as? String == id, "\(pending)")
        #expect(pending.first?["parent"] as? String == templates.first?["uuid"] as? String, "\(pending)")
        #expect(templates.first?["uuid"] as? String != id && templates.first?["mask"] as? String == "-", "\(templates)")
        #expect(templates.first?["recur"] as? String == "weekly" && templates.first?["due"] as? String == "20991124T000000Z", "\(templates)")

        let back = try TaskwarriorFormat.decode(try task.run(["export"]), zone: utc)
        #expect(back.map(\.id) == [todo.id], "\(back)")
        #expect(back.first?.recurrence == rule)
    }

    @Test("A todo done in todod before its series first went out is an instance done; one done that ended its series is no template")
    func seriesMadeInTododDone() throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        let rule = Recurrence(count: 1, unit: .week), done = Date(timeIntervalSince1970: 1_795_000_000)
        var first = Todo(NewTodo(title: "Weekly review", due: LocalDate("2099-11-24"), recurrence: rule), number: 1, createdAt: done)
        first.completedAt = done
        let next = try #require(first.nextOccurrence(completedOn: LocalDate("2099-11-24")!))
        var ended = Todo(NewTodo(title: "Ended", due: LocalDate("2099-11-24"), recurrence: rule), number: 3, createdAt: done)
        ended.completedAt = done
        let todos = [first, Todo(next, number: 2, createdAt: done, previous: 1), ended]
        try task.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: utc))
        try task.run(["list"])
        let tasks = try task.exportedTasks().values
        let templates = tasks.filter { $0["status"] as? String == "recurring" }
        let pending = tasks.filter { $0["status"] as? String == "pending" }
        #expect(templates.count == 1 && templates.first?["mask"] as? String == "+-", "\(tasks)")
        #expect(pending.map { $0["uuid"] as? String } == [todos[1].id.uuidString.lowercased()], "\(pending)")
        #expect(pending.first?["imask"] as? Int == 1 && pending.first?["due"] as? String == "20991201T000000Z", "\(pending)")
        let completed = tasks.filter { $0["status"] as? String == "completed" }
        #expect(completed.count == 2 && completed.allSatisfy { $0["mask"] == nil }, "\(completed)")
    }

    @Test("A series todod made, due days back, is written with the instances Taskwarrior would make ahead of it: written again, Taskwarrior makes none twice")
    func seriesMadeInTododOverdue() throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        let zone = TimeZone.current, today = LocalDate(Date(), in: .current)
        let todo = Todo(NewTodo(title: "Water plants", due: today.adding(days: -3), recurrence: Recurrence(count: 1, unit: .day)),
                        number: 1, createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        let written = TaskwarriorFormat.encode([todo], zone: zone)
        for _ in 0..<2 {
            try task.run(["import", "-"], input: written)
            try task.run(["list"])
        }
        let tasks = try task.exportedTasks().values
        let pending = tasks.filter { $0["status"] as? String == "pending" }
        // Three days back, two days back, yesterday, today and tomorrow: each once.
        #expect(pending.count == 5, "\(pending)")
        #expect(Set(pending.compactMap { $0["imask"] as? Int }) == Set(0...4), "\(pending)")
        #expect(tasks.filter { $0["status"] as? String == "recurring" }.map { $0["mask"] as? String } == ["-----"], "\(tasks)")
        // Read back, the todo is the series with the others carried, as a series Taskwarrior made.
        let back = try TaskwarriorFormat.decode(try task.run(["export"]), zone: zone)
        #expect(back.map(\.id) == [todo.id], "\(back)")
        // The same a day later but for the instance then due.
        let later = try JSONSerialization.jsonObject(with: TaskwarriorFormat.encode([todo], zone: zone, now: Date().addingTimeInterval(86_400))) as? [[String: Any]] ?? []
        let first = try JSONSerialization.jsonObject(with: written) as? [[String: Any]] ?? []
        #expect(Set(later.compactMap { $0["uuid"] as? String }).isSuperset(of: first.compactMap { $0["uuid"] as? String }) && later.count == first.count + 1)
    }

    @Test("A daily series left pending for a year imports without refusal: what a todo cannot carry stays todos of their own, and every task is written back")
    func longNeglectedSeries() throws {
        let task = try TaskwarriorHome()
        defer { task.remove() }
        // A year back: Taskwarrior makes an instance a day up to today, all pending.
        try task.run(["add", "Water plants", "due:now-365d", "recur:daily"])
        try task.run(["list"])
        let exported = try task.exportedTasks()
        #expect(exported.count > 300, "\(exported.count) tasks")
        let imported = try TaskwarriorFormat.decode(try task.run(["export"]), zone: utc)
        let carried = imported.map { $0.foreign.values.reduce(0) { $0 + $1.utf8.count } }.max() ?? 0
        #expect(carried <= 64 * 1024, "\(carried) bytes kept with one todo")
        #expect(imported.count < exported.count - 1, "\(imported.count) todos of \(exported.count) tasks")
        let written = try JSONSerialization.jsonObject(with: TaskwarriorFormat.encode(todos(imported), zone: utc)) as? [[String: Any]] ?? []
        let uuids = written.compactMap { $0["uuid"] as? String }
        #expect(uuids.count == Set(uuids).count, "a uuid written twice")
        #expect(Set(uuids) == Set(exported.keys), "\(Set(exported.keys).subtracting(uuids).count) tasks not written back")
    }
}
