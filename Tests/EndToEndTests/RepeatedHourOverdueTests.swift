import Foundation
import Testing

/// A todo due in the hour Berlin's clocks show twice (2026-10-25: 03:00 summer time goes back
/// to 02:00), read by a real todoctl and daemon in that zone on a clock the test moves.
@Suite("Overdue in the repeated hour")
struct RepeatedHourOverdueTests {
    @Test("a todo due at 02:30 on the night the clocks go back is overdue from the first 02:30 and stays so through the second 02:00 to 02:30")
    func overdueStaysOverdue() async throws {
        let directory = try makeTemporaryDirectory()
        let now = MovableClock(in: directory)
        // 02:00 summer time (+02:00).
        try now.set("2026-10-25T00:00:00Z")
        let clock = ["TODOD_TEST_NOW": now.variable, "TZ": "Europe/Berlin", "NO_COLOR": "1"]
        let daemon = try await DaemonProcess.start(in: directory, environment: clock)
        func todoctl(_ arguments: String...) async throws -> CommandResult {
            let result = try await run("todoctl", arguments, environment: daemon.environment.merging(clock) { $1 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        _ = try await todoctl("add", "Feed the cat", "due:2026-10-25T02:30")
        let before = try await todoctl("list", "--overdue").stdout
        #expect(!before.contains("Feed the cat"), "\(before)")
        // The first 02:30 (summer time, 00:30Z): due now, overdue from it.
        try now.set("2026-10-25T00:31:00Z")
        let first = try await todoctl("list", "--overdue").stdout
        #expect(first.contains("Feed the cat"), "\(first)")
        // The second 02:10 (winter time, +01:00: 01:10Z), forty minutes after the first 02:30:
        // still overdue, in the list's words and its --overdue filter alike.
        try now.set("2026-10-25T01:10:00Z")
        let second = try await todoctl("list", "--overdue").stdout
        #expect(second.contains("Feed the cat"), "\(second)")
        let listed = try await todoctl("list").stdout
        #expect(listed.contains("overdue") && !listed.contains("in 20 min"), "\(listed)")
        try await daemon.stop()
    }
}
