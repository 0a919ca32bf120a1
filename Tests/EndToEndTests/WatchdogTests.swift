import Foundation
import TestHarness
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
        // The core says so from inside as it wedges (CoreStallHook): waiting for a hello that does
        // not come would also take a loaded machine's slow core for a wedged one, and count the
        // feeds it still sent as fed by a wedged core.
        try await daemon.awaitLog(containing: "the core is wedged for the watchdog's test")
        let stalled = feeds()
        // A new client gets no hello: the core answers nothing any more.
        let raw = try daemon.connect()
        let hello = try? await raw.readLine(timeout: 1)
        #expect(hello == nil, "the core still answered after it wedged")
        // Two seconds are ten watchdog intervals: at most the probe already on its way got through.
        try await Task.sleep(for: .seconds(2))
        let fedSince = feeds() - stalled
        #expect(fedSince <= 1, "the watchdog was fed \(fedSince) times after the core stopped")
        kill(daemon.pid, SIGKILL)
    }
}
