import Foundation
import TestHarness

#if canImport(Glibc)
import Glibc
#endif

/// A release todod on a private socket and database (with `store`, the database is its replica
/// of that shared store), awaited by its `READY=1` notification (as systemd would), stopped
/// with SIGTERM.
final class BenchDaemon: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let databasePath: String
    let logPath: String
    /// From spawning the process to its READY=1.
    private(set) var startupTime: UInt64 = 0
    private let process = Process()

    var pid: Int32 { process.processIdentifier }

    /// Starts todod in `directory` (reused to restart on the same data) with the file
    /// descriptor limit a systemd user service or a login shell gets (soft 1024), not the
    /// raised one of this process; with `store` (`todod --store`'s URI), on that shared store.
    static func start(binary: String, in directory: String, fileLimit: rlim_t, store: String? = nil) async throws -> BenchDaemon {
        let daemon = BenchDaemon(directory: directory)
        try await daemon.launch(binary: binary, fileLimit: fileLimit, store: store)
        return daemon
    }

    private init(directory: String) {
        self.directory = directory
        socketPath = directory + "/todod.sock"
        databasePath = directory + "/todos.sqlite"
        logPath = directory + "/todod.log"
    }

    private func launch(binary: String, fileLimit: rlim_t, store: String?) async throws {
        let notify = try NotifySocket(path: directory + "/notify-\(UInt32.random(in: 0...UInt32.max)).sock")
        defer { notify.close() }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--socket", socketPath, "--database", databasePath] + (store.map { ["--store", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        // A daemon without `store` is SQLite alone, whatever the shell that runs the bench exports.
        environment.removeValue(forKey: "TODOD_STORE")
        environment.removeValue(forKey: "LISTEN_FDS")
        environment.removeValue(forKey: "WATCHDOG_USEC")
        process.environment = environment
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = FileHandle(forWritingAtPath: logPath)
        log?.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let started = now()
        let process = self.process
        try FileLimit.withSoftLimit(fileLimit) { try process.run() }
        do {
            try await notify.awaitMessage(containing: "READY=1", timeout: 60, while: { process.isRunning })
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw BenchError("todod did not become ready (\(error)); its log: \(logPath)")
        }
        startupTime = now() - started
    }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() async throws -> Int32 {
        let process = self.process
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let status = try await blocking {
            process.waitUntilExit()
            return process.terminationStatus
        }
        Watchdog.untrack(pid: process.processIdentifier)
        return status
    }

    /// `VmRSS` and `VmHWM` (peak) in bytes.
    func memory() -> (resident: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// User + system CPU time so far, in nanoseconds (`/proc/PID/stat`, clock ticks).
    func cpuTime() -> UInt64 {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime is field 14, stime field 15.
        guard fields.count > 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return 0 }
        let ticks = UInt64(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) * 1_000_000_000 / ticks
    }

    /// Context switches of each thread, by thread id: how often the daemon woke up.
    func contextSwitches() -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var switches: [String: Int] = [:]
        for task in tasks {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            switches[task] = status.split(separator: "\n").reduce(0) { sum, line in
                guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else { return sum }
                return sum + (Int(line.split(separator: "\t").last ?? "0") ?? 0)
            }
        }
        return switches
    }

    /// Wake-ups between two readings of `contextSwitches()`, and how many threads came or went.
    static func wakeUps(from before: [String: Int], to after: [String: Int]) -> (wakeUps: Int, threadsChanged: Int) {
        let wakeUps = after.reduce(0) { sum, entry in sum + entry.value - (before[entry.key] ?? 0) }
        let changed = Set(before.keys).symmetricDifference(after.keys).count
        return (wakeUps, changed)
    }

    var threadCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// RLIMIT_NOFILE: this process raises its soft limit to the hard one (1,000 clients need
/// 1,000 sockets); a daemon it starts gets the ordinary soft limit instead.
enum FileLimit {
    static var current: rlimit {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return limit
    }

    /// The soft limit a login shell or a systemd user service has on Debian (1024).
    static let ordinarySoftLimit: rlim_t = 1024

    @discardableResult
    static func raise() -> rlim_t {
        var limit = current
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return current.rlim_cur
    }

    /// Runs `body` (which spawns a process) with the soft limit at `soft`, then restores it.
    static func withSoftLimit<T>(_ soft: rlim_t, _ body: () throws -> T) rethrows -> T {
        let saved = current
        var lowered = saved
        lowered.rlim_cur = min(soft, saved.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered)
        defer {
            var restore = saved
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &restore)
        }
        return try body()
    }
}
