import Foundation
import TestHarness
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

/// Scenario 7: two daemons on one PostgreSQL (`todod --store`, issue 15), beside a daemon of
/// SQLite alone in the same run.
extension Bench {
    func sharedStore(in work: String) async throws {
        Watchdog.arm(180, "scenario 7 (the shared store): starting PostgreSQL")
        progress("7. PostgreSQL: initdb and start, in a directory of its own under \(options.parent)")
        // PostgreSQL's defaults (durable): a write todod acknowledges is on PostgreSQL's disk, as
        // SQLite's writes are on the daemon's, so the two compare.
        let postgres = try await PostgresServer.start(under: options.parent, durable: true, keep: options.keep)
        // On ^C or the watchdog, SIGQUIT: an immediate shutdown, which still stops its backends.
        let postmaster = postgres.postmasterPID
        if let postmaster { Watchdog.track(pid: postmaster, signal: SIGQUIT) }
        defer { if let postmaster { Watchdog.untrack(pid: postmaster) } }
        try await postgres.stopAfter { server in
            // Started again by `restarting`, its postmaster has another pid, untracked once the scenario is over.
            defer { if let pid = server.postmasterPID, pid != postmaster { Watchdog.untrack(pid: pid) } }
            try await sharedStore(on: server, in: work)
        }
    }

    private func sharedStore(on postgres: PostgresServer, in work: String) async throws {
        Watchdog.arm(900, "scenario 7 (the shared store)")
        let a = try await startDaemon(in: work + "/shared-a", store: postgres.uri)
        let b = try await startDaemon(in: work + "/shared-b", store: postgres.uri)
        let alone = try await startDaemon(in: work + "/sqlite-alone")
        try await propagation(from: a, to: b)
        let online = try await sharedWrites(a, b, alone: alone)
        try await sameRowsByPgbench(on: postgres, asTodod: online)
        try await offline(a, alone: alone, postgres: postgres, oneOnline: online.one)
        for daemon in [a, b, alone] { try await daemon.stop() }
        table.note("7", "PostgreSQL \(postgres.version) (Debian's), started by todobench: initdb in a private directory, default settings (fsync and synchronous_commit on: a commit returns once PostgreSQL has flushed its WAL, so every write through daemon A or B was on disk when acknowledged), on a Unix socket of its own, no TCP; daemons A and B share it (todod --store), each with its own SQLite replica; \"SQLite alone\" is a third todod without a store, in the same run; B stays connected while A is written to, and catches up on each of A's commits")
    }

    /// A change made through daemon A, from sending it to its broadcast decoded by a TodoClient
    /// of daemon B (what a `todoctl watch` on another machine shows): PostgreSQL's commit, its
    /// NOTIFY, B's read of the journal and B's replica write. One write at a time.
    private func propagation(from a: BenchDaemon, to b: BenchDaemon) async throws {
        let writer = try await connectClient(a)
        let watcher = try await TodoClient.connect(to: b.socketPath)
        var arrivals = changeArrivals(at: watcher, of: b).makeAsyncIterator()
        let writes = options.quick ? 100 : 200
        progress("7. propagation: \(writes) writes a run through daemon A, each awaited on daemon B")
        var (seen, acknowledged) = (Sample(), Sample())
        var index = 0
        for run in 0...options.runs {
            var (runSeen, runAcknowledged) = (Sample(), Sample())
            for _ in 0..<writes {
                index += 1
                let title = "Bench propagation \(index)"
                let sent = now()
                _ = try await writer.request(.requestNewTodo(NewTodo(title: title)))
                runAcknowledged.latencies.append(now() - sent)
                var arrival = try await arrivals.next()
                while let other = arrival, other.title != title { arrival = try await arrivals.next() }
                guard let arrival else { throw BenchError("daemon B closed the connection while \"\(title)\" was awaited; its log: \(b.logPath)") }
                runSeen.latencies.append(arrival.at - sent)
            }
            if run > 0 {  // run 0 warms up
                seen.latencies += runSeen.latencies
                acknowledged.latencies += runAcknowledged.latencies
            }
        }
        await writer.close()
        await watcher.close()
        // All the writes together, not the median of the runs' figures: the p99 of 1,000 writes
        // leaves out only their 10 worst, where each run's p99 of 200 would leave out its 2 worst.
        let p99 = seen.percentile(0.99)
        table.add("7", "shared store: a change through daemon A → TodoClient on daemon B, p99", todod: formatDuration(p99),
                  goal: .time(atMost: 100_000_000, p99),
                  notes: "\(formatCount(seen.operations)) writes one at a time, all runs together: p50 \(formatDuration(seen.percentile(0.5))), max \(formatDuration(seen.latencies.max() ?? 0)); acknowledged on A: p50 \(formatDuration(acknowledged.percentile(0.5))), p99 \(formatDuration(acknowledged.percentile(0.99)))")
    }

    /// The title of each change `client` (of `daemon`) hears and when it was decoded, taken by a
    /// task that always waits for the next one: the time is the arrival's, even when the writer
    /// reads it only after its own answer came.
    private func changeArrivals(at client: TodoClient, of daemon: BenchDaemon) -> AsyncThrowingStream<(title: String, at: UInt64), any Error> {
        let (arrivals, arrived) = AsyncThrowingStream.makeStream(of: (title: String, at: UInt64).self)
        Task.detached {
            for await broadcast in client.broadcasts {
                switch broadcast {
                case .frame(let frame):
                    if case .responseTodoViewModel(let change) = frame.event { arrived.yield((change.todo.title, now())) }
                case .missed:
                    return arrived.finish(throwing: BenchError("daemon B's client missed broadcasts; its log: \(daemon.logPath)"))
                }
            }
            arrived.finish()
        }
        return arrivals
    }

    /// Durable writes through PostgreSQL and through SQLite alone, their runs in turn; then
    /// 8 clients over both daemons of the shared store. Returns 1 and 8 clients' through PostgreSQL.
    private func sharedWrites(_ a: BenchDaemon, _ b: BenchDaemon, alone: BenchDaemon) async throws -> (one: Summary, eight: Summary) {
        let add: @Sendable (TodoClient) async throws -> Void = { _ = try await $0.request(.requestNewTodo(NewTodo(title: "Bench write"))) }
        var eightOnOne: Summary?, oneOnOne: Summary?
        for count in [1, 8] {
            let clients = count == 1 ? "1 TodoClient" : "\(count) TodoClients"
            progress("7. writes: \(clients) on daemon A (PostgreSQL) and on the daemon of SQLite alone, in turn")
            let shared = try await connectClients(count, a)
            let local = try await connectClients(count, alone)
            let (postgres, sqlite) = try await inTurn(
                { try await closedLoop(shared, duration: $0, add) },
                { try await closedLoop(local, duration: $0, add) })
            await closeAll(shared + local)
            table.add("7", "durable writes, \(clients) on one daemon: PostgreSQL ÷ SQLite", todod: postgres.rate,
                      comparison: "SQLite alone: \(sqlite.rate)", ratio: postgres.perSecond / sqlite.perSecond,
                      notes: "PostgreSQL \(postgres.latencies); SQLite \(sqlite.latencies)")
            if count == 8 { eightOnOne = postgres } else { oneOnOne = postgres }
        }
        progress("7. writes: 8 TodoClients over daemons A and B (4 + 4)")
        let spread = try await connectClients(4, a) + connectClients(4, b)
        let both = try await repeated(duration: options.duration) { try await closedLoop(spread, duration: $0, add) }
        await closeAll(spread)
        if let eightOnOne {
            table.add("7", "durable writes, 8 TodoClients over two daemons (4 + 4), PostgreSQL", todod: both.rate,
                      comparison: "8 on one daemon: \(eightOnOne.rate)", ratio: both.perSecond / eightOnOne.perSecond,
                      notes: "\(both.latencies); the daemons take PostgreSQL's counter lock in turn, and each catches up on the other's commits")
        }
        guard let oneOnOne, let eightOnOne else { throw BenchError("scenario 7 measured no write through PostgreSQL") }
        return (oneOnOne, eightOnOne)
    }

    /// What PostgreSQL itself commits of the rows a todod write commits there, as `pgbench` runs
    /// it (1 and 8 clients, one transaction in flight each, as the TodoClients had), against
    /// daemon A's writes (`asTodod`). The script is a todod add's transaction statement for
    /// statement (`PostgresSchema`): the counters locked, the journal entry and the todo in one
    /// statement, the counters set with the NOTIFY, the commit; with a journal entry and a todo
    /// that daemon A wrote (their JSON as it stored them), in a database of its own with the same
    /// tables, so that the daemons' store is not touched.
    private func sameRowsByPgbench(on postgres: PostgresServer, asTodod online: (one: Summary, eight: Summary)) async throws {
        progress("7. pgbench: the rows of a todod write, 1 and 8 clients, in a database of its own")
        let rows = "pgbench_rows"
        try await postgres.copyTables(to: rows)
        _ = try await postgres.psql("INSERT INTO counter (name, value) VALUES ('number', 0), ('change', 0)", database: rows)
        func literal(_ sql: String) async throws -> String {
            let json = try await postgres.psql(sql)
            guard !json.isEmpty else { throw BenchError("daemon A wrote nothing to PostgreSQL to copy: \(sql) gave no row") }
            return "'" + json.replacingOccurrences(of: "'", with: "''") + "'::jsonb"
        }
        let entry = try await literal("SELECT entry::text FROM journal ORDER BY seq DESC LIMIT 1")
        let todo = try await literal("SELECT todo::text FROM todo ORDER BY number DESC LIMIT 1")
        let script = """
            BEGIN;
            SELECT c.name, c.value FROM counter c ORDER BY c.name FOR UPDATE OF c;
            WITH k AS (SELECT max(value) FILTER (WHERE name = 'change') + 1 AS seq, max(value) FILTER (WHERE name = 'number') + 1 AS number FROM counter),
                u AS (SELECT gen_random_uuid() AS id),
                appended AS (INSERT INTO journal (seq, id, number, at, entry) SELECT k.seq, u.id, k.number, now(), \(entry) FROM k, u)
            INSERT INTO todo (id, number, revision, todo) SELECT u.id, k.number, 1, \(todo) FROM k, u
                ON CONFLICT (id) DO UPDATE SET number = excluded.number, revision = excluded.revision, todo = excluded.todo;
            WITH counted AS (UPDATE counter SET value = value + 1 WHERE name IN ('number', 'change')) SELECT pg_notify('todod_changes', 'pgbench');
            COMMIT;

            """
        for (count, todod) in [(1, online.one), (8, online.eight)] {
            var runs: [(perSecond: Double, latency: Double, seconds: Int)] = []
            for _ in 0..<options.runs {
                runs.append(try await postgres.pgbench(script, clients: count, seconds: options.duration, database: rows))
            }
            let perSecond = median(runs.map(\.perSecond)), latency = median(runs.map(\.latency))
            let clients = count == 1 ? "1 TodoClient" : "\(count) TodoClients"
            table.add("7", "durable writes, \(clients) on daemon A: PostgreSQL through todod ÷ pgbench, the same rows", todod: todod.rate,
                      comparison: "pgbench, \(count) client\(count == 1 ? "" : "s"): \(formatCount(Int(perSecond.rounded())))/s", ratio: todod.perSecond / perSecond,
                      goal: .ratio(atLeast: 0.5, todod.perSecond / perSecond),
                      notes: "todod \(todod.latencies); pgbench latency average \(formatDuration(UInt64(latency * 1e9))), medians of \(runs.count) runs of \(runs.first?.seconds ?? 0) s; the same five statements a transaction")
        }
    }

    /// `body` run with PostgreSQL stopped, started again after it; the watchdog follows its new postmaster.
    private func restarting<T>(_ postgres: PostgresServer, _ body: () async throws -> T) async throws -> T {
        if let pid = postgres.postmasterPID { Watchdog.untrack(pid: pid) }
        try await postgres.stopServer()
        let result = try await body()
        try await postgres.startServer()
        if let pid = postgres.postmasterPID { Watchdog.track(pid: pid, signal: SIGQUIT) }
        return result
    }

    /// With PostgreSQL stopped (issue 28): the writes daemon A keeps on its machine, against
    /// SQLite alone in turn (they should cost what SQLite's do); then 1,000 kept writes shared
    /// once PostgreSQL is back, timed by the write that finds it back (it shares them first, in
    /// one shared transaction, made again on the store's todos), against the same 1,000 made
    /// online one at a time (`oneOnline`).
    private func offline(_ a: BenchDaemon, alone: BenchDaemon, postgres: PostgresServer, oneOnline: Summary) async throws {
        let add: @Sendable (TodoClient) async throws -> Void = { _ = try await $0.request(.requestNewTodo(NewTodo(title: "Bench kept"))) }
        let shared = 1_000
        progress("7. offline: PostgreSQL stopped; \(shared) writes kept on daemon A, then PostgreSQL started and a write timed")
        let writer = try await connectClient(a)
        try await restarting(postgres) { for _ in 0..<shared { try await add(writer) } }
        let started = now()
        try await add(writer)
        let sharing = now() - started
        let online = UInt64(Double(shared) / oneOnline.perSecond * 1e9)
        table.add("7", "\(formatCount(shared)) writes kept while the store was away, shared when it is back", todod: formatDuration(sharing),
                  comparison: "made online, 1 TodoClient: \(formatDuration(online))", ratio: Double(sharing) / Double(online),
                  goal: .ratio(atMost: 1, Double(sharing) / Double(online)),
                  notes: "the first write after PostgreSQL started shares them first (one shared transaction: each made again on the store's todo, pushed, the replica rewound and rebuilt), then commits itself; online: \(formatCount(shared)) ÷ \(oneOnline.rate)")

        progress("7. offline: PostgreSQL stopped; writes of 1 TodoClient kept on daemon A and on the daemon of SQLite alone, in turn")
        let local = try await connectClient(alone)
        let (kept, sqlite) = try await restarting(postgres) {
            try await inTurn({ try await closedLoop([writer], duration: $0, add) }, { try await closedLoop([local], duration: $0, add) })
        }
        table.add("7", "writes while the store is away, 1 TodoClient: kept on daemon A ÷ SQLite alone", todod: kept.rate,
                  comparison: "SQLite alone: \(sqlite.rate)", ratio: kept.perSecond / sqlite.perSecond, goal: .ratio(atLeast: 0.8, kept.perSecond / sqlite.perSecond),
                  notes: "kept \(kept.latencies); SQLite \(sqlite.latencies); each kept write first tries PostgreSQL's socket once (refused at once) and is journalled as pending")
        // Shared before the daemons stop: a write that finds the store back shares them first.
        try await add(writer)
        await closeAll([writer, local])
    }
}
