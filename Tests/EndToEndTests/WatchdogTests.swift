import Foundation
import Testing

/// `WATCHDOG=1` means the core answers: it is sent only after a probe went through the
/// core event loop and came back, so systemd restarts a daemon whose core is wedged.
@Suite("the systemd watchdog")
struct WatchdogTests {
    @Test("the watchdog is fed while the core answers, and no longer once the core is wedged")
    func watchdogFollowsTheCore() async throws {
        let daemon = try await DaemonProcess.start(
            environment: ["WATCHDOG_USEC": "400000", "TODOD_TEST_STALL_CORE_ON_SIGUSR2": "1"])
        func feeds() -> Int { daemon.notifications.count { $0.contains("WATCHDOG=1") } }
        // Fed every 0.2 s while healthy: a third feed arrives.
        for _ in 0..<3 {
            let before = feeds()
            _ = try await daemon.awaitNotification(containing: "WATCHDOG=1")
            while feeds() == before { try await Task.sleep(for: .milliseconds(20)) }
        }
        kill(daemon.pid, SIGUSR2)
        // The core no longer answers once the signal is handled: a new client gets no hello.
        var wedged = false
        for _ in 0..<10 where !wedged {
            let raw = try daemon.connect()
            wedged = (try? await raw.readLine(timeout: 1)) == nil
        }
        #expect(wedged, "the core still answered after SIGUSR2")
        // Two seconds are ten watchdog intervals: at most the probe already on its way got through.
        let stalled = feeds()
        try await Task.sleep(for: .seconds(2))
        #expect(feeds() <= stalled + 1, "the watchdog was fed \(feeds() - stalled) times after the core stopped")
        kill(daemon.pid, SIGKILL)
    }
}
