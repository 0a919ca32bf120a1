import Foundation
import TestHarness
import TodoClient
import TodoEvents
import TodoModel

/// Scenario 1: one client, one request in flight, todod beside Redis.
extension Bench {
    func roundTrips(in work: String) async throws {
        Watchdog.arm(300, "scenario 1 (round trips)")
        let small = try await startDaemon(in: work + "/small")
        try await seed(small, count: 100)
        try await RedisServer.start(in: work + "/redis").stopAfter { try await rawReads(todod: small, redis: $0) }
        try await clientRoundTrips(small)
        try await small.stop()

        progress("1. seeding 10,000 todos")
        let big = try await startDaemon(in: work + "/big")
        let seedStart = now()
        try await seed(big, count: 10_000)
        let seedTime = now() - seedStart
        let bigClient = try await connectClient(big)
        guard try await listCount(bigClient) == 10_000 else { throw BenchError("the big list does not hold 10,000 todos") }
        progress("1. round trips: list of 10,000 (TodoClient)")
        let list10k = try await repeated(duration: options.duration * 1.5) {
            try await closedLoop([bigClient], duration: $0) { _ = try await $0.request(.requestTodoViewModels(TodoFilter())) }
        }
        table.add("1", "TodoClient round trip: list of 10,000 todos", todod: formatDuration(list10k.p50),
                  notes: "\(list10k.latencies); seeding 10,000 took \(formatDuration(seedTime))")
        await bigClient.close()
        try await big.stop()
    }

    /// The same bare client (`RoundTrip` on a `RawConnection`) against todod and Redis,
    /// their runs taken in turn so that both see the same machine.
    private func rawReads(todod: BenchDaemon, redis: RedisServer) async throws {
        let todoConnection = try RawConnection(path: todod.socketPath)
        let hello = try todoConnection.bytes(in: todoConnection.nextLine())
        try expect(hello, event: "responseHello", from: "todod's first line")
        let redisConnection = try RawConnection(path: redis.socketPath)
        let value = String(repeating: "v", count: 300)
        _ = try RoundTrip.redis("SET", "k", value).answer(on: redisConnection)

        let get = RoundTrip.redis("GET", "k")
        guard try get.answer(on: redisConnection) == Array(value.utf8) else { throw BenchError("Redis did not answer GET k with the 300 bytes set") }
        let detail = RoundTrip.todod("requestTodoDetail", data: "1")
        let todo = try expect(detail.answer(on: todoConnection), event: "responseTodoDetail", from: "todod's answer to requestTodoDetail")
        guard (todo as? [String: Any])?["number"] as? Int == 1 else { throw BenchError("todod did not answer requestTodoDetail 1 with todo #1") }
        let list = RoundTrip.todod("requestTodoViewModels", data: "{}")
        let listed = try expect(list.answer(on: todoConnection), event: "responseTodoViewModels", from: "todod's answer to a list request")
        guard ((listed as? [String: Any])?["todos"] as? [Any])?.count == 100 else { throw BenchError("todod's list does not hold the 100 todos seeded") }

        progress("1. round trips: one todo (todod) and GET (Redis \(redis.version)), in turn")
        let (one, redisGet) = try await inTurn(
            { duration in try await blocking { try detail.run(on: todoConnection, duration: duration) } },
            { duration in try await blocking { try get.run(on: redisConnection, duration: duration) } })
        let ratio = one.perSecond / redisGet.perSecond
        table.add("1", "read round trip: one todo (bare client)", todod: one.rate,
                  comparison: "Redis \(redis.version) GET 300 B: \(redisGet.rate)", ratio: ratio, goal: .ratio(atLeast: 0.9, ratio),
                  notes: "todod \(one.latencies); Redis \(redisGet.latencies)")
        progress("1. round trips: list of 100 (todod)")
        let hundred = try await repeated(duration: options.duration) { duration in
            try await blocking { try list.run(on: todoConnection, duration: duration) }
        }
        table.add("1", "read round trip: list of 100 todos (bare client)", todod: hundred.rate,
                  goal: .rate(atLeast: 10_000, hundred.perSecond), notes: hundred.latencies)
    }

    /// What a `TodoClient` (todoctl's library) gets: the bare rows above plus the client's own decoding.
    private func clientRoundTrips(_ daemon: BenchDaemon) async throws {
        let client = try await connectClient(daemon)
        guard try await listCount(client) == 100 else { throw BenchError("the small list does not hold 100 todos") }
        let requests: [(String, Event, String)] = [
            ("list of 100 todos", .requestTodoViewModels(TodoFilter()), ""),
            ("one todo (show)", .requestTodoDetail(.number(1)), ""),
            ("durable toggle", .requestToggleComplete(.number(1)), "each one a commit + fdatasync; "),
        ]
        for (name, request, note) in requests {
            progress("1. round trips: \(name) (TodoClient)")
            let summary = try await repeated(duration: options.duration) {
                try await closedLoop([client], duration: $0) { _ = try await $0.request(request) }
            }
            table.add("1", "TodoClient round trip: \(name)", todod: summary.rate, notes: note + summary.latencies)
        }
        await client.close()
    }

    /// Checks that `line` is a frame of `event` and returns its `data`.
    @discardableResult
    private func expect(_ line: [UInt8], event: String, from what: String) throws -> Any? {
        guard let frame = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], frame["event"] as? String == event else {
            throw BenchError("\(what) is not a \(event): \(String(decoding: line.prefix(300), as: UTF8.self))")
        }
        return frame["data"]
    }

    /// A warm-up of each, then `options.runs` runs of `first` and `second` in turn: the median of each.
    func inTurn(_ first: (Double) async throws -> Sample, _ second: (Double) async throws -> Sample) async throws -> (Summary, Summary) {
        _ = try await first(0.3)
        _ = try await second(0.3)
        var (a, b): ([Sample], [Sample]) = ([], [])
        for _ in 0..<options.runs {
            a.append(try await first(options.duration))
            b.append(try await second(options.duration))
        }
        return (Summary(a), Summary(b))
    }
}
