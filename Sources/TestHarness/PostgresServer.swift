import Foundation

/// Debian's PostgreSQL 15, private to one test or one bench run: `initdb` into a directory of
/// its own, the server on a Unix socket there and no TCP (unless `options` say otherwise), one
/// database. Stopped and removed by `stop()`; stopped at once (SIGQUIT, PostgreSQL's immediate
/// shutdown, which still stops its backends and frees its shared memory) when dropped before.
///
/// Its programs are started by `runToEnd` (posix_spawn, reaped by pid), not Foundation's
/// `Process`: `pg_ctl start` leaves the server running, and `Process` learns that its child ended
/// from a socket the server would inherit and keep open. initdb refuses root: as root (the tests,
/// `make bench`) they run as the `postgres` user (`runuser`), in the server's directory, where
/// they can find themselves (the caller's directory, a clone in /root, may be closed to that user).
public final class PostgresServer: Sendable {
    public static let binaries = "/usr/lib/postgresql/15/bin"
    public let directory: String
    public let database = "todos"
    /// Its port: the TCP port when `options` make it listen, and the socket file's number.
    public let port: Int
    /// More `postgres` options, for every start (a TCP address, TLS settings).
    public let options: String
    /// `15.18`, from `postgres -V`.
    public let version: String
    /// Whether `fsync` and `synchronous_commit` are on, as a real deployment has them.
    public let durable: Bool
    /// Whether the directory (with the server's log) stays after `stop()`.
    private let keep: Bool

    public var dataDirectory: String { directory + "/data" }
    /// What `todod --store` takes: the user `initdb` made, the socket directory as libpq's `host`.
    public var uri: String { "postgresql://postgres@/\(database)?host=\(directory)" + (port == 5432 ? "" : "&port=\(port)") }

    /// Makes a database cluster in a new directory under `parent` and starts its server; says how
    /// to install PostgreSQL when it is missing. `durable`: PostgreSQL's default settings, so that
    /// a write acknowledged is on its disk (the bench compares it with SQLite's); otherwise
    /// `fsync=off`, which a test that never survives a power cut does not need. `keep`: the
    /// directory stays after `stop()`.
    public static func start(
        under parent: String = "/tmp", port: Int = 5432, options: String = "", durable: Bool = false, keep: Bool = false
    ) async throws -> PostgresServer {
        guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
            throw HarnessFailure("PostgreSQL 15 is not installed: apt-get install postgresql (make test and make bench do)")
        }
        let said = try await run([binaries + "/postgres", "-V"])
        let version = said.split(separator: " ").dropFirst(2).first.map(String.init) ?? said
        // From here on, deinit stops whatever started and removes the directory.
        let server = PostgresServer(
            directory: try makeTemporaryDirectory(under: parent, prefix: "todod-postgres"), port: port, options: options,
            version: version, durable: durable, keep: keep)
        try server.giveToServerUser()
        // --no-sync spares initdb's own flush of the new files; the server syncs as `durable` says.
        try await server.runAsServerUser(
            binaries + "/initdb", "-D", server.dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
        try await server.startServer()
        try await server.runAsServerUser(binaries + "/createdb", "-h", server.directory, server.database)
        return server
    }

    private init(directory: String, port: Int, options: String, version: String, durable: Bool, keep: Bool) {
        self.directory = directory
        self.port = port
        self.options = options
        self.version = version
        self.durable = durable
        self.keep = keep
    }

    /// Starts (again) the server on its data; returns once it accepts connections.
    public func startServer() async throws {
        try await runAsServerUser(
            Self.binaries + "/pg_ctl", "start", "-w", "-t", "60", "-D", dataDirectory, "-l", directory + "/server.log",
            "-o", "-k \(directory) -p \(port) -c listen_addresses=''\(durable ? "" : " -c fsync=off") \(options)")
    }

    /// Stops the server (`fast`: connections are cut, as when PostgreSQL goes away; the server
    /// checkpoints and exits).
    public func stopServer() async throws {
        try await runAsServerUser(Self.binaries + "/pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", dataDirectory)
    }

    /// Stops the server and removes its directory (unless kept). A server that does not stop is
    /// stopped at once, and the failure thrown after.
    public func stop() async throws {
        defer { removeDirectory() }
        guard postmasterPID != nil else { return }
        do {
            try await stopServer()
        } catch {
            stopAtOnce()
            throw HarnessFailure("PostgreSQL did not stop (\(error)); it was stopped at once")
        }
    }

    /// The server's process (the postmaster), from the file it keeps while it runs.
    public var postmasterPID: pid_t? {
        let file = (try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)) ?? ""
        return file.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// The server's processes: the postmaster and its children.
    public func processes() async throws -> [pid_t] {
        guard let postmaster = postmasterPID else { throw HarnessFailure("no pid in \(dataDirectory)/postmaster.pid") }
        let children = try await runToEnd("/usr/bin/pgrep", ["-P", "\(postmaster)"], environment: ["PATH": "/usr/bin:/bin"])
        return [postmaster] + children.lines.compactMap { pid_t($0) }
    }

    // MARK: SQL through psql

    /// One SQL statement's rows through psql, unaligned; in `database` when given, else this server's own.
    public func psql(_ sql: String, database name: String? = nil) async throws -> String {
        try await runAsServerUser(Self.binaries + "/psql", "-h", directory, "-d", name ?? database, "-XAtc", sql)
    }

    /// One value through psql over TCP at `host` and this server's port, with `password`, as a
    /// daemon given `postgresql://postgres@HOST:PORT/todos` connects (the server must listen there).
    public func psql(_ sql: String, host: String, password: String) async throws -> String {
        try await runAsServerUser(
            Self.binaries + "/psql", "-h", host, "-p", "\(port)", "-d", database, "-XAtc", sql, environment: ["PGPASSWORD": password])
    }

    /// psql running `sql` until it ends by itself or is stopped (a session that holds a lock, say).
    public func psqlInBackground(_ sql: String) throws -> SpawnedProcess {
        let command = asServerUser([Self.binaries + "/psql", "-h", directory, "-d", database, "-XAtc", sql])
        return try SpawnedProcess(command[0], Array(command.dropFirst()), environment: environment, directory: directory)
    }

    /// Waits until `sql` (one value) gives `expected`, asked again every 50 ms (also while the
    /// server refuses connections): PostgreSQL has no event for a lock taken, a query started
    /// or a recovery ended; fails after `timeout` seconds.
    public func awaitValue(_ sql: String, _ expected: String, timeout: TimeInterval = 30) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            do { last = try await psql(sql) } catch { last = "\(error)" }
            if last == expected { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessFailure("\(sql) gave \(last), not \(expected), for \(Int(timeout)) s")
    }

    /// The database as `pg_dump` writes it (a backup), in a file of the server's directory.
    public func dump() async throws -> String {
        let file = directory + "/backup-\(UUID().uuidString.prefix(8)).sql"
        try await runAsServerUser(Self.binaries + "/pg_dump", "-h", directory, "-f", file, database)
        return file
    }

    /// The database dropped (its sessions ended) and made again from a `dump()`: a restore from a backup.
    public func restore(_ dump: String) async throws {
        try await makeDatabaseAgain()
        try await runAsServerUser(Self.binaries + "/psql", "-h", directory, "-d", database, "-Xqf", dump)
    }

    /// A `dump()` loaded into the database as it is, in one transaction (as docs/BACKUP.md says to restore).
    public func load(_ dump: String) async throws {
        try await runAsServerUser(
            Self.binaries + "/psql", "-h", directory, "-d", database, "-Xq", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", dump)
    }

    /// The database dropped (its sessions ended) and made again, empty.
    public func makeDatabaseAgain() async throws {
        try await dropDatabase()
        try await createDatabase()
    }

    /// The database dropped, its sessions ended: the server runs on without it.
    public func dropDatabase() async throws {
        try await runAsServerUser(Self.binaries + "/dropdb", "-h", directory, "--force", database)
    }

    /// The database made (again), empty.
    public func createDatabase() async throws {
        try await runAsServerUser(Self.binaries + "/createdb", "-h", directory, database)
    }

    // MARK: pgbench

    /// A database of its own, `name`, with this one's tables (their definitions, no rows): for
    /// `pgbench` to write the same rows as todod without touching what the daemons hold.
    public func copyTables(to name: String) async throws {
        let file = directory + "/tables-\(UUID().uuidString.prefix(8)).sql"
        try await runAsServerUser(Self.binaries + "/pg_dump", "-h", directory, "--schema-only", "-f", file, database)
        try await runAsServerUser(Self.binaries + "/createdb", "-h", directory, name)
        try await runAsServerUser(Self.binaries + "/psql", "-h", directory, "-d", name, "-Xq", "-v", "ON_ERROR_STOP=1", "-f", file)
    }

    /// PostgreSQL's own `pgbench` running `script` (its SQL, written to a file here) on the
    /// database `name` with `clients` connections, each one transaction in flight, for `seconds`
    /// (whole, at least 3: in a shorter run its start-up weighs on the rate): transactions a second, not counting the connections' set-up, and
    /// their average latency in seconds, as pgbench reports them, and the seconds it ran.
    public func pgbench(_ script: String, clients: Int, seconds: Double, database name: String) async throws -> (perSecond: Double, latency: Double, seconds: Int) {
        let file = directory + "/script-\(UUID().uuidString.prefix(8)).sql"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let ran = max(3, Int(seconds.rounded(.up)))
        let said = try await runAsServerUser(
            Self.binaries + "/pgbench", "-h", directory, "-n", "-f", file, "-c", "\(clients)", "-j", "\(clients)", "-T", "\(ran)", name)
        func figure(after label: String) -> Double? {
            guard let line = said.split(separator: "\n").first(where: { $0.hasPrefix(label) }) else { return nil }
            return line.dropFirst(label.count).split(separator: " ").first.flatMap { Double($0) }
        }
        guard let perSecond = figure(after: "tps = "), let latency = figure(after: "latency average = ") else {
            throw HarnessFailure("pgbench said no tps and latency: \(said)")
        }
        // A client whose statement failed stops, and the rate would be of the others alone.
        guard figure(after: "number of failed transactions: ") == 0, !said.contains("aborted") else {
            throw HarnessFailure("pgbench's transactions failed: \(said)")
        }
        return (perSecond, latency / 1000, ran)
    }

    // MARK: Running PostgreSQL's programs

    /// SIGQUIT (an immediate shutdown), then up to 10 s for the server to remove its pid file as it exits.
    private func stopAtOnce() {
        guard let pid = postmasterPID else { return }
        kill(pid, SIGQUIT)
        for _ in 0..<1_000 where postmasterPID != nil { usleep(10_000) }
    }

    private func removeDirectory() {
        if !keep { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The directory belongs to the user the server runs as, who alone can enter it.
    private func giveToServerUser() throws {
        guard getuid() == 0 else { return }
        guard let user = getpwnam("postgres") else { throw HarnessFailure("there is no postgres user to run PostgreSQL as: apt-get install postgresql") }
        guard chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else { throw HarnessFailure("cannot give \(directory) to the postgres user") }
    }

    private var environment: [String: String] { ["PGHOST": directory, "PGPORT": "\(port)", "PATH": "/usr/bin:/bin"] }

    private func asServerUser(_ command: [String]) -> [String] {
        getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
    }

    /// One of PostgreSQL's programs to its end, as the `postgres` user when this process is root:
    /// its output, trimmed.
    @discardableResult
    private func runAsServerUser(_ arguments: String..., environment extra: [String: String] = [:]) async throws -> String {
        try await Self.run(asServerUser(arguments), environment: environment.merging(extra) { $1 }, in: directory)
    }

    /// Runs `command` to its end: its output, or a failure with everything it said.
    private static func run(_ command: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"], in directory: String? = nil) async throws -> String {
        let result = try await runToEnd(command[0], Array(command.dropFirst()), environment: environment, directory: directory, timeout: 120)
        guard result.status == 0 else {
            throw HarnessFailure("\(command.joined(separator: " ")) failed (\(result.status)): \(result.stdout)\(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        // A test or a run that failed before stop(): the server must not outlive it.
        stopAtOnce()
        removeDirectory()
    }
}
