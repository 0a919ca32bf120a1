import Foundation

/// A private PostgreSQL 15 for one test: `initdb` into a temporary directory given to the
/// `postgres` user (initdb refuses root), the server on a Unix socket in that directory and
/// no TCP (unless `options` say otherwise), one database; stopped and removed by `stop()`
/// (killed at the latest when dropped).
final class PostgresServer: @unchecked Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"
    let directory: String
    let database = "todos"
    /// Its port: the TCP port when `options` make it listen, and the socket file's number.
    let port: Int
    /// More `postgres` options, for every start (PostgresTLSServer's TCP and TLS settings).
    let options: String
    var dataDirectory: String { directory + "/data" }
    /// What `todod --store` takes: the socket directory as libpq's `host`.
    var uri: String { "postgresql://postgres@/\(database)?host=\(directory)" + (port == 5432 ? "" : "&port=\(port)") }

    static func start(port: Int = 5432, options: String = "") async throws -> PostgresServer {
        guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
            throw TestFailure("PostgreSQL 15 is not installed: apt-get install postgresql (make test does)")
        }
        let server = try PostgresServer(port: port, options: options)
        try await server.asPostgres(binaries + "/initdb", "-D", server.dataDirectory, "-U", "postgres", "-A", "trust", "--no-sync")
        try await server.startServer()
        try await server.asPostgres(binaries + "/createdb", "-h", server.directory, server.database)
        return server
    }

    private init(port: Int, options: String) throws {
        self.port = port
        self.options = options
        directory = try makeTemporaryDirectory()
        guard let postgres = getpwnam("postgres") else { throw TestFailure("there is no postgres user: apt-get install postgresql") }
        chown(directory, postgres.pointee.pw_uid, postgres.pointee.pw_gid)
    }

    /// Starts (again) the server on its data; returns once it accepts connections.
    func startServer() async throws {
        try await asPostgres(
            Self.binaries + "/pg_ctl", "start", "-w", "-D", dataDirectory, "-l", directory + "/server.log",
            "-o", "-k \(directory) -p \(port) -c listen_addresses='' -c fsync=off \(options)")
    }

    /// Stops the server (`fast`: connections are cut, as when PostgreSQL goes away).
    func stopServer() async throws {
        try await asPostgres(Self.binaries + "/pg_ctl", "stop", "-w", "-m", "fast", "-D", dataDirectory)
    }

    /// One SQL statement's rows through psql, unaligned, as the `postgres` user.
    func psql(_ sql: String) async throws -> String {
        try await asPostgres(Self.binaries + "/psql", "-h", directory, "-d", database, "-XAtc", sql)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One value through psql over TCP at `host` and this server's port, with `password`, as a
    /// daemon given `postgresql://postgres@HOST:PORT/todos` connects (the server must listen there).
    func psql(_ sql: String, host: String, password: String) async throws -> String {
        try await asPostgres(
            Self.binaries + "/psql", "-h", host, "-p", "\(port)", "-d", database, "-XAtc", sql, environment: ["PGPASSWORD": password])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The database as `pg_dump` writes it (a backup), in a file of the server's directory.
    func dump() async throws -> String {
        let file = directory + "/backup-\(UUID().uuidString.prefix(8)).sql"
        try await asPostgres(Self.binaries + "/pg_dump", "-h", directory, "-f", file, database)
        return file
    }

    /// The database dropped (its sessions ended) and made again from a `dump()`: a restore from a backup.
    func restore(_ dump: String) async throws {
        try await makeDatabaseAgain()
        try await asPostgres(Self.binaries + "/psql", "-h", directory, "-d", database, "-Xqf", dump)
    }

    /// A `dump()` loaded into the database as it is, in one transaction (as the README says to restore).
    func load(_ dump: String) async throws {
        try await asPostgres(Self.binaries + "/psql", "-h", directory, "-d", database, "-Xq", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", dump)
    }

    /// The database dropped (its sessions ended) and made again, empty.
    func makeDatabaseAgain() async throws {
        try await asPostgres(Self.binaries + "/dropdb", "-h", directory, "--force", database)
        try await asPostgres(Self.binaries + "/createdb", "-h", directory, database)
    }

    /// psql running `sql` as the `postgres` user until it ends by itself or is stopped (a
    /// session that holds a lock, say).
    func psqlInBackground(_ sql: String) throws -> ChildProcess {
        try ChildProcess(
            "/usr/sbin/runuser", ["-u", "postgres", "--", Self.binaries + "/psql", "-h", directory, "-d", database, "-XAtc", sql],
            environment: ["PGHOST": directory, "PATH": "/usr/bin:/bin"])
    }

    /// Waits until `sql` (one value) gives `expected`, asked again every 50 ms (also while the
    /// server refuses connections): PostgreSQL has no event for a lock taken, a query started
    /// or a recovery ended; fails after `timeout` seconds.
    func awaitValue(_ sql: String, _ expected: String, timeout: TimeInterval = 30) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            do { last = try await psql(sql) } catch { last = "\(error)" }
            if last == expected { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("\(sql) gave \(last), not \(expected), for \(Int(timeout)) s")
    }

    /// The server's processes: the postmaster (from its pid file) and its children.
    func processes() async throws -> [pid_t] {
        let pidFile = try String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
            throw TestFailure("no pid in \(dataDirectory)/postmaster.pid")
        }
        let children = try await ChildProcess.run("/usr/bin/pgrep", ["-P", "\(postmaster)"], environment: ["PATH": "/usr/bin:/bin"])
        return [postmaster] + children.output.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Stops the server and removes its directory.
    func stop() async throws {
        try await stopServer()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A `ChildProcess`, not a Foundation `Process`: the server pg_ctl leaves running would
    /// keep the socket by which `Process` learns that its child ended (see ChildProcess).
    @discardableResult
    private func asPostgres(_ arguments: String..., environment: [String: String] = [:]) async throws -> String {
        let result = try await ChildProcess.run(
            "/usr/sbin/runuser", ["-u", "postgres", "--"] + arguments,
            environment: ["PGHOST": directory, "PGPORT": "\(port)", "PATH": "/usr/bin:/bin"].merging(environment) { $1 })
        guard result.status == 0 else {
            throw TestFailure("\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)")
        }
        return result.output
    }

    deinit {
        // A test that failed before stop(): the server must not outlive it (pg_ctl exits at once with -m immediate).
        if let child = try? ChildProcess(
            "/usr/sbin/runuser", ["-u", "postgres", "--", Self.binaries + "/pg_ctl", "stop", "-m", "immediate", "-D", dataDirectory],
            environment: ["PATH": "/usr/bin:/bin"]) {
            for _ in 0..<1000 where child.isRunning { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
