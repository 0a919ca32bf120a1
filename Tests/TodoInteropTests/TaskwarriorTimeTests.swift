import Foundation
import Testing
import TodoInterop
import TodoModel
import InteropTestSupport

/// Taskwarrior keeps due, wait and scheduled as UTC instants; todod keeps a local day and a
/// time of day. Both `task` and the format read them in Berlin's zone (UTC+1 in December), so
/// a local time is not the instant's UTC hour.
@Suite("Taskwarrior's times of day")
struct TaskwarriorTimeTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// A Taskwarrior in Berlin's zone given `commands` (`add …`, `1 annotate …`), and its tasks as todod imports them.
    private func imported(_ commands: [String]...) throws -> (TaskwarriorHome, [Todo]) {
        let source = try TaskwarriorHome(zone: "Europe/Berlin")
        for command in commands { try source.run(command) }
        let imported = try TaskwarriorFormat.decode(try source.run(["export"]), zone: berlin)
        return (source, imported.enumerated().map { $1.todo(number: $0 + 1) })
    }

    /// A todo made in todod, due on `day` (at `time`), waiting until `wait` (at `waitTime`).
    private func made(_ number: Int, _ title: String, due day: LocalDate?, at time: String? = nil, wait: String? = nil, at waitTime: String? = nil) -> Todo {
        var todo = Todo(number: number, title: title, due: day, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        (todo.dueTime, todo.wait) = (time.flatMap(TimeOfDay.init), wait.flatMap(LocalDate.init))
        todo.waitTime = waitTime.flatMap(TimeOfDay.init)
        return todo
    }

    /// `todos` as the format writes them for `task import` in Berlin's zone, each task by its description.
    private func written(_ todos: [Todo]) throws -> [String: [String: Any]] {
        let tasks = try JSONSerialization.jsonObject(with: TaskwarriorFormat.encode(todos, zone: berlin)) as? [[String: Any]] ?? []
        return Dictionary(tasks.map { ($0["description"] as? String ?? "", $0) }) { a, _ in a }
    }

    /// `todo` beside a whole-day todo due the same day (Fetch the parcel), as the format writes
    /// them (`written`) and in a new Taskwarrior in Berlin's zone that imported them.
    private func sentToTask(_ todo: Todo) throws -> (written: [String: [String: Any]], target: TaskwarriorHome) {
        let todos = [todo, made(2, "Fetch the parcel", due: todo.due)]
        let target = try TaskwarriorHome(zone: "Europe/Berlin")
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: berlin))
        return (try written(todos), target)
    }

    @Test("A task due at a local time imports with that time (wait and scheduled too), one due at local midnight as the whole day, and both go back to the real task as the same instants")
    func timesRoundTrip() throws {
        let (source, todos) = try imported(
            ["add", "Call the bank", "due:2026-12-24T15:00", "wait:2026-12-20T08:30", "scheduled:2026-12-22T09:00"],
            ["add", "Pay rent", "due:2026-12-24"], ["add", "Send cards", "due:2026-12-24T23:59:59"],
            ["1", "annotate", "rang once, no answer"])
        defer { source.remove() }
        let bank = try #require(todos.first { $0.title == "Call the bank" })
        let rent = try #require(todos.first { $0.title == "Pay rent" })
        let cards = try #require(todos.first { $0.title == "Send cards" })
        #expect(bank.due == LocalDate("2026-12-24") && bank.dueTime == TimeOfDay("15:00"), "\(bank)")
        #expect(bank.wait == LocalDate("2026-12-20") && bank.waitTime == TimeOfDay("08:30"), "\(bank)")
        #expect(bank.scheduled == LocalDate("2026-12-22") && bank.scheduledTime == TimeOfDay("09:00"), "\(bank)")
        #expect(rent.due == LocalDate("2026-12-24") && rent.dueTime == nil, "\(rent)")
        #expect(cards.due == LocalDate("2026-12-24") && cards.dueTime == TimeOfDay("23:59"), "\(cards)")

        let target = try TaskwarriorHome(zone: "Europe/Berlin")
        defer { target.remove() }
        try target.run(["import", "-"], input: TaskwarriorFormat.encode(todos, zone: berlin))
        let before = try source.exportedTasks(), after = try target.exportedTasks()
        for todo in [bank, rent, cards] {
            let uuid = todo.id.uuidString.lowercased()
            for key in ["due", "wait", "scheduled"] {
                #expect(after[uuid]?[key] as? String == before[uuid]?[key] as? String, "\(todo.title) \(key): \(after[uuid] ?? [:])")
            }
        }
        // The annotation keeps its time (a note once went out at 00:00:00).
        let annotations = { (tasks: [String: [String: Any]]) in
            (tasks[bank.id.uuidString.lowercased()]?["annotations"] as? [[String: Any]])?.compactMap { $0["entry"] as? String }
        }
        #expect(annotations(after) != nil && annotations(after) == annotations(before), "\(after)")
        let uuid = bank.id.uuidString.lowercased()
        #expect(String(decoding: try target.run(["_get", "\(uuid).due"]), as: UTF8.self) == "2026-12-24T15:00:00\n")
        #expect(String(decoding: try target.run(["_get", "\(rent.id.uuidString.lowercased()).due"]), as: UTF8.self) == "2026-12-24T00:00:00\n")
    }

    @Test("A todo given a time in todod goes out as that local instant in UTC, one made a whole day as local midnight, and task reads back the local times")
    func timesMadeInTodod() throws {
        let day = LocalDate("2026-12-24")!
        var meeting = made(1, "Team meeting", due: day, at: "15:00", wait: "2026-12-23", at: "12:15")
        meeting.scheduled = day
        meeting.scheduledTime = TimeOfDay("09:45")
        let (tasks, target) = try sentToTask(meeting)
        defer { target.remove() }
        #expect(tasks["Team meeting"]?["due"] as? String == "20261224T140000Z", "\(tasks)")
        #expect(tasks["Team meeting"]?["wait"] as? String == "20261223T111500Z", "\(tasks)")
        #expect(tasks["Team meeting"]?["scheduled"] as? String == "20261224T084500Z", "\(tasks)")
        #expect(tasks["Fetch the parcel"]?["due"] as? String == "20261223T230000Z", "\(tasks)")
        let uuid = meeting.id.uuidString.lowercased()
        #expect(String(decoding: try target.run(["_get", "\(uuid).due"]), as: UTF8.self) == "2026-12-24T15:00:00\n")
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: berlin)
        let again = try #require(back.first { $0.title == "Team meeting" })
        #expect(again.dueTime == TimeOfDay("15:00") && again.waitTime == TimeOfDay("12:15") && again.scheduledTime == TimeOfDay("09:45"), "\(again)")
        #expect(back.first { $0.title == "Fetch the parcel" }?.dueTime == nil)
    }

    @Test("Across Berlin's changes of summer time a local time is the instant of that day's offset, both ways: 03:30 on the day clocks go forward is 01:30Z, 01:30 that night 00:30Z, 10:00 on the day they go back 09:00Z")
    func summerTime() {
        let cases: [(day: String, time: String, utc: String)] = [
            ("2026-03-29", "03:30", "20260329T013000Z"), ("2026-03-29", "01:30", "20260329T003000Z"),
            ("2026-10-25", "10:00", "20261025T090000Z"), ("2026-07-01", "15:00", "20260701T130000Z"),
        ]
        for (day, time, utc) in cases {
            let instant = BasicTime.instant(of: LocalDate(day)!, at: TimeOfDay(time), in: berlin)
            #expect(BasicTime.utcText(instant) == utc, "\(day) \(time)")
            let local = BasicTime.localTime(instant, in: berlin)
            #expect(local.day == LocalDate(day) && local.time == TimeOfDay(time), "\(utc): \(local)")
        }
    }

    @Test("A todo due at 00:00 goes to task one second after local midnight and comes back at 00:00 through task import, a modify of another field and task export; a whole day stays local midnight, and task's own due:sod (midnight) is the whole day")
    func midnightTimeRoundTrip() throws {
        let day = LocalDate("2026-12-24")!
        let early = made(1, "Early train", due: day, at: "00:00", wait: "2026-12-20", at: "00:00")
        let (tasks, target) = try sentToTask(early)
        defer { target.remove() }
        #expect(tasks["Early train"]?["due"] as? String == "20261223T230001Z", "\(tasks)")
        #expect(tasks["Fetch the parcel"]?["due"] as? String == "20261223T230000Z", "\(tasks)")
        let uuid = early.id.uuidString.lowercased()
        try target.run([uuid, "modify", "+travel", "priority:H"])
        try target.run(["add", "Own midnight", "due:2026-12-24T00:00"])
        let back = try TaskwarriorFormat.decode(try target.run(["export"]), zone: berlin)
        let again = try #require(back.first { $0.title == "Early train" })
        #expect(again.due == day && again.dueTime == TimeOfDay("00:00") && again.waitTime == TimeOfDay("00:00"), "\(again)")
        #expect(again.tags == ["travel"])
        #expect(back.first { $0.title == "Fetch the parcel" }.map { $0.due == day && $0.dueTime == nil } == true)
        #expect(back.first { $0.title == "Own midnight" }.map { $0.due == day && $0.dueTime == nil } == true)
        // Written again unchanged, the task's own instant goes back.
        let rewritten = try written(back.enumerated().map { $1.todo(number: $0 + 1) })
        #expect(rewritten["Early train"]?["due"] as? String == "20261223T230001Z", "\(rewritten)")
    }

    @Test("Across a change of summer time a todo's local time goes to task by RFC 5545's rule: one the clocks skip (2027-03-28 02:30) by the offset before the gap, one they show twice (2026-10-25 02:30) as the first")
    func summerTimeEdges() {
        for (day, time, utc) in [("2027-03-28", "02:30", "20270328T013000Z"), ("2026-10-25", "02:30", "20261025T003000Z")] {
            let tasks = try? written([made(1, "Edge", due: LocalDate(day), at: time)])
            #expect(tasks?["Edge"]?["due"] as? String == utc, "\(day) \(time): \(String(describing: tasks))")
        }
    }

    @Test("A time changed in todod on the same day goes out as the new instant, and a time taken away as local midnight; the task's own seconds stay while the minute does")
    func timeChangedInTodod() throws {
        var (source, todos) = try imported(["add", "Call the bank", "due:2026-12-24T15:00:30"], ["add", "Send cards", "due:2026-12-24T18:00"])
        defer { source.remove() }
        let bank = try #require(todos.firstIndex { $0.title == "Call the bank" })
        let cards = try #require(todos.firstIndex { $0.title == "Send cards" })
        todos[cards].dueTime = TimeOfDay("10:00")
        var whole = todos
        whole[cards].dueTime = nil
        func due(_ todos: [Todo], _ index: Int) throws -> String? {
            let written = try JSONSerialization.jsonObject(with: TaskwarriorFormat.encode(todos, zone: berlin)) as? [[String: Any]] ?? []
            return written.first { $0["uuid"] as? String == todos[index].id.uuidString.lowercased() }?["due"] as? String
        }
        #expect(try due(todos, bank) == "20261224T140030Z")
        #expect(try due(todos, cards) == "20261224T090000Z")
        #expect(try due(whole, cards) == "20261223T230000Z")
    }
}
