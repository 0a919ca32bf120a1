import Foundation
import SpawnTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Debian's PostgreSQL 15, private to the run: the shared store of scenario 7. `initdb` into a
/// directory of its own, the server on a Unix socket there and no TCP port, one database.
/// Its settings are the defaults, `fsync` and `synchronous_commit` on: a write todod
/// acknowledges is on PostgreSQL's disk, as SQLite's writes are on the daemon's, so the two
/// compare. Stopped by `stop()`; on ^C or the watchdog by SIGQUIT (an immediate shutdown,
/// which still stops its backends and frees its shared memory).
///
/// Its programs are started by SpawnTestSupport (posix_spawn, reaped by pid), not Foundation's
/// `Process`: `pg_ctl start` leaves the server running, and `Process` learns that its child
/// ended from a socket the server would inherit and keep open. todobench runs as root under
/// `make bench`, and initdb refuses root: then they run as the `postgres` user (`runuser`).
final class PostgresServer: SideServer {
    static let binaries = "/usr/lib/postgresql/15/bin"
    static let database = "todos"
    let directory: String
    /// `15.18`, from `postgres -V`.
    let version: String
    /// Whether the directory (with the server's log) stays after the run (`--keep`).
    private let keep: Bool

    private var dataDirectory: String { directory + "/data" }
    /// What `todod --store` takes: the user `initdb` made, the socket directory as libpq's `host`.
    var uri: String { "postgresql://postgres@/\(Self.database)?host=\(directory)" }

    /// Makes a database cluster in a new directory under `parent` and starts its server;
    /// says how to install PostgreSQL when it is missing.
    static func start(under parent: String, keep: Bool) async throws -> PostgresServer {
        guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
            throw BenchError("PostgreSQL 15 is not installed, so there is no shared store to measure: apt-get install postgresql (make bench does)")
        }
        let said = try await run([binaries + "/postgres", "-V"])
        let version = said.split(separator: " ").dropFirst(2).first.map(String.init) ?? said
        // From here on, the server's deinit stops whatever started and removes the directory.
        let server = PostgresServer(directory: try makeTemporaryDirectory(under: parent, prefix: "todobench-postgres"), version: version, keep: keep)
        try server.giveToServerUser()
        // --no-sync spares initdb's own flush of the new files; the server itself syncs as usual.
        try await server.runAsServerUser(binaries + "/initdb", "-D", server.dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
        try await server.runAsServerUser(
            binaries + "/pg_ctl", "start", "-w", "-t", "60", "-D", server.dataDirectory, "-l", server.directory + "/server.log",
            "-o", "-k \(server.directory) -c listen_addresses=''")
        guard let pid = server.postmasterPID else { throw BenchError("PostgreSQL started but wrote no postmaster.pid; its log: \(server.directory)/server.log") }
        Watchdog.track(pid: pid, signal: SIGQUIT)
        try await server.runAsServerUser(binaries + "/createdb", "-h", server.directory, database)
        return server
    }

    private init(directory: String, version: String, keep: Bool) {
        self.directory = directory
        self.version = version
        self.keep = keep
    }

    /// A fast shutdown (`pg_ctl stop -m fast`: connections are cut, the server checkpoints and
    /// exits), then the directory goes, unless kept.
    func stop() async {
        guard let pid = postmasterPID else { return removeDirectory() }
        do {
            try await runAsServerUser(Self.binaries + "/pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", dataDirectory)
        } catch {
            progress("PostgreSQL did not stop (\(error)); stopping it at once")
            stopAtOnce()
        }
        Watchdog.untrack(pid: pid)
        removeDirectory()
    }

    /// The server's process (the postmaster), from the file it keeps while it runs.
    private var postmasterPID: Int32? {
        let file = (try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)) ?? ""
        return file.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// SIGQUIT, then up to 10 s for the server to remove its pid file as it exits.
    private func stopAtOnce() {
        guard let pid = postmasterPID else { return }
        kill(pid, SIGQUIT)
        for _ in 0..<1_000 where postmasterPID != nil { usleep(10_000) }
        Watchdog.untrack(pid: pid)
    }

    private func removeDirectory() {
        if !keep { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The directory belongs to the user the server runs as, who alone can enter it.
    private func giveToServerUser() throws {
        guard getuid() == 0 else { return }
        guard let user = getpwnam("postgres") else { throw BenchError("there is no postgres user to run PostgreSQL as: apt-get install postgresql") }
        guard chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else { throw BenchError("cannot give \(directory) to the postgres user") }
    }

    /// One of PostgreSQL's programs to its end, as the `postgres` user when todobench is root.
    /// In the server's directory: the programs find themselves through the current directory,
    /// and the one `make bench` runs in (a clone in /root, say) may be closed to that user.
    @discardableResult
    private func runAsServerUser(_ arguments: String...) async throws -> String {
        try await Self.run(getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments, in: directory)
    }

    /// Runs `command` to its end: its output, or a failure with everything it said.
    private static func run(_ command: [String], in directory: String? = nil) async throws -> String {
        let result = try await runToEnd(
            command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin"], directory: directory, timeout: 120)
        guard result.status == 0 else {
            throw BenchError("\(command.joined(separator: " ")) failed (\(result.status)): \(result.stdout)\(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        // A run that failed before stop(): the server must not outlive todobench.
        stopAtOnce()
        removeDirectory()
    }
}
