import Foundation
import TestHarness
import Testing

/// Out of file descriptors, accept fails at once (EMFILE) for as long as clients wait:
/// retrying at once would spin a core. The daemon pauses accepting, says so once, and
/// serves again when descriptors are free.
@Suite("out of file descriptors")
struct FileLimitTests {
    @Test("out of file descriptors, the daemon waits instead of spinning, logs it, and recovers when clients leave")
    func acceptBacksOff() async throws {
        let daemon = try await DaemonProcess.start()
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").count
        let result = try await run("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--nofile=\(open + 4):"])
        #expect(result.status == 0, "\(result.stderr)")
        // More clients than descriptors left: the last ones wait in the listen backlog.
        var clients: [RawConnection] = []
        for _ in 0..<12 { clients.append(try daemon.connect()) }
        _ = try await clients[0].awaitLine(containing: "responseHello")
        // A second of waiting clients costs (almost) no CPU: a spinning accept loop takes all of it.
        let before = try cpuTicks(of: daemon.pid)
        try await Task.sleep(for: .seconds(1))
        let spent = try cpuTicks(of: daemon.pid) - before
        #expect(spent < 30, "the daemon used \(spent) of 100 ticks while out of descriptors")
        #expect(daemon.log.contains("cannot accept connections"))
        clients.removeAll()
        let result2 = try await run("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--nofile=1024:"])
        #expect(result2.status == 0, "\(result2.stderr)")
        let added = try await daemon.todoctl("add", "after the flood")
        #expect(added.status == 0, "\(added.stderr)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }
}

/// User and system CPU time of a process so far, in clock ticks (1/100 s).
func cpuTicks(of pid: Int32) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { throw TestFailure("cannot read /proc/\(pid)/stat") }
    return user + system
}
