/// Waits until `count` clients (the asking one included) are connected to `daemon`:
/// a listener such as `todoctl events` then hears every change made after it.
func awaitClients(_ count: Int, on daemon: DaemonProcess) async throws {
    for _ in 0..<200 {
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        if status["connectedClients"] as? Int == count { return }
    }
    throw TestFailure("never saw \(count) clients connected")
}
