import Testing
import TodoEvents

// Shared by the test targets that wait for events on the bus (TodoEventsTests, TodoServersTests).

/// The first `count` envelopes of `stream` that satisfy `predicate`. A feature that is
/// broken fails the test after `timeout` instead of hanging it: the sleep is a deadline,
/// never a way to wait for something to happen.
public func collect(
    _ count: Int, from stream: AsyncStream<Envelope>, within timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation,
    where predicate: @escaping @Sendable (Envelope) -> Bool = { _ in true }
) async -> [Envelope] {
    await withTaskGroup(of: [Envelope]?.self) { group in
        group.addTask {
            var found: [Envelope] = []
            for await envelope in stream where predicate(envelope) {
                found.append(envelope)
                if found.count == count { break }
            }
            return found
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let result = await group.next() ?? nil
        group.cancelAll()
        guard let result, result.count == count else {
            Issue.record("expected \(count) events; \(result == nil ? "none came within \(timeout)" : "the stream ended after \(result!.count)")",
                         sourceLocation: sourceLocation)
            return result ?? []
        }
        return result
    }
}

/// The first envelope of `stream` that satisfies `predicate`, or nil (and a recorded
/// issue) when none comes within `timeout`.
public func first(
    from stream: AsyncStream<Envelope>, within timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation,
    where predicate: @escaping @Sendable (Envelope) -> Bool = { _ in true }
) async -> Envelope? {
    await collect(1, from: stream, within: timeout, sourceLocation: sourceLocation, where: predicate).first
}
