import Foundation
import InteropTestSupport
import Testing

/// Times of day between the real `task` and a real daemon, both in Berlin's zone (UTC+1 in
/// December): `task export | todoctl import`, `todoctl export | task import`.
@Suite("Taskwarrior's times of day end to end")
struct TaskwarriorTimeEndToEndTests {
    let env = ["TZ": "Europe/Berlin"]

    @Test("task add due:2026-12-24T15:00, imported, shows 15:00 in todod, and exported back task reads the same instant; wait and scheduled too; an import that moves the time moves todod's")
    func dueAtThreeRoundTrips() async throws {
        let task = try TaskwarriorHome(zone: "Europe/Berlin")
        defer { task.remove() }
        // The wait still ahead: one already past ends as it is imported (the waker), and goes back without it.
        try task.run(["add", "Call the bank", "due:2026-12-24T15:00", "wait:2036-11-20T08:30", "scheduled:2026-12-22T09:00"])
        try task.run(["add", "Pay rent", "due:2026-12-24"])
        let uuid = String(decoding: try task.run(["_get", "1.uuid"]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let daemon = try await DaemonProcess.start(environment: env)
        let imported = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try task.run(["export"]), as: UTF8.self), environment: env)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let shown = try await daemon.todoctl("show", "1", environment: env)
        #expect(shown.stdout.contains("2026-12-24 15:00"), "\(shown.stdout)")
        let json = try jsonArray(try await daemon.todoctl("export", "--to", "json", environment: env).stdout)
        let bank = try #require(json.first { $0["title"] as? String == "Call the bank" })
        #expect(bank["dueTime"] as? String == "15:00" && bank["waitTime"] as? String == "08:30" && bank["scheduledTime"] as? String == "09:00", "\(bank)")
        #expect(json.first { $0["title"] as? String == "Pay rent" }?["dueTime"] == nil, "\(json)")

        let target = try TaskwarriorHome(zone: "Europe/Berlin")
        defer { target.remove() }
        try target.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior", environment: env).stdout.utf8))
        for key in ["due", "wait", "scheduled"] {
            let there = String(decoding: try target.run(["_get", "\(uuid).\(key)"]), as: UTF8.self)
            let here = String(decoding: try task.run(["_get", "\(uuid).\(key)"]), as: UTF8.self)
            #expect(there == here && !there.isEmpty, "\(key): \(there) against \(here)")
        }
        #expect(String(decoding: try target.run(["_get", "\(uuid).due"]), as: UTF8.self) == "2026-12-24T15:00:00\n")

        // Moved in task to another time of the same day, the import moves todod's time.
        try task.run(["1", "modify", "due:2026-12-24T17:30"])
        let moved = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try task.run(["export"]), as: UTF8.self), environment: env)
        #expect(moved.stdout.contains("1 updated"), "\(moved.stdout)\(moved.stderr)")
        #expect(try await daemon.todoctl("show", "1", environment: env).stdout.contains("2026-12-24 17:30"))
        try await daemon.stop()
    }

    @Test("A todo due at 00:00 (due:sod, due:0:00) comes back from task at 00:00, through task import, a modify of another field and task export, where it came back due all day; a whole day stays one; the unchanged export imported back counts every todo unchanged")
    func midnightTimeRoundTrips() async throws {
        let daemon = try await DaemonProcess.start(environment: env)
        for words in [["Early train", "due:2026-12-24T0:00"], ["Start the day", "due:sod"], ["Fetch the parcel", "due:2026-12-24"]] {
            let added = try await daemon.todoctl(["add"] + words, environment: env)
            #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        }
        let task = try TaskwarriorHome(zone: "Europe/Berlin")
        defer { task.remove() }
        try task.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior", environment: env).stdout.utf8))
        // Back unchanged: only the fields todod keeps for task are new, which the user does not see.
        let planned = try await daemon.todoctl("import", "--from", "taskwarrior", "--dry-run", input: String(decoding: try task.run(["export"]), as: UTF8.self), environment: env)
        #expect(planned.stdout.contains("0 to create, 0 to update, 3 unchanged"), "\(planned.stdout)\(planned.stderr)")
        let same = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try task.run(["export"]), as: UTF8.self), environment: env)
        #expect(same.stdout.contains("0 created, 0 updated, 3 unchanged"), "\(same.stdout)\(same.stderr)")

        let uuids = try task.exportedTasks().mapValues { $0["description"] as? String ?? "" }
        func uuid(_ title: String) throws -> String { try #require(uuids.first { $0.value == title }?.key) }
        try task.run([try uuid("Early train"), "modify", "+travel"])
        try task.run([try uuid("Start the day"), "modify", "priority:H"])
        let moved = try await daemon.todoctl("import", "--from", "taskwarrior", input: String(decoding: try task.run(["export"]), as: UTF8.self), environment: env)
        #expect(moved.stdout.contains("2 updated, 1 unchanged"), "\(moved.stdout)\(moved.stderr)")
        let json = try jsonArray(try await daemon.todoctl("export", "--to", "json", environment: env).stdout)
        func todo(_ title: String) -> [String: Any]? { json.first { $0["title"] as? String == title } }
        #expect(todo("Early train")?["due"] as? String == "2026-12-24" && todo("Early train")?["dueTime"] as? String == "00:00", "\(json)")
        #expect(todo("Early train")?["tags"] as? [String] == ["travel"], "\(json)")
        #expect(todo("Start the day")?["dueTime"] as? String == "00:00", "\(json)")
        #expect(todo("Fetch the parcel")?["due"] as? String == "2026-12-24" && todo("Fetch the parcel")?["dueTime"] == nil, "\(json)")
        let overdue = try await daemon.todoctl("list", "--overdue", environment: env)
        #expect(overdue.stdout.contains("Start the day"), "\(overdue.stdout)")
        try await daemon.stop()
    }

    @Test("A daily todo made in todod at 18:00 goes to task as one series whose every instance, those todod writes ahead too, is due at 18:00 (they went at midnight)")
    func seriesMadeInTododKeepsItsTime() async throws {
        let daemon = try await DaemonProcess.start(environment: env)
        let added = try await daemon.todoctl("add", "Water plants", "recur:daily", "due:yesterday@18:00", environment: env)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        let task = try TaskwarriorHome(zone: "Europe/Berlin")
        defer { task.remove() }
        try task.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior", environment: env).stdout.utf8))
        try task.run(["list"])
        let series = try task.exportedTasks().values.filter { $0["description"] as? String == "Water plants" }
        #expect(series.count >= 3, "\(series)")
        for instance in series {
            let uuid = try #require(instance["uuid"] as? String)
            let due = String(decoding: try task.run(["_get", "\(uuid).due"]), as: UTF8.self)
            #expect(due.hasSuffix("T18:00:00\n"), "\(instance)")
        }
        #expect(series.filter { $0["status"] as? String == "recurring" }.count == 1, "\(series)")
        // Taskwarrior's report made none of its own beside those todod wrote ahead: each instant once.
        let dues = series.filter { $0["status"] as? String == "pending" }.compactMap { $0["due"] as? String }
        #expect(Set(dues).count == dues.count && dues.count >= 2, "\(series)")
        try await daemon.stop()
    }

    @Test("A time given in todod goes to task as that local time, and a whole day set in todod over a timed task goes as local midnight")
    func timeSetInTodod() async throws {
        let daemon = try await DaemonProcess.start(environment: env)
        #expect(try await daemon.todoctl("add", "Team meeting", "due:2026-12-24T09:45", environment: env).status == 0)
        #expect(try await daemon.todoctl("add", "Fetch the parcel", "due:2026-12-24T11:00", environment: env).status == 0)
        #expect(try await daemon.todoctl("edit", "2", "due:2026-12-24", environment: env).status == 0)
        let dues = try await taskDues(exportedBy: daemon, environment: env)
        #expect(dues["Team meeting"] == "20261224T084500Z" && dues["Fetch the parcel"] == "20261223T230000Z", "\(dues)")
        try await daemon.stop()
    }
}

/// The due instants a new Taskwarrior in `environment`'s zone holds once it has imported
/// `daemon`'s export, by description.
func taskDues(exportedBy daemon: DaemonProcess, environment: [String: String]) async throws -> [String: String] {
    let task = try TaskwarriorHome(zone: environment["TZ"])
    defer { task.remove() }
    try task.run(["import", "-"], input: Data(try await daemon.todoctl("export", "--to", "taskwarrior", environment: environment).stdout.utf8))
    var dues: [String: String] = [:]
    for fields in try task.exportedTasks().values {
        if let title = fields["description"] as? String, let due = fields["due"] as? String { dues[title] = due }
    }
    return dues
}
