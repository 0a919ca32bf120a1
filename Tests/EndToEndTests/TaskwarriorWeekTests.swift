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
