import TestHarness
import Testing

@Suite("The daemon's hello, as a raw client reads it")
struct HelloTests {
    @Test("a daemon without a store says hello without sharedStore, so todoctl's list and next ask it no status (each cost a status round trip, dearer than the list)")
    func noStoreNoSharedStore() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        let hello = try await raw.awaitLine(containing: "responseHello")
        #expect(hello.contains("\"utcOffset\":") && !hello.contains("sharedStore"), "\(hello)")
        try await daemon.stop()
    }
}
