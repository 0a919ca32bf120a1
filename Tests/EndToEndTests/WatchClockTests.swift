import Foundation
import Testing

/// `todoctl watch` on the test clock (`TODOD_TEST_NOW`): its "today" and its midnight
/// timer read the same clock as everything else.
@Suite("todoctl watch: the wall clock")
struct WatchClockTests {
    @Test("tomorrow becomes today when the test clock passes local midnight")
    func relabelsAtTestMidnight() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "bins out", "--due", "2026-11-24")
        let clock = daemon.directory + "/now"
        func set(_ instant: String) throws {
            // Written whole, then renamed over: the clock never reads half a line.
            try Data(instant.utf8).write(to: URL(fileURLWithPath: clock), options: .atomic)
        }
        try set("2026-11-23T23:59:59.500Z")
        let environment = daemon.environment.merging(["NO_COLOR": "1", "TZ": "UTC", "TODOD_TEST_NOW": "@" + clock]) { $1 }
        let tmux = try await Tmux(environment: environment)
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        try await tmux.waitFor("#1 [ ]   bins out tomorrow")
        try set("2026-11-24T00:00:00.200Z")
        try await tmux.waitFor("#1 [ ]   bins out today")
        await tmux.kill()
        try await daemon.stop()
    }
}
