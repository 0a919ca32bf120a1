import Foundation

/// Waits until `count` clients (the asking one included) are connected to `daemon`:
/// a listener such as `todoctl events` then hears every change made after it.
/// No event says a client has subscribed, so the daemon's count is read until it holds,
/// for up to `timeout` seconds (a loaded machine can take seconds to start a client).
func awaitClients(_ count: Int, on daemon: DaemonProcess, timeout: TimeInterval = 60) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        if status["connectedClients"] as? Int == count { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw TestFailure("never saw \(count) clients connected within \(Int(timeout)) s")
}
