import Foundation

/// A process started with exactly the environment given, whose output (stdout and stderr
/// together) a test reads as it comes: `systemd-socket-activate`, a packaged todod, a user
/// manager, tmux.
///
/// Spawned and reaped here rather than with Foundation's `Process`, which learns that a child
/// ended when a socket it leaves open in the child closes (swift-corelibs-foundation#4795).
/// That fails both ways: `systemd-socket-activate` and `systemd --user` close every descriptor
/// they did not expect, so `Process` takes them for dead and blocks its one monitoring thread in
/// `waitpid` (no other `Process` of the test is reaped meanwhile); and a tmux client forks the
/// tmux server, which keeps the socket open, so `Process` never sees the client end and
/// `waitUntilExit` hangs. Here a thread waits for the child's own pid, and nothing of the test's
/// descriptors leaks into it.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    /// What the reading and reaping threads share with the test. They hold this, not the child,
    /// so that a child left running by a failed test is killed when its ChildProcess goes away.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var lines: [String] = []
        var outputEnded = false
        var status: Int32?
    }
    private let shared = Shared()
    private var condition: NSCondition { shared.condition }
    private var lines: [String] { shared.lines }
    private var outputEnded: Bool { shared.outputEnded }
    private var status: Int32? { shared.status }

    init(_ program: String, _ arguments: [String], environment: [String: String]) throws {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw TestFailure("pipe: errno \(errno)") }
        let (readEnd, writeEnd) = (pipeFDs[0], pipeFDs[1])
        // Foundation's children close every descriptor anyway; ours gets the write end as 1 and 2.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        // Nothing else of this process (other children's pipes and sockets) leaks into it.
        closeFrom3(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var spawnedPID: pid_t = 0
        let spawned = posix_spawn(&spawnedPID, program, &actions, &attributes, argv, envp)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw TestFailure("cannot start \(program): errno \(spawned)")
        }
        let pid = spawnedPID
        self.pid = pid

        Thread { [shared] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var pending: [UInt8] = []
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                shared.condition.withLock {
                    if count <= 0 {
                        if !pending.isEmpty { shared.lines.append(String(decoding: pending, as: UTF8.self)) }
                        shared.outputEnded = true
                    } else {
                        pending += buffer[..<count]
                        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                            shared.lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                            pending.removeSubrange(...newline)
                        }
                    }
                    shared.condition.broadcast()
                }
                if count <= 0 { close(readEnd); return }
            }
        }.start()
        Thread { [shared] in
            var raw: Int32 = 0
            var waited: pid_t
            repeat { waited = waitpid(pid, &raw, 0) } while waited == -1 && errno == EINTR
            // The exit status, or 128 + the signal that ended it, as a shell reports it; -1 when
            // it cannot be known (never 0, which would pass for success).
            let code = waited != pid ? -1 : raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            shared.condition.withLock {
                shared.status = code
                shared.condition.broadcast()
            }
        }.start()
    }

    var isRunning: Bool { condition.withLock { status == nil } }

    /// Everything it printed so far.
    var output: String { condition.withLock { lines.joined(separator: "\n") } }

    /// The first line (from the start) containing `needle`; fails after `timeout` seconds or
    /// when the output ends without one.
    func awaitLine(containing needle: String, timeout: TimeInterval = 30) async throws -> String {
        try await blocking { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            return try condition.withLock {
                while true {
                    if let line = lines.first(where: { $0.contains(needle) }) { return line }
                    if outputEnded { throw TestFailure("its output ended without \"\(needle)\":\n\(lines.joined(separator: "\n"))") }
                    guard condition.wait(until: deadline) else {
                        throw TestFailure("no \"\(needle)\" within \(Int(timeout)) s:\n\(lines.joined(separator: "\n"))")
                    }
                }
            }
        }
    }

    func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Its exit status (128 + the signal that ended it); SIGKILL and a failure after `timeout` seconds.
    func waitForExit(timeout: TimeInterval = 30) async throws -> Int32 {
        try await blocking { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            return try condition.withLock {
                while true {
                    if let status { return status }
                    guard condition.wait(until: deadline) else {
                        kill(-pid, SIGKILL)
                        throw TestFailure("process \(pid) did not exit within \(Int(timeout)) s")
                    }
                }
            }
        }
    }

    /// SIGTERM, then waits for the end (SIGKILL after `timeout` seconds); for synchronous cleanup.
    func stopNow(timeout: TimeInterval = 30) {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        condition.withLock {
            while status == nil {
                guard condition.wait(until: deadline) else {
                    kill(-pid, SIGKILL)
                    while status == nil { condition.wait() }
                    return
                }
            }
        }
    }

    /// Runs a program to its end: its status and output. Killed (and a failure) after `timeout`
    /// seconds; the output is read to its end, so a child left behind holding it fails the
    /// call after 5 s more (tmux's server lets go of it at once).
    static func run(_ program: String, _ arguments: [String], environment: [String: String], timeout: TimeInterval = 30) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(program, arguments, environment: environment)
        let status = try await child.waitForExit(timeout: timeout)
        return (status, try await child.outputToItsEnd(timeout: 5))
    }

    /// Everything it printed, once its output has ended (every writer closed it).
    func outputToItsEnd(timeout: TimeInterval) async throws -> String {
        try await blocking { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            return try condition.withLock {
                while !outputEnded {
                    guard condition.wait(until: deadline) else { throw TestFailure("the output of \(pid) did not end within \(Int(timeout)) s") }
                }
                return lines.joined(separator: "\n")
            }
        }
    }

    // SIGKILL goes to the child's process group (it leads one of its own), so that what it
    // started goes with it.
    deinit {
        if isRunning { kill(-pid, SIGKILL) }
    }
}

/// `posix_spawn_file_actions_addclosefrom_np(actions, 3)` (glibc 2.34; Swift's Glibc module does
/// not show it), else a close action for every descriptor open now from 3 up.
private func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        return
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap(Int32.init) where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
    }
}
