import Foundation
import TestHarness
import Testing

/// Waits until `daemon` has taken every change up to `seq`: a replica catching up with a
/// shared store. Its status says so; no event does, so it is asked every 20 ms, for up to
/// `timeout` seconds.
func awaitSequence(_ seq: UInt64, on daemon: DaemonProcess, timeout: TimeInterval = 30) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    var last = 0
    while Date() < deadline {
        last = try jsonObject(try await daemon.todoctl("status", "--json").stdout)["sequence"] as? Int ?? 0
        if last >= seq { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw TestFailure("the daemon reached change \(last), not \(seq), within \(Int(timeout)) s")
}

/// Waits until each of `daemons` has taken the shared store's last change, once every one
/// shared what it kept (a daemon that had any has said "are shared" in its log before).
func awaitAlike(_ daemons: [DaemonProcess], on server: PostgresServer, timeout: TimeInterval = 30) async throws {
    let last = try #require(UInt64(try await server.psql("SELECT value FROM counter WHERE name = 'change'")))
    for daemon in daemons { try await awaitSequence(last, on: daemon, timeout: timeout) }
}
