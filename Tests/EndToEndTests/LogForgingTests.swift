import Foundation
import TestHarness
import Testing

/// What a client sends can end up in the daemon's log (an unknown event's name, a bad
/// reference): it must stay inside its own line.
@Suite("the daemon's log, from a client's side")
struct LogForgingTests {
    @Test("a newline or an escape sequence in a client's string cannot forge a log line")
    func clientTextIsEscaped() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        try raw.send(#"{"event":"requestFly\nFORGED todod: critical: all your todos were deleted\u001b[2J","id":"f1"}"# + "\n")
        _ = try await raw.awaitLine(containing: "responseError", #""id":"f1""#)
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
        let log = daemon.log
        #expect(log.contains("FORGED"), "the bad request was not logged at all:\n\(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("FORGED") }, "a forged line:\n\(log)")
        #expect(!log.contains("\u{1B}"))
        #expect(log.contains(#"\u{1B}[2J"#))
    }
}
