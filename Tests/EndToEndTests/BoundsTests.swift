import Foundation
import Testing

/// Every queue between a socket and the store has a bound: clients that send faster than
/// they are answered, or never read, cost the daemon bounded memory, slow no one else,
/// and are told why they are cut off, in whole frames.
@Suite("bounds, from a client's side")
struct BoundsTests {
    @Test("a client that pipelines 100,000 writes, reading as it goes, gets every answer; the daemon's memory stays flat")
    func pipelinedWrites() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", "Toggled")
        #expect(added.status == 0, "\(added.stderr)")
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        let baseline = try residentKilobytes(of: daemon.pid)
        let count = 100_000
        let sender = Task.detached {
            var batch = ""
            for index in 0..<count {
                batch += #"{"event":"requestToggleComplete","id":"w\#(index)","data":"1"}"# + "\n"
                if batch.utf8.count > 60_000 || index == count - 1 {
                    try raw.send(batch)
                    batch = ""
                }
            }
        }
        let pid = daemon.pid
        let (answered, peak) = try await blocking {
            var answered = 0
            var peak = baseline
            // Read in bulk, as a client that keeps up does (one line at a time through a task
            // is slower than the daemon writes, and such a client is rightly cut off).
            try raw.readLines(timeout: 60) { line in
                if line.starts(with: Array(#"{"client":"#.utf8)), line.count > 0 { answered += 1 }
                if answered % 10_000 == 0 { peak = max(peak, (try? residentKilobytes(of: pid)) ?? peak) }
                return answered < count
            }
            return (answered, peak)
        }
        try await sender.value
        #expect(answered == count)
        // Bounded work in flight: the daemon holds at most a few hundred requests, not 100,000.
        #expect(peak - baseline < 40_000, "resident memory grew from \(baseline) kB to \(peak) kB")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a client that pipelined 30,000 adds without reading gets whole frames, then the overloaded goodbye, last")
    func goodbyeAfterWholeFrames() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        var requests = ""
        for index in 0..<30_000 {
            requests += #"{"event":"requestNewTodo","id":"a\#(index)","data":{"title":"pipelined \#(index) with a title long enough to matter"}}"# + "\n"
        }
        // Sent in full before a single byte is read.
        let all = requests
        try await blocking { try raw.send(all) }
        var lines: [String] = []
        while let line = try await raw.readLine(timeout: 60) { lines.append(line) }
        #expect(lines.count > 1_000)
        for line in lines {
            #expect((try? jsonObject(line)) != nil, "not a whole frame: \(line.prefix(120))…")
        }
        let last = try #require(lines.last)
        #expect(last.contains("responseGoodbye") && last.contains("overloaded"), "the last line is \(last.prefix(200))")
        #expect(lines.dropLast().allSatisfy { !$0.contains("responseGoodbye") })
        // The others carry on.
        let status2 = try await daemon.todoctl("status")
        #expect(status2.status == 0, "\(status2.stderr)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("probe Q2: a list larger than the unread bound, not yet read when changes are broadcast, reaches its client whole, then the changes: no goodbye")
    func bigListBesideBroadcasts() async throws {
        let daemon = try await DaemonProcess.start()
        let seeder = try daemon.connect()
        _ = try await seeder.awaitLine(containing: "responseHello")
        // 500 todos with 20 KB notes: a list of about 10 MB, over the 8 MiB bound.
        let notes = String(repeating: "n", count: 20_000)
        for batch in 0..<10 {
            // Each answer is about 20 KB: 50 at a time, read before the next, stay within the bound.
            let adds = (batch * 50..<batch * 50 + 50).map {
                #"{"event":"requestNewTodo","id":"s\#($0)","data":{"title":"todo \#($0)","notes":"\#(notes)"}}"# + "\n"
            }.joined()
            try await blocking { try seeder.send(adds) }
            _ = try await seeder.awaitLine(containing: #""id":"s\#(batch * 50 + 49)""#)
        }

        let reader = try daemon.connect()
        _ = try await reader.awaitLine(containing: "responseHello")
        try reader.send(#"{"event":"requestTodoViewModels","id":"big","data":{"status":"all"}}"# + "\n")
        // Not a byte read yet: the list waits in the daemon while changes are broadcast to every client.
        for title in ["first change", "second change"] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        var lines: [(size: Int, answered: Bool, text: String)] = []
        while lines.count < 3, let line = try await reader.readLine(timeout: 60) {
            lines.append((line.utf8.count, line.contains(#""id":"big""#), String(line.prefix(300))))
        }
        #expect(lines.count == 3)
        #expect(lines.first.map { $0.size > 8 << 20 && $0.answered } == true, "\(lines.map { ($0.size, $0.text) })")
        #expect(lines.dropFirst().allSatisfy { $0.text.contains("change") && !$0.text.contains("responseGoodbye") }, "\(lines.map(\.text))")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("list requests pipelined by a client that never reads: the daemon's memory stays bounded and others are answered")
    func pipelinedReadsWithoutReading() async throws {
        let daemon = try await DaemonProcess.start()
        let seeder = try daemon.connect()
        _ = try await seeder.awaitLine(containing: "responseHello")
        var adds = ""
        for index in 0..<100 {
            adds += #"{"event":"requestNewTodo","id":"s\#(index)","data":{"title":"todo \#(index)","notes":"\#(String(repeating: "n", count: 200))"}}"# + "\n"
        }
        try seeder.send(adds)
        _ = try await seeder.awaitLine(containing: #""id":"s99""#)
        let baseline = try residentKilobytes(of: daemon.pid)

        let greedy = try daemon.connect()
        let list = #"{"event":"requestTodoViewModels","data":{"status":"all"}}"# + "\n"
        let chunk = String(repeating: list, count: 1_000)
        let sender = Task.detached {
            // About 6 MB of requests, each answered with ~40 KB: without bounds, gigabytes.
            for _ in 0..<100 { try greedy.send(chunk) }
        }
        // Another client is answered meanwhile.
        let status2 = try await daemon.todoctl("status")
        #expect(status2.status == 0, "\(status2.stderr)")
        try await sender.value
        let peak = try residentKilobytes(of: daemon.pid)
        #expect(peak - baseline < 100_000, "resident memory grew from \(baseline) kB to \(peak) kB")
        var last = ""
        while let line = try await greedy.readLine(timeout: 60) { last = line }
        #expect(last.contains("overloaded"))
        let listed = try await daemon.todoctl("list")
        #expect(listed.status == 0, "\(listed.stderr)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }
}

/// The resident set of a process, in kilobytes (`VmRSS` of /proc/PID/status).
func residentKilobytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { throw TestFailure("no VmRSS for \(pid)") }
    return value
}
