import Foundation
import InteropTestSupport
import Testing

/// Issue 26's week: a Taskwarrior user's real list (projects, tags, times of day, annotations,
/// a start, a wait, a scheduled day and a daily series) taken into todod, worked in both tools
/// and carried back and forth with the real `task`, in Berlin's zone (UTC+1 in winter, +2 in
/// summer), on the real clock as a user's would run.
@Suite("A Taskwarrior user's week with todod")
struct TaskwarriorWeekTests {
    let env = ["TZ": "Europe/Berlin"]
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// Today plus `days`, as `task` and todoctl write a day here.
    private func day(_ days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let date = calendar.date(byAdding: .day, value: days, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    private func sync(_ task: TaskwarriorHome, to daemon: DaemonProcess) async throws -> CommandResult {
        let imported = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try task.run(["export"]), as: UTF8.self), environment: env)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        return imported
    }

    private func sync(_ daemon: DaemonProcess, to task: TaskwarriorHome) async throws {
        try task.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior", environment: env).stdout.utf8))
    }

    private func todos(_ daemon: DaemonProcess) async throws -> [[String: Any]] {
        try jsonArray(try await daemon.todoctl("export", "--to", "json", environment: env).stdout)
    }

    private func isOpen(_ todo: [String: Any]) -> Bool {
        (todo["completedAt"] ?? NSNull()) is NSNull && (todo["deletedAt"] ?? NSNull()) is NSNull
    }

    /// The one todo titled `title` (expects there is one).
    private func one(_ todos: [[String: Any]], _ title: String, open: Bool = true) -> [String: Any] {
        let found = todos.filter { $0["title"] as? String == title && isOpen($0) == open }
        #expect(found.count == 1, "\(found.count) \(open ? "open" : "closed") todos titled \(title): \(todos)")
        return found.first ?? [:]
    }

    /// Taskwarrior's tasks by description and status (templates as `recurring`).
    private func tasks(_ task: TaskwarriorHome, _ description: String, _ status: String) throws -> [[String: Any]] {
        try task.exportedTasks().values.filter { $0["description"] as? String == description && $0["status"] as? String == status }
    }

    /// Every field todod keeps of the week's timed todos, as they were made in Taskwarrior.
    private func expectTimesKept(_ all: [[String: Any]], reportOpen: Bool = true, standupOpen: Bool = true) {
        let report = one(all, "Write report", open: reportOpen)
        #expect(report["due"] as? String == day(2) && report["dueTime"] as? String == "10:00", "\(report)")
        #expect(report["project"] as? String == "work.reports" && report["tags"] as? [String] == ["office"], "\(report)")
        let dentist = one(all, "Dentist")
        #expect(dentist["dueTime"] as? String == "11:15" && dentist["scheduled"] as? String == day(2), "\(dentist)")
        #expect(dentist["scheduledTime"] as? String == "09:00", "\(dentist)")
        let milk = one(all, "Buy milk")
        #expect(milk["wait"] as? String == day(1) && milk["waitTime"] as? String == "08:00" && milk["dueTime"] == nil, "\(milk)")
        if standupOpen {
            let standup = one(all, "Daily standup")
            #expect(standup["dueTime"] as? String == "09:30" && (standup["recurrence"] as? [String: Any])?["every"] as? String == "1d", "\(standup)")
        }
    }

    /// One command of the week: `task`'s words and todoctl's (the same modifiers, the verb
    /// where todoctl puts it: `1 annotate …` is `annotate 1 …`).
    private typealias Step = (task: [String], todoctl: [String])

    /// `task` and `todoctl` forms of `ID VERB WORDS…`; `add …` is the same in both.
    private func step(_ words: String...) -> Step {
        guard let first = words.first, Int(first) != nil, words.count > 1 else { return (words, words) }
        let verb = words[1] == "modify" ? "edit" : words[1]
        return (words, [verb, first] + words.dropFirst(2))
    }

    /// A task's `due` (`wait`, `scheduled`) as todod keeps it: the local day, and the time unless it is midnight.
    private func local(_ instant: Any?) -> (day: String?, time: String?) {
        guard let text = instant as? String, text.count == 16 else { return (nil, nil) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        guard let date = formatter.date(from: text) else { return (nil, nil) }
        formatter.timeZone = berlin
        formatter.dateFormat = "yyyy-MM-dd"
        let day = formatter.string(from: date)
        formatter.dateFormat = "HH:mm"
        let time = formatter.string(from: date)
        return (day, time == "00:00" ? nil : time)
    }

    @Test("The week's commands in Taskwarrior's words given to the real task and to todoctl make the same todos, field by field: projects, tags, priorities, times of day, wait, scheduled, until, depends, annotations, start and stop, done")
    func sameCommandsSameTodos() async throws {
        // gc=off: task keeps its ids after done, as todod keeps its numbers.
        let task = try TaskwarriorHome(settings: ["gc=off"], zone: "Europe/Berlin")
        defer { task.remove() }
        let daemon = try await DaemonProcess.start(environment: env)
        let week: [Step] = [
            step("add", "Write report", "project:work.reports", "+office", "pri:H", "due:2030-12-24T10:00"),
            step("add", "Call mum", "+family", "due:2030-12-23T18:30"),
            step("add", "Buy milk", "project:home", "+shop", "wait:2030-12-01T08:00", "due:2030-12-03"),
            step("add", "Dentist", "project:health", "scheduled:2030-12-22T09:00", "due:2030-12-22T11:15"),
            step("add", "Pack bags", "project:home.travel", "depends:1", "due:2030-12-26"),
            step("add", "Book flights", "project:home.travel", "pri:L"),
            step("add", "Renew passport", "due:2030-12-20", "until:2030-12-31"),
            step("1", "annotate", "outline agreed with Anna"),
            step("2", "annotate", "she asked about Christmas"),
            step("1", "start"),
            step("6", "modify", "pri:M", "+urgent"),
            step("4", "modify", "due:2030-12-22T14:00"),
            step("2", "done"),
            step("6", "start"),
            step("6", "stop"),
            step("3", "modify", "-shop", "+errand"),
            step("5", "modify", "scheduled:2030-12-25T07:30"),
            step("7", "modify", "wait:2030-12-10"),
            step("4", "modify", "pri:H"),
            step("3", "done"),
        ]
        for (taskWords, todoctlWords) in week {
            try task.run(taskWords)
            let result = try await daemon.todoctl(todoctlWords, environment: env)
            #expect(result.status == 0, "todoctl \(todoctlWords.joined(separator: " ")): \(result.stdout)\(result.stderr)")
        }

        let tasks = try task.exportedTasks().values
        let todos = try await todos(daemon)
        #expect(tasks.count == todos.count, "\(tasks.count) tasks, \(todos.count) todos")
        let titles = Dictionary(uniqueKeysWithValues: todos.compactMap { todo in (todo["id"] as? String).map { ($0, todo["title"] as? String ?? "") } })
        let descriptions = Dictionary(uniqueKeysWithValues: tasks.compactMap { task in (task["uuid"] as? String).map { ($0, task["description"] as? String ?? "") } })
        let priorities = ["H": "high", "M": "normal", "L": "low"]
        for there in tasks {
            let title = there["description"] as? String ?? ""
            let here = one(todos, title, open: there["status"] as? String != "completed")
            func same(_ field: String, _ taskValue: Any?, _ todoValue: Any?) {
                let taskText = "\(taskValue ?? "none")", todoText = todoValue is NSNull ? "none" : "\(todoValue ?? "none")"
                #expect(taskText == todoText, "\(title) \(field): task \(taskText), todod \(todoText)")
            }
            same("project", there["project"], here["project"])
            same("tags", (there["tags"] as? [String] ?? []).sorted(), (here["tags"] as? [String] ?? []).sorted())
            same("priority", priorities[there["priority"] as? String ?? "M"], here["priority"])
            for key in ["due", "wait", "scheduled"] {
                let moment = local(there[key])
                same(key, moment.day, here[key])
                same(key + " time", moment.time, here[key + "Time"])
            }
            same("until", local(there["until"]).day, here["until"])
            same("annotations", (there["annotations"] as? [[String: Any]] ?? []).map { $0["description"] as? String ?? "" },
                 (here["annotations"] as? [[String: Any]] ?? []).map { $0["description"] as? String ?? "" })
            same("started", there["start"] != nil, (here["started"] ?? NSNull()) is NSNull == false)
            same("depends", (there["depends"] as? [String] ?? []).compactMap { descriptions[$0] }.sorted(),
                 (here["depends"] as? [String] ?? []).compactMap { titles[$0.lowercased()] ?? titles[$0] }.sorted())
        }
        try await daemon.stop()
    }

    @Test("A week's list goes into todod with its times, annotations and one series; done in todod, back in task, done there, and in again: one series, nothing twice, every time kept")
    func week() async throws {
        let task = try TaskwarriorHome(zone: "Europe/Berlin")
        defer { task.remove() }
        try task.run(["add", "Write report", "project:work.reports", "+office", "pri:H", "due:\(day(2))T10:00"])
        try task.run(["add", "Call mum", "+family", "due:\(day(1))T18:30"])
        try task.run(["add", "Buy milk", "project:home", "+shop", "wait:\(day(1))T08:00", "due:\(day(3))"])
        try task.run(["add", "Dentist", "project:health", "scheduled:\(day(2))T09:00", "due:\(day(2))T11:15"])
        try task.run(["add", "Daily standup", "project:work", "+meeting", "due:\(day(0))T09:30", "recur:daily"])
        try task.run(["1", "annotate", "outline agreed with Anna"])
        try task.run(["2", "annotate", "she asked about Christmas"])
        try task.run(["1", "start"])
        try task.run(["list"])  // Taskwarrior makes the series' instances as a user's first report does.
        let annotations = try #require(try tasks(task, "Write report", "pending").first?["annotations"] as? [[String: Any]])

        // Into todod: each task once, the series one todo, times as task has them.
        let daemon = try await DaemonProcess.start(environment: env)
        let first = try await sync(task, to: daemon)
        #expect(first.stdout.contains(" 0 updated"), "\(first.stdout)")
        var all = try await todos(daemon)
        #expect(all.filter(isOpen).count == 5, "\(all)")
        expectTimesKept(all)
        #expect(one(all, "Call mum")["dueTime"] as? String == "18:30")
        #expect((one(all, "Write report")["annotations"] as? [[String: Any]])?.count == 1 && one(all, "Write report")["started"] != nil, "\(all)")
        let shown = try await daemon.todoctl("list", "project:work", environment: env)
        #expect(shown.stdout.contains("Write report") && shown.stdout.contains("Daily standup"), "\(shown.stdout)")

        // Done in todod: today's standup (its next one is due tomorrow at 09:30) and the call.
        let standupNumber = try #require(one(all, "Daily standup")["number"] as? Int)
        let mumNumber = try #require(one(all, "Call mum")["number"] as? Int)
        for number in [standupNumber, mumNumber] {
            let done = try await daemon.todoctl("done", String(number), environment: env)
            #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        }
        all = try await todos(daemon)
        let next = one(all, "Daily standup")
        #expect(next["due"] as? String == day(1) && next["dueTime"] as? String == "09:30", "\(next)")

        // Back into task: one template, the call done, the report's times and annotation as they were.
        try await sync(daemon, to: task)
        try task.run(["list"])
        #expect(try tasks(task, "Daily standup", "recurring").count == 1)
        #expect(try tasks(task, "Daily standup", "pending").count == 1)
        #expect(try tasks(task, "Call mum", "completed").count == 1 && tasks(task, "Call mum", "pending").isEmpty)
        let report = try #require(try tasks(task, "Write report", "pending").first)
        let uuid = try #require(report["uuid"] as? String)
        #expect(String(decoding: try task.run(["_get", "\(uuid).due"]), as: UTF8.self) == "\(day(2))T10:00:00\n")
        #expect(NSArray(array: report["annotations"] as? [[String: Any]] ?? []) == NSArray(array: annotations), "\(report)")
        #expect(report["start"] != nil, "\(report)")
        let pendingStandup = try #require(try tasks(task, "Daily standup", "pending").first?["uuid"] as? String)
        #expect(String(decoding: try task.run(["_get", "\(pendingStandup).due"]), as: UTF8.self) == "\(day(1))T09:30:00\n")

        // Done in task: the report and the standup todod made; a new task beside them.
        try task.run([uuid, "done"])
        try task.run([pendingStandup, "done"])
        try task.run(["add", "Book flights", "project:home.travel", "due:\(day(5))T07:45"])
        try task.run(["list"])

        // In again: nothing twice, one series (as many open as task has pending), times kept.
        let again = try await sync(task, to: daemon)
        #expect(again.stdout.contains(" 1 created"), "\(again.stdout)")
        all = try await todos(daemon)
        let openStandups = all.filter { $0["title"] as? String == "Daily standup" && isOpen($0) }
        let pending = try tasks(task, "Daily standup", "pending")
        #expect(openStandups.count == pending.count && pending.count <= 1, "\(openStandups.count) open in todod, \(pending.count) pending in task")
        #expect(all.filter { $0["title"] as? String == "Daily standup" && !isOpen($0) }.count == 2, "\(all)")
        #expect(one(all, "Book flights")["dueTime"] as? String == "07:45")
        expectTimesKept(all, reportOpen: false, standupOpen: !openStandups.isEmpty)
        let ids = all.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count)
        // Each todo is one task: todod holds no more than task's tasks but the template.
        let taskCount = try task.exportedTasks().values.filter { $0["status"] as? String != "recurring" }.count
        #expect(all.count == taskCount, "\(all.count) todos, \(taskCount) tasks")

        // And out once more: task still has one template, and nothing changes there.
        let before = try task.exportedTasks()
        try await sync(daemon, to: task)
        let after = try task.exportedTasks()
        #expect(try tasks(task, "Daily standup", "recurring").count == 1)
        #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before), "\(after)\n--- before:\n\(before)")
        try await daemon.stop()
    }
}
