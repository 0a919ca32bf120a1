import TodoPaths
import Foundation
import TestHarness
import NIOCore
import NIOPosix
import Synchronization
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// `todobench`: starts its own release todod on a temporary socket and database (and, for the
/// shared store, its own PostgreSQL), runs the scenarios of docs/PERFORMANCE.md and prints a
/// table. `make bench` runs it.
///
/// Why one type over several files (`Bench+*.swift`): each scenario is a few methods on the
/// run's shared state (the daemon, the peers, the table, the options) and has its file, named
/// after the scenario as docs/PERFORMANCE.md names it; this file starts the run and prints.
@main
struct Bench {
    static func main() async {
        // Usage errors and --help print and exit here (64 for a bad argument).
        let options = Options.parseOrExit()
        Watchdog.stopOnSignals()
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
        let work = try makeTemporaryDirectory(under: options.parent, prefix: "todobench")
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: work) } }
        progress("binaries from \(options.binaries); data in \(work) (\(fileSystem(of: work))); file limit \(fileLimit), todod gets \(FileLimit.ordinarySoftLimit)")
        let started = now()

        if options.scenarios.contains(1) { try await roundTrips(in: work) }
        if options.scenarios.contains(2) { try await writeThroughput(in: work) }
        if options.scenarios.contains(3) { try await fanOut(in: work) }
        if options.scenarios.contains(4) { try await busAlone() }
        if options.scenarios.contains(5) { try await everydayCommands(in: work) }
        if options.scenarios.contains(5) || options.scenarios.contains(6) { try await wholeProcesses(in: work) }
        if options.scenarios.contains(7) { try await sharedStore(in: work) }

        print(machineLine())
        print("")
        table.print()
        print("")
        print("Medians over \(options.runs) runs (p50, p99 and max are each the median of the runs' figures); todobench took \(formatDuration(now() - started)).")
        if options.check {
            print("")
            guard table.missed.isEmpty else {
                print("✗ \(table.missed.count) of \(table.goals) goals missed: \(table.missed.joined(separator: "; "))")
                exit(1)
            }
            print("✓ all \(table.goals) goals met")
        }
    }

    // MARK: 2. Durable write throughput

    func writeThroughput(in work: String) async throws {
        Watchdog.arm(300, "scenario 2 (write throughput)")
        // The disk first, in the same run and on the same file system as the daemon's database.
        progress("2. storage: fdatasync and sqlite3")
        let syncsBefore = try await syncsPerSecond(in: work)
        let (single, batched) = options.quick ? (50, 5_000) : (200, 20_000)
        let sqlite = try await blocking { [work] in try StorageProbe.sqliteInserts(in: work, single: single, batched: batched) }
        if sqlite == nil { table.note("2", "sqlite3 is not installed: no SQLite ceilings (apt-get install sqlite3; make bench does)") }

        let daemon = try await startDaemon(in: work + "/writes")
        for (count, inFlight) in [(1, 1), (8, 1), (32, 1), (32, 8)] {
            progress("2. writes: TodoClients: \(count) × \(inFlight) in flight")
            let clients = try await connectClients(count, daemon)
            let summary = try await repeated(duration: options.duration) {
                try await closedLoop(clients, inFlight: inFlight, duration: $0) {
                    _ = try await $0.request(.requestNewTodo(NewTodo(title: "Bench write")))
                }
            }
            await closeAll(clients)
            let name = "durable writes, \(count) TodoClient\(count == 1 ? "" : "s")\(inFlight == 1 ? "" : " × \(inFlight) in flight")"
            if count == 1, let sqlite {
                table.add("2", name, todod: summary.rate, comparison: "sqlite3, 1 insert per transaction: \(formatRate(sqlite.single))/s",
                          ratio: summary.perSecond / sqlite.single, notes: summary.latencies)
            } else {
                table.add("2", name, todod: summary.rate, notes: summary.latencies)
            }
        }
        // The same writes from bare connections that do not decode the broadcasts: what the
        // daemon itself sustains, when the clients' decoding does not share its two cores.
        var rawRates: [Int: Summary] = [:]
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
            rawRates[inFlight] = summary
        }
        try await durableWritesBesideRedis(daemon, in: work + "/writes")
        try await daemon.stop()
        // The disk again: on a shared machine its rate swings from one moment to the next,
        // and the writes are held to the better of the two.
        let syncsAfter = try await syncsPerSecond(in: work)
        let syncs = max(syncsBefore, syncsAfter)
        if let one = rawRates[1] {
            let name = "durable writes, 32 raw connections × 1 in flight"
            table.add("2", name, todod: one.rate, goal: .rate(atLeast: 20_000, one.perSecond),
                      notes: "\(one.latencies); no decoding of broadcasts")
            let ratio = one.perSecond / syncs
            table.add("2", name + " ÷ the disk's syncs", todod: one.rate, comparison: "append 100 B + fdatasync: \(formatRate(syncs))/s",
                      ratio: ratio, goal: .ratio(atLeast: 4, ratio),
                      notes: "above 1× only by group commit; the disk before the writes \(formatRate(syncsBefore))/s, after \(formatRate(syncsAfter))/s")
        }
        if let eight = rawRates[8] {
            let name = "durable writes, 32 raw connections × 8 in flight"
            if let sqlite {
                table.add("2", name, todod: eight.rate,
                          comparison: "sqlite3, \(formatCount(batched)) inserts in 1 transaction: \(formatRate(sqlite.batched))/s",
                          ratio: eight.perSecond / sqlite.batched, notes: "\(eight.latencies); the comparison is perfect batching")
            } else {
                table.add("2", name, todod: eight.rate, notes: eight.latencies)
            }
        }
    }

    /// The disk's own rate of small durable appends, beside the daemon's database.
    private func syncsPerSecond(in work: String) async throws -> Double {
        try await blocking { [duration = options.duration] in try StorageProbe.syncsPerSecond(in: work, duration: duration) }
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
            let firstSummary = Summary(first)
            table.add("3", "fan-out: write → all \(formatCount(count)) clients, p99", todod: formatDuration(summary.p99),
                      goal: count == 1_000 ? .time(atMost: 5_000_000, summary.p99) : nil,
                      notes: "from sending the write (its commit included) to the last client's receipt; p50 \(formatDuration(summary.p50)), max \(formatDuration(summary.max)); first client p50 \(formatDuration(firstSummary.p50)); first → last p50 \(formatDuration(spreadSummary.p50)), p99 \(formatDuration(spreadSummary.p99))")
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
        var publishes: [UInt64] = []
        for count in [1, 100, 10_000] {
            progress("4. bus: \(count) subscribers, 1 interested")
            let summary = try await repeated(duration: 0) { _ in
                // The bus is bound to a loop, as the daemon's to its core: the publishes run there.
                let core = MultiThreadedEventLoopGroup.singleton.next()
                let bus = EventBus(core: core)
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
                let start = now()
                sample.latencies = try await core.submit {
                    var latencies: [UInt64] = []
                    latencies.reserveCapacity(events)
                    for _ in 0..<events {
                        let t = now()
                        bus.publish(event)
                        latencies.append(now() - t)
                    }
                    return latencies
                }.get()
                let end = await consumer.value
                sample.elapsed = end - start
                let delivered = try await core.submit { bus.statistics.delivered }.get()
                guard delivered == UInt64(events) else { throw BenchError("the bus delivered to uninterested subscribers") }
                withExtendedLifetime(idle) {}
                return sample
            }
            table.add("4", "bus: \(formatCount(count)) subscriber\(count == 1 ? "" : "s"), 1 interested", todod: summary.rate,
                      notes: "published and received; one publish p50 \(formatDuration(summary.p50)), p99 \(formatDuration(summary.p99))")
            publishes.append(summary.p50)
        }
        // Flat: 9,999 uninterested subscribers cost (next to) nothing. The time of one publish
        // shows it; the rate of publish-and-receive depends on when the consumer gets a core.
        // The bound leaves room for the noise of a shared 2-core machine.
        let ratio = Double(publishes[publishes.count - 1]) / Double(max(publishes[0], 1))
        table.add("4", "bus: one publish, 10,000 subscribers ÷ 1, p50", todod: formatDuration(publishes[publishes.count - 1]),
                  comparison: "1 subscriber: \(formatDuration(publishes[0]))", ratio: ratio, goal: .ratio(atMost: 1.2, ratio),
                  notes: "flat in uninterested subscribers")
    }

    // MARK: Helpers

    func startDaemon(in directory: String, store: String? = nil) async throws -> BenchDaemon {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let daemon = try await BenchDaemon.start(
            binary: options.binaries + "/todod", in: directory, fileLimit: FileLimit.ordinarySoftLimit, store: store)
        Watchdog.track(pid: daemon.pid)
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
        // uname(2)'s release, as the kernel gives it in /proc: read as a file, not out of a C struct's bytes.
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
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
