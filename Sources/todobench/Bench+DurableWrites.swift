import Foundation
import Synchronization
import TestHarness

/// Scenario 2 beside Redis: durable writes from 1, 8, 32 and 128 bare connections, one
/// request in flight each, through one client for both servers (`RoundTrip` on blocking
/// `RawConnection`s, a thread per connection), todod's database and Redis's append-only file
/// (`appendfsync always`) in the same directory, their runs taken in turn.
///
/// The clients do the same work for both, with one difference that is todod's by design:
/// every change todod commits is broadcast to every connection, so each client also reads
/// (and skips) the other clients' changes; Redis sends nothing but the answer.
extension Bench {
    func durableWritesBesideRedis(_ daemon: BenchDaemon, in directory: String) async throws {
        let redis = try await RedisServer.start(in: directory, durable: true)
        try await redis.stopAfter { redis in
            let set = RoundTrip.redis("SET", "k", "Bench write")
            for count in [1, 8, 32, 128] {
                progress("2. durable writes: \(count) bare connection\(count == 1 ? "" : "s") to todod and to Redis, in turn")
                let todoConnections = try (0..<count).map { _ in
                    let connection = try RawConnection(path: daemon.socketPath)
                    _ = try connection.nextLine()  // the hello
                    return connection
                }
                let redisConnections = try (0..<count).map { _ in try RawConnection(path: redis.socketPath) }
                let adds = (0..<count).map { RoundTrip.todod("requestNewTodo", data: #"{"title":"Bench write"}"#, id: "w\($0)") }
                let sets = Array(repeating: set, count: count)
                let (ours, theirs) = try await inTurn(
                    { duration in try await blocking { try Self.everyConnection(adds, on: todoConnections, duration: duration) } },
                    { duration in try await blocking { try Self.everyConnection(sets, on: redisConnections, duration: duration) } })
                let ratio = ours.perSecond / theirs.perSecond
                table.add(
                    "2", "durable writes, \(count) bare connection\(count == 1 ? "" : "s") × 1 in flight", todod: ours.rate,
                    comparison: "Redis \(redis.version) SET, appendfsync always: \(theirs.rate)",
                    ratio: ratio, goal: .ratio(atLeast: 0.9, ratio),
                    notes: "todod \(ours.latencies); Redis \(theirs.latencies); todod's clients also read every other client's change")
            }
        }
    }

    /// Each connection runs its trip in a loop on a thread of its own for `duration`
    /// seconds; one sample of them all (their latencies, over the longest one's time).
    static func everyConnection(_ trips: [RoundTrip], on connections: [RawConnection], duration: Double) throws -> Sample {
        let results = Mutex<[Result<Sample, any Error>]>([])
        let finished = DispatchGroup()
        for (trip, connection) in zip(trips, connections) {
            finished.enter()
            Thread {
                let result = Result { try trip.run(on: connection, duration: duration) }
                results.withLock { $0.append(result) }
                finished.leave()
            }.start()
        }
        finished.wait()
        var sample = Sample()
        for result in results.withLock({ $0 }) {
            let one = try result.get()
            sample.latencies += one.latencies
            sample.elapsed = max(sample.elapsed, one.elapsed)
        }
        return sample
    }
}
