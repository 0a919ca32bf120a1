import Foundation
import Testing

@Suite("events with filter options")
struct EventsFilterTests {
    @Test("events -t home --not-tag admin prints only the changes whose todo meets the filter, done and deleted ones too")
    func eventsFiltered() async throws {
        let daemon = try await FilterTests.week()
        let environment = ProcessInfo.processInfo.environment.merging(daemon.environment.merging(fixedClock) { $1 }) { $1 }
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events", "-t", "home", "--not-tag", "admin"], environment: environment)
        try await awaitClients(2, on: daemon)
        _ = try await daemon.todoctl("done", "1")  // home and admin: left out
        _ = try await daemon.todoctl("done", "2")
        _ = try await daemon.todoctl("rm", "3")  // no tag: left out
        _ = try await daemon.todoctl("add", "Water", "plants", "-t", "home")
        _ = try await events.awaitLine(containing: "Water plants")
        events.stopNow()
        #expect(events.output == "6 done #2 Buy milk\n8 added #5 Water plants")
        try await daemon.stop()
    }

    @Test("events +BLOCKED, +READY and depends:1 are refused with what to do: one changed todo cannot say whether it meets them, and every change was printed")
    func eventsRefuseConditionsOnOtherTodos() async throws {
        let daemon = try await DaemonProcess.start()
        for word in ["+BLOCKED", "+READY", "depends:1"] {
            let events = try await daemon.todoctl("events", "--once", word)
            #expect(events.status == 64, "\(word): \(events.stdout)\(events.stderr)")
            #expect(events.stderr.contains("cannot say whether it is blocked, blocking, ready or waits for another todo"), "\(word): \(events.stderr)")
            #expect(events.stderr.contains("todoctl watch +BLOCKED"), "\(events.stderr)")
        }
        try await daemon.stop()
    }
}
