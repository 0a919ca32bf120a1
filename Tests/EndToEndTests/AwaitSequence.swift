import Foundation

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
