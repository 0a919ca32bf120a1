import Foundation
import TodoClient

#if canImport(Glibc)
import Glibc
#endif

/// Scenarios 5 and 6: whole processes against a daemon holding 10,000 todos, its memory
/// and its idle CPU.
extension Bench {
    func wholeProcesses(in work: String) async throws {
        Watchdog.arm(600, "scenarios 5 and 6 (whole processes)")
        let directory = work + "/big"
        if !FileManager.default.fileExists(atPath: directory + "/todos.sqlite") {
            progress("5. seeding 10,000 todos")
            let daemon = try await startDaemon(in: directory)
            try await seed(daemon, count: 10_000)
            try await daemon.stop()
        }
        let daemon = try await startDaemon(in: directory)
        if options.scenarios.contains(6) {
            let loaded = daemon.memory()
            progress("6. memory with 100 clients")
            let clients = try await connectClients(100, daemon)
            for client in clients.prefix(10) { _ = try await listCount(client) }
            try await Task.sleep(for: .milliseconds(500))
            let memory = daemon.memory()
            table.add("6", "todod RSS: 10,000 todos, 100 clients", todod: "\(memory.resident >> 20) MiB",
                      goal: Table.Goal("≤ 50 MB", met: memory.resident <= 50_000_000),
                      notes: "peak \(memory.peak >> 20) MiB; \(loaded.resident >> 20) MiB with no client; ready in \(formatDuration(daemon.startupTime)) with 10,000 todos; \(daemon.threadCount) threads")
            let idleSeconds = options.quick ? 3.0 : 10.0
            progress("6. idle CPU for \(Int(idleSeconds)) s")
            try await Task.sleep(for: .seconds(1))
            let (cpu0, switches0) = (daemon.cpuTime(), daemon.contextSwitches())
            try await Task.sleep(for: .seconds(idleSeconds))
            let (cpu1, switches1) = (daemon.cpuTime(), daemon.contextSwitches())
            let (wakeUps, threadsChanged) = BenchDaemon.wakeUps(from: switches0, to: switches1)
            table.add("6", "todod CPU idle \(Int(idleSeconds)) s, 100 clients", todod: formatDuration(cpu1 - cpu0),
                      goal: Table.Goal("0 (≤ 1 tick)", met: cpu1 - cpu0 <= 10_000_000),
                      notes: "\(wakeUps) context switches in \(switches1.count) threads\(threadsChanged > 0 ? ", \(threadsChanged) threads came or went" : ""); CPU is counted in 10 ms ticks")
            await closeAll(clients)
        }
        if options.scenarios.contains(5) {
            try await processes(against: daemon, in: work)
        }
        try await daemon.stop()
    }

    /// todoctl's commands as whole processes, each beside Taskwarrior's on the same 10,000 todos.
    private func processes(against daemon: BenchDaemon, in work: String) async throws {
        let todoctl = options.binaries + "/todoctl"
        let environment = ["TODOD_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
        let runs = options.quick ? 5 : 20
        progress("5. Taskwarrior: importing 10,000 todos")
        let task = try await blocking { try Taskwarrior.prepare(in: work + "/task", count: 10_000) }
        progress("5. todoctl --version, status, show, list, add; task list, add")
        let version = try await timeCommand([todoctl, "--version"], environment: environment, runs: runs)
        table.add("5", "process: todoctl --version", todod: formatDuration(version.p50),
                  notes: "start-up alone, no connection; p99 \(formatDuration(version.p99))")
        try await startUpBesideHello(version, todoctl: todoctl, in: work, runs: runs)
        let status = try await timeCommand([todoctl, "status"], environment: environment, runs: runs)
        table.add("5", "process: todoctl status", todod: formatDuration(status.p50),
                  notes: "start-up + connect + one small answer; p99 \(formatDuration(status.p99))")
        let show = try await timeCommand([todoctl, "show", "1"], environment: environment, runs: runs)
        table.add("5", "process: todoctl show (10,000 todos)", todod: formatDuration(show.p50),
                  goal: .time(atMost: 4_000_000, show.p50), notes: "p99 \(formatDuration(show.p99))")
        let commands: [(name: String, todoctl: [String], task: [String], goal: UInt64)] = [
            ("list", ["list"], ["list"], 30_000_000),
            ("add", ["add", "Bench", "process"], ["add", "Bench", "process"], 4_000_000),
        ]
        for command in commands {
            let ours = try await timeCommand([todoctl] + command.todoctl, environment: environment, runs: runs)
            // Fewer runs of task: a list of 10,000 takes it about a second.
            let theirs = try await timeCommand([task.executable] + command.task, environment: task.environment, runs: options.quick ? 3 : 10)
            let name = "process: todoctl \(command.name) (10,000 todos)"
            table.add("5", name, todod: formatDuration(ours.p50), goal: .time(atMost: command.goal, ours.p50),
                      notes: "p99 \(formatDuration(ours.p99))")
            let ratio = Double(ours.p50) / Double(theirs.p50)
            table.add("5", "process: todoctl \(command.name) ÷ task \(command.task[0])", todod: formatDuration(ours.p50),
                      comparison: "Taskwarrior \(task.version) task \(command.task.joined(separator: " ")): \(formatDuration(theirs.p50))", ratio: ratio,
                      goal: .ratio(atMost: 0.1, ratio), notes: "task p99 \(formatDuration(theirs.p99))")
        }
        table.note("5", "process times are medians by \(findExecutable("hyperfine") == nil ? "todobench (hyperfine not installed)" : "hyperfine -N"), \(runs) runs after 3 warm-ups; Taskwarrior \(task.version) with its own rc (no confirmation, colour, hooks or banners) on the same 10,000 todos")
    }

    /// Wall time of a whole command: hyperfine's runs when it is installed, else our own.
    func timeCommand(_ command: [String], environment: [String: String], runs: Int) async throws -> Summary {
        let times = try await commandTimes(command, environment: environment, runs: runs)
        return Summary([Sample(latencies: times, elapsed: times.reduce(0, +))])
    }

    /// Two commands timed in turns, `rounds` times `runs / rounds` runs of each, so that both
    /// see the same moments of a shared machine: their ratio is the figure, not either time.
    func timeSideBySide(_ ours: [String], environment: [String: String], _ theirs: [String], theirEnvironment: [String: String],
                        runs: Int, rounds: Int = 4) async throws -> (ours: Summary, theirs: Summary) {
        var (mine, peer): ([UInt64], [UInt64]) = ([], [])
        let each = max(1, runs / rounds)
        for _ in 0..<rounds {
            mine += try await commandTimes(ours, environment: environment, runs: each)
            peer += try await commandTimes(theirs, environment: theirEnvironment, runs: each)
        }
        return (Summary([Sample(latencies: mine, elapsed: mine.reduce(0, +))]), Summary([Sample(latencies: peer, elapsed: peer.reduce(0, +))]))
    }

    /// `todoctl --version` beside a static hello world linked the same way (`hello-static`,
    /// built beside todoctl by `make bench`), and the binaries' sizes as the package ships
    /// them (stripped, as `make install` strips them).
    private func startUpBesideHello(_ version: Summary, todoctl: String, in work: String, runs: Int) async throws {
        let hello = options.binaries + "/hello-static"
        guard access(hello, X_OK) == 0 else {
            table.note("5", "no hello-static beside todoctl, so no floor for start-up: `make bench` builds it")
            return
        }
        let floor = try await timeCommand([hello], environment: [:], runs: runs)
        table.add("5", "process: todoctl --version ÷ a static hello world", todod: formatDuration(version.p50),
                  comparison: "hello-static, linked as todoctl is: \(formatDuration(floor.p50))",
                  ratio: Double(version.p50) / Double(floor.p50), notes: "p99 \(formatDuration(floor.p99))")
        var sizes: [String] = []
        for name in ["todoctl", "todod", "hello-static"] {
            guard let size = try await blocking({ [binaries = options.binaries] in try Self.strippedSize(of: binaries + "/" + name, in: work) }) else {
                table.note("5", "binutils' strip is not installed: no packaged sizes")
                return
            }
            sizes.append("\(name) \(String(format: "%.1f", Double(size) / 1_000_000)) MB")
        }
        table.add("5", "packaged binaries, stripped", todod: sizes.joined(separator: ", "), notes: "todoctl and hello-static static; todod dynamic")
    }

    /// The size `binary` has once stripped (a copy in `work`), or nil without `strip`.
    private static func strippedSize(of binary: String, in work: String) throws -> Int? {
        guard let strip = findExecutable("strip") else { return nil }
        let copy = work + "/stripped-" + (binary as NSString).lastPathComponent
        defer { unlink(copy) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strip)
        process.arguments = ["-o", copy, binary]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("strip -o \(copy) \(binary) failed") }
        return (try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int) ?? 0
    }

    /// The wall times of `runs` runs of a command, after 3 warm-ups.
    private func commandTimes(_ command: [String], environment: [String: String], runs: Int) async throws -> [UInt64] {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let environment = merged
        let times: [UInt64] = try await blocking {
            if let hyperfine = findExecutable("hyperfine") {
                let export = NSTemporaryDirectory() + "/todobench-hyperfine-\(getpid()).json"
                defer { unlink(export) }
                let process = Process()
                process.executableURL = URL(fileURLWithPath: hyperfine)
                process.arguments = ["-N", "--warmup", "3", "--runs", "\(runs)", "--style", "none", "--export-json", export,
                                     command.joined(separator: " ")]
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                // Its warnings (outliers on a busy machine) would interleave with the
                // progress lines: kept, and shown only if it fails.
                let messages = Pipe()
                process.standardError = messages
                try process.run()
                let said = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                guard process.terminationStatus == 0,
                    let data = FileManager.default.contents(atPath: export),
                    let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let results = json["results"] as? [[String: Any]], let seconds = results.first?["times"] as? [Double]
                else { throw BenchError("hyperfine failed on \(command.joined(separator: " ")): \(said.trimmingCharacters(in: .whitespacesAndNewlines))") }
                return seconds.map { UInt64($0 * 1e9) }
            }
            var times: [UInt64] = []
            for index in 0..<(runs + 3) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: command[0])
                process.arguments = Array(command.dropFirst())
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                let start = now()
                try process.run()
                process.waitUntilExit()
                if index >= 3 { times.append(now() - start) }
                guard process.terminationStatus == 0 else { throw BenchError("\(command.joined(separator: " ")) failed") }
            }
            return times
        }
        return times
    }
}
