import Foundation
import Testing

/// `todoctl watch` shows the times of day of due, wait and scheduled where it shows their days,
/// as `todoctl show` does, in a real terminal (tmux) against a real daemon.
@Suite("todoctl watch: times of day")
struct WatchTimesTests {
    private func watch(_ daemon: DaemonProcess, _ arguments: String = "") async throws -> Tmux {
        let tmux = try await Tmux(environment: daemon.environment.merging(fixedClock.merging(["NO_COLOR": "1"]) { $1 }) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch \(arguments)")
        try await tmux.waitFor("connected")
        return tmux
    }

    @Test("the detail pane says due, wait and scheduled with their times of day, as show does")
    func detailPaneTimes() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await daemon.todoctl(
            ["add", "Call dentist", "due:2026-12-24T15:00", "wait:2026-11-30T09:00", "scheduled:2026-12-22T08:30"], environment: fixedClock)
        let shown = try await daemon.todoctl(["show", "1"], environment: fixedClock).stdout
        #expect(shown.contains("2026-12-24 15:00"))
        let tmux = try await watch(daemon, "+WAITING")
        try await tmux.waitFor("Call dentist")
        try await tmux.keys("Enter")
        // The day alone, as the pane had it, would read due all day.
        _ = try await tmux.waitUntil("the pane with the three times") {
            $0.contains("due: 2026-12-24 15:00") && $0.contains("waits until: 2026-11-30 09:00") && $0.contains("scheduled: 2026-12-22 08:30")
        }
        await tmux.kill()
        try await daemon.stop()
    }
}
