/// A server todobench starts beside todod to compare with or to build on (Redis, PostgreSQL):
/// it must not outlive the scenario that uses it, whether that scenario ends or fails.
protocol SideServer: Sendable {
    func stop() async
}

extension SideServer {
    /// Runs `body` with the server, then stops the server, also when `body` throws.
    func stopAfter<T>(_ body: (Self) async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await body(self)
        } catch {
            await stop()
            throw error
        }
        await stop()
        return result
    }
}
