import Foundation
import NIOCore
import Synchronization
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// `todobench`: starts its own release todod on a temporary socket and database, runs
/// the scenarios of docs/PERFORMANCE.md and prints a table. `make bench` runs it.
@main
struct Bench {
    static func main() async {
        // Usage errors and --help print and exit here (64 for a bad argument).
        let options = Options.parseOrExit()
        do {
            try await Bench(options: options).run()
        } catch {
            FileHandle.standardError.write(Data("todobench: \(error)\n".utf8))
            exit(1)
        }
    }

    let options: Options
    let table = Table()

    func run() async throws {
        let fileLimit = FileLimit.raise()
        let work = try makeTemporaryDirectory(under: options.parent)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: work) } }
        progress("binaries from \(options.binaries); data in \(work) (\(fileSystem(of: work))); file limit \(fileLimit), todod gets \(FileLimit.ordinarySoftLimit)")
        let started = now()

        if options.scenarios.contains(1) { try await roundTrips(in: work) }
        if options.scenarios.contains(2) { try await writeThroughput(in: work) }
        if options.scenarios.contains(3) { try await fanOut(in: work) }
        if options.scenarios.contains(4) { try await busAlone() }
        if options.scenarios.contains(5) || options.scenarios.contains(6) { try await wholeProcesses(in: work) }

        print(machineLine())
        print("")
        table.print()
        print("")
        print("Medians over \(options.runs) runs (p50, p99 and max are each the median of the runs' figures); todobench took \(formatDuration(now() - started)).")
    }

    // MARK: 1. Round trips

    func roundTrips(in work: String) async throws {
        Watchdog.arm(300, "scenario 1 (round trips)")
        let small = try await startDaemon(in: work + "/small")
        try await seed(small, count: 100)
        let client = try await connectClient(small)
        guard try await listCount(client) == 100 else { throw BenchError("the small list does not hold 100 todos") }
        progress("1. round trips: list of 100")
        let list100 = try await repeated(duration: options.duration) {
            try await closedLoop([client], duration: $0) { _ = try await $0.request(.requestTodoViewModels(TodoFilter())) }
        }
        table.add("1", "round trip: list of 100 todos", list100, goal: .atLeast(30_000, "reads ≥ 30,000/s"))
        progress("1. round trips: one todo")
        let one = try await repeated(duration: options.duration) {
            try await closedLoop([client], duration: $0) { _ = try await $0.request(.requestTodoDetail(.number(1))) }
        }
        table.add("1", "round trip: one todo (show)", one, note: "the floor of a read: one small answer")
        progress("1. round trips: durable toggle")
        let toggle = try await repeated(duration: options.duration) {
            try await closedLoop([client], duration: $0) { _ = try await $0.request(.requestToggleComplete(.number(1))) }
        }
        table.add("1", "round trip: durable toggle", toggle, note: "each one a commit + fdatasync")
        await client.close()
        try await small.stop()

        progress("1. seeding 10,000 todos")
        let big = try await startDaemon(in: work + "/big")
        let seedStart = now()
        try await seed(big, count: 10_000)
        let seedTime = now() - seedStart
        let bigClient = try await connectClient(big)
        guard try await listCount(bigClient) == 10_000 else { throw BenchError("the big list does not hold 10,000 todos") }
        progress("1. round trips: list of 10,000")
        let list10k = try await repeated(duration: options.duration * 1.5) {
            try await closedLoop([bigClient], duration: $0) { _ = try await $0.request(.requestTodoViewModels(TodoFilter())) }
        }
        table.add("1", "round trip: list of 10,000 todos", list10k, note: "seeding 10,000 took \(formatDuration(seedTime))")
        await bigClient.close()
        try await big.stop()
    }

    // MARK: 2. Durable write throughput

    func writeThroughput(in work: String) async throws {
        Watchdog.arm(300, "scenario 2 (write throughput)")
        let daemon = try await startDaemon(in: work + "/writes")
        var oneClientRate = 0.0
        for (count, inFlight) in [(1, 1), (8, 1), (32, 1), (32, 8)] {
            progress("2. writes: \(count) clients × \(inFlight) in flight")
            let clients = try await connectClients(count, daemon)
            let summary = try await repeated(duration: options.duration) {
                try await closedLoop(clients, inFlight: inFlight, duration: $0) {
                    _ = try await $0.request(.requestNewTodo(NewTodo(title: "Bench write")))
                }
            }
            await closeAll(clients)
            if count == 1 { oneClientRate = summary.perSecond }
            let name = inFlight == 1 ? "durable writes, \(count) client\(count == 1 ? "" : "s")" : "durable writes, \(count) clients × \(inFlight) in flight"
            table.add("2", name, summary, goal: count == 32 && inFlight == 1 ? .atLeast(20_000, "≥ 20,000/s") : nil,
                      note: count == 1 ? "" : String(format: "%.1f× the 1-client rate", summary.perSecond / max(oneClientRate, 1)))
        }
        // The same writes from bare connections that do not decode the broadcasts: what the
        // daemon itself sustains, when the clients' decoding does not share its two cores.
        for (count, inFlight) in [(32, 1), (32, 8)] {
            progress("2. writes: \(count) raw connections × \(inFlight) in flight")
            var clients: [RawClient] = []
            for index in 0..<count { clients.append(try await RawClient.connect(to: daemon.socketPath, name: "w\(index)")) }
            let summary = try await repeated(duration: options.duration) {
                try await closedLoop(clients, inFlight: inFlight, duration: $0) {
                    try await $0.request(event: "requestNewTodo", data: #"{"title":"Bench write"}"#)
                }
            }
            for client in clients { await client.close() }
            table.add("2", "durable writes, \(count) raw connections × \(inFlight) in flight", summary,
                      goal: inFlight == 1 ? .atLeast(20_000, "≥ 20,000/s") : nil,
                      note: String(format: "%.1f× the 1-client rate; no decoding of broadcasts", summary.perSecond / max(oneClientRate, 1)))
        }
        try await daemon.stop()

        progress("2. storage ceiling: fdatasync and sqlite3")
        let syncs = try await blocking { [duration = options.duration, work] in
            try StorageProbe.syncsPerSecond(in: work, duration: duration)
        }
        table.add("2", "storage: append 4 KiB + fdatasync", rate: syncs,
                  note: String(format: "1-client writes = %.2f× this", oneClientRate / syncs))
        let (single, batched) = options.quick ? (50, 5_000) : (200, 20_000)
        if let sqlite = try await blocking({ [work] in try StorageProbe.sqliteInserts(in: work, single: single, batched: batched) }) {
            table.add("2", "storage: sqlite3, 1 insert per transaction", rate: sqlite.single, note: "WAL, synchronous=FULL, the daemon's table")
            table.add("2", "storage: sqlite3, \(formatCount(batched)) inserts in 1 transaction", rate: sqlite.batched, note: "the ceiling of perfect batching")
        } else {
            table.note("2", "storage: sqlite3 not installed: no SQLite ceiling (apt-get install sqlite3)")
        }
    }

    // MARK: 3. Fan-out

    func fanOut(in work: String) async throws {
        Watchdog.arm(600, "scenario 3 (fan-out)")
        let daemon = try await startDaemon(in: work + "/fanout")
        for count in [10, 100, 1_000] {
            progress("3. fan-out to \(count) clients")
            let tracker = FanOutTracker()
            let listeners = try await connectListeners(count, to: daemon.socketPath, tracker: tracker, watchdog: "fan-out to \(count): todod stopped answering new connections (its file limit? see \(daemon.logPath))")
            let writer = try await TodoClient.connect(to: daemon.socketPath)
            let writes = options.quick ? 20 : (count == 1_000 ? 100 : 200)
            var everyone: [Sample] = []
            var spread: [Sample] = []
            var first: [Sample] = []
            for run in 0...options.runs {
                var (all, gap, firstOne) = (Sample(), Sample(), Sample())
                let start = now()
                for _ in 0..<writes {
                    tracker.arm(expected: count)
                    let t0 = now()
                    async let answer = writer.request(.requestNewTodo(NewTodo(title: "Bench fan-out")))
                    let delivery = await tracker.awaitDelivery()
                    _ = try await answer
                    all.latencies.append(delivery.last - t0)
                    firstOne.latencies.append(delivery.first - t0)
                    gap.latencies.append(delivery.last - delivery.first)
                }
                all.elapsed = now() - start
                if run > 0 { everyone.append(all); spread.append(gap); first.append(firstOne) }  // run 0 warms up
            }
            let summary = Summary(everyone)
            let spreadSummary = Summary(spread)
            table.add("3", "fan-out: write → all \(formatCount(count)) clients", summary,
                      goal: count == 1_000 ? .atMost(20_000_000, "p99 ≤ 20 ms") : nil,
                      note: "first client p50 \(formatDuration(Summary(first).p50)); first → last p50 \(formatDuration(spreadSummary.p50)), p99 \(formatDuration(spreadSummary.p99))")
            await writer.close()
            for listener in listeners { try? await listener.close() }
        }
        try await daemon.stop()
    }

    func connectListeners(_ count: Int, to path: String, tracker: FanOutTracker, watchdog: String) async throws -> [any Channel] {
        Watchdog.arm(60, watchdog)
        defer { Watchdog.arm(600, "scenario 3 (fan-out)") }
        return try await todobench.connectListeners(count, to: path, tracker: tracker)
    }

    // MARK: 4. The bus alone

    func busAlone() async throws {
        Watchdog.arm(300, "scenario 4 (the bus)")
        let todo = Todo(number: 1, title: "Bench event", createdAt: Date(millisecondsSince1970: 1_700_000_000_000))
        let event = Event.responseTodoViewModel(TodoChange(kind: .created, todo: TodoViewModel(todo), sequence: 1))
        let otherKinds = EventKind.allCases.filter { $0 != event.kind }
        let events = options.quick ? 50_000 : 200_000
        for count in [1, 100, 10_000] {
            progress("4. bus: \(count) subscribers, 1 interested")
            let summary = try await repeated(duration: 0) { _ in
                let bus = EventBus()
                let idle = (0..<(count - 1)).map { bus.subscribe(to: [otherKinds[$0 % otherKinds.count]]) }
                let interested = bus.subscribe(to: [event.kind])
                let consumer = Task {
                    var received = 0
                    for await _ in interested {
                        received += 1
                        if received == events { break }
                    }
                    return now()
                }
                var sample = Sample()
                sample.latencies.reserveCapacity(events)
                let start = now()
                for _ in 0..<events {
                    let t = now()
                    bus.publish(event)
                    sample.latencies.append(now() - t)
                }
                let end = await consumer.value
                sample.elapsed = end - start
                guard bus.statistics.delivered == UInt64(events) else { throw BenchError("the bus delivered to uninterested subscribers") }
                withExtendedLifetime(idle) {}
                return sample
            }
            table.add("4", "bus: \(formatCount(count)) subscriber\(count == 1 ? "" : "s"), 1 interested", summary,
                      note: "latency = one publish; rate = published and received")
        }
    }

    // MARK: 5 and 6. Whole processes, memory and idle CPU

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
            table.add("6", "todod RSS: 10,000 todos, 100 clients", value: "\(memory.resident >> 20) MiB",
                      goal: .custom(memory.resident <= 50 << 20, "≤ 50 MB"),
                      note: "peak \(memory.peak >> 20) MiB; \(loaded.resident >> 20) MiB with no client; ready in \(formatDuration(daemon.startupTime)) with 10,000 todos; \(daemon.threadCount) threads")
            let idleSeconds = options.quick ? 3.0 : 10.0
            progress("6. idle CPU for \(Int(idleSeconds)) s")
            try await Task.sleep(for: .seconds(1))
            let (cpu0, switches0) = (daemon.cpuTime(), daemon.contextSwitches())
            try await Task.sleep(for: .seconds(idleSeconds))
            let (cpu1, switches1) = (daemon.cpuTime(), daemon.contextSwitches())
            let (wakeUps, threadsChanged) = BenchDaemon.wakeUps(from: switches0, to: switches1)
            table.add("6", "todod CPU idle \(Int(idleSeconds)) s, 100 clients", value: "\(formatDuration(cpu1 - cpu0))",
                      goal: .custom(cpu1 - cpu0 <= 10_000_000, "no CPU"),
                      note: "\(wakeUps) context switches in \(switches1.count) threads\(threadsChanged > 0 ? ", \(threadsChanged) threads came or went" : ""); CPU is counted in 10 ms ticks")
            await closeAll(clients)
        }
        if options.scenarios.contains(5) {
            let todoctl = options.binaries + "/todoctl"
            let environment = ["TODOD_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
            let runs = options.quick ? 5 : 20
            progress("5. todoctl status, list, add")
            let status = try await timeCommand([todoctl, "status"], environment: environment, runs: runs)
            table.add("5", "process: todoctl status", status, note: "start-up + connect + one small answer")
            let list = try await timeCommand([todoctl, "list"], environment: environment, runs: runs)
            table.add("5", "process: todoctl list (10,000 todos)", list, goal: .atMost(60_000_000, "≤ 60 ms", p50: true))
            let add = try await timeCommand([todoctl, "add", "Bench", "process"], environment: environment, runs: runs)
            table.add("5", "process: todoctl add", add, goal: .atMost(10_000_000, "≤ 10 ms", p50: true))
            table.note("5", "process times by \(findExecutable("hyperfine") == nil ? "todobench (hyperfine not installed)" : "hyperfine -N"), \(runs) runs after 3 warm-ups")
        }
        try await daemon.stop()
    }

    /// Wall time of a whole command: hyperfine's runs when it is installed, else our own.
    func timeCommand(_ command: [String], environment: [String: String], runs: Int) async throws -> Summary {
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
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0,
                    let data = FileManager.default.contents(atPath: export),
                    let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let results = json["results"] as? [[String: Any]], let seconds = results.first?["times"] as? [Double]
                else { throw BenchError("hyperfine failed on \(command.joined(separator: " "))") }
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
        let sample = Sample(latencies: times, elapsed: times.reduce(0, +))
        return Summary([sample])
    }

    // MARK: Helpers

    func startDaemon(in directory: String) async throws -> BenchDaemon {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let daemon = try await BenchDaemon.start(binary: options.binaries + "/todod", in: directory, fileLimit: FileLimit.ordinarySoftLimit)
        Watchdog.track(daemon)
        return daemon
    }

    /// A short warm-up, then `options.runs` runs; the median of each figure.
    func repeated(duration: Double, _ body: (Double) async throws -> Sample) async throws -> Summary {
        _ = try await body(min(duration, 0.3))
        var samples: [Sample] = []
        for _ in 0..<options.runs { samples.append(try await body(duration)) }
        return Summary(samples)
    }

    func machineLine() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "todobench \(TodoVersion.current): \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)), Linux \(kernel), data on \(fileSystem(of: options.parent))"
    }

    func fileSystem(of path: String) -> String {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 2 else { continue }
            let point = fields[1]
            let prefix = point == "/" ? "/" : point + "/"
            guard path == point || path.hasPrefix(prefix) else { continue }
            if best == nil || point.count > best!.point.count { best = (point, fields[2]) }
        }
        return best.map { "\($0.type) at \($0.point)" } ?? "unknown file system"
    }
}
