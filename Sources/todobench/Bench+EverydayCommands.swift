import Foundation
import TestHarness

/// Scenario 5 at the size people have: 300 open todos. Each whole `todoctl` command beside
/// its twin, timed in turns (`timeSideBySide`): `redis-cli` doing the same one round trip as
/// a whole process (a process start, a connect, one request and its answer), and
/// Taskwarrior's command on the same 300 todos. A daemon holds the list in memory, so a
/// command should cost what `redis-cli` costs; the ratios are the figures, since a busy
/// machine moves both times together.
extension Bench {
    func everydayCommands(in work: String) async throws {
        Watchdog.arm(600, "scenario 5 (commands at 300 todos)")
        let count = 300
        progress("5. seeding \(count) todos; Taskwarrior: importing \(count)")
        let daemon = try await startDaemon(in: work + "/everyday")
        try await seed(daemon, count: count)
        let task = try await blocking { try Taskwarrior.prepare(in: work + "/task-everyday", count: count) }
        let todoctl = options.binaries + "/todoctl"
        let environment = ["TODOD_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
        let runs = options.quick ? 8 : 40
        let middle = "\(count / 2)"

        if let redisCLI = findExecutable("redis-cli") {
            // Durable, as todod's writes are: SET answers once its append-only file is synced.
            let redis = try await RedisServer.start(in: work + "/redis-durable", durable: true)
            let value = String(repeating: "v", count: 300)
            _ = try RoundTrip.redis("SET", "k", value).answer(on: try RawConnection(path: redis.socketPath))
            let twins: [(name: String, todoctl: [String], redis: [String])] = [
                ("show \(middle)", ["show", middle], ["GET", "k"]),
                ("add", ["add", "Bench", "process"], ["SET", "k", "v"]),
            ]
            for twin in twins {
                progress("5. todoctl \(twin.name) beside redis-cli \(twin.redis.joined(separator: " "))")
                let (ours, theirs) = try await timeSideBySide(
                    [todoctl] + twin.todoctl, environment: environment, [redisCLI, "-s", redis.socketPath] + twin.redis,
                    theirEnvironment: [:], runs: runs)
                let ratio = Double(ours.p50) / Double(theirs.p50)
                table.add("5", "process: todoctl \(twin.name) ÷ redis-cli \(twin.redis[0]) (\(count) todos)", todod: formatDuration(ours.p50),
                          comparison: "redis-cli \(twin.redis.joined(separator: " ")), Redis \(redis.version)\(twin.redis[0] == "SET" ? " appendfsync always" : ""): \(formatDuration(theirs.p50))",
                          ratio: ratio, goal: .ratio(atMost: 1.5, ratio),
                          notes: "p99 \(formatDuration(ours.p99)) and \(formatDuration(theirs.p99)); timed in turns")
            }
            await redis.stop()
        } else {
            table.note("5", "redis-cli is not installed: no whole-command rows beside Redis (apt-get install redis-tools; make bench does)")
        }

        let twins: [(name: String, todoctl: [String], task: [String])] = [
            ("list", ["list"], ["list"]),
            ("next", ["next"], ["next"]),
            ("show \(middle)", ["show", middle], [middle, "info"]),
            ("add", ["add", "Bench", "process"], ["add", "Bench", "process"]),
        ]
        for twin in twins {
            progress("5. todoctl \(twin.name) beside task \(twin.task.joined(separator: " "))")
            let (ours, theirs) = try await timeSideBySide(
                [todoctl] + twin.todoctl, environment: environment, [task.executable] + twin.task, theirEnvironment: task.environment, runs: runs)
            let ratio = Double(ours.p50) / Double(theirs.p50)
            table.add("5", "process: todoctl \(twin.name) ÷ task \(twin.task.joined(separator: " ")) (\(count) todos)", todod: formatDuration(ours.p50),
                      comparison: "Taskwarrior \(task.version): \(formatDuration(theirs.p50))", ratio: ratio, goal: .ratio(atMost: 0.5, ratio),
                      notes: "p99 \(formatDuration(ours.p99)) and \(formatDuration(theirs.p99)); timed in turns")
        }
        try await daemon.stop()
    }
}
