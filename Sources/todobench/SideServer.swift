import TestHarness

/// A server todobench starts beside todod to compare with or to build on (Redis, PostgreSQL):
/// it must not outlive the scenario that uses it, whether that scenario ends or fails.
protocol SideServer: Sendable {
    func stop() async throws
}

extension PostgresServer: SideServer {}

extension SideServer {
    /// Runs `body` with the server, then stops the server, also when `body` throws. A server
    /// that does not stop as asked was stopped at once: said, not a failure of the scenario.
    func stopAfter<T>(_ body: (Self) async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await body(self)
        } catch {
            await stopSaying()
            throw error
        }
        await stopSaying()
        return result
    }

    private func stopSaying() async {
        do { try await stop() } catch { progress("\(error)") }
    }
}
