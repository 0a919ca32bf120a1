import Foundation
import TestHarness
import Synchronization
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
        // On a thread of its own: the send blocks whenever the daemon holds this client back.
        let sender = Task.detached {
            try await blocking {
                var batch = ""
                for index in 0..<count {
                    batch += #"{"event":"requestToggleComplete","id":"w\#(index)","data":"1"}"# + "\n"
                    if batch.utf8.count > 60_000 || index == count - 1 {
                        try raw.send(batch)
                        batch = ""
                    }
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

    @Test("issue 25 probe 10: a client that pipelines 30,000 adds and reads only once the daemon holds it back is slowed, not cut off: every answer arrives")
    func pipeliningWithoutReadingIsSlowedNotCutOff() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        let count = 30_000
        var requests = ""
        for index in 0..<count {
            requests += #"{"event":"requestNewTodo","id":"a\#(index)","data":{"title":"pipelined \#(index) with a title long enough to matter"}}"# + "\n"
        }
        // 3.6 MB: more than the socket's buffers, so the sending blocks once the daemon stops reading.
        let all = requests
        let sent = Mutex(false)
        // On a thread of its own: the send blocks while the daemon holds this client back.
        let sender = Task.detached {
            try await blocking { try raw.send(all) }
            sent.withLock { $0 = true }
        }
        // Not a byte read until the daemon holds this client back (or, as before, read everything it sent).
        let held = try await awaitHeldBack(daemon) { sent.withLock { $0 } }
        #expect(held, "the daemon never held back a client that sent 30,000 requests without reading")
        let (answered, goodbye) = try await blocking {
            var answered = 0
            var goodbye: String?
            try raw.readLines(timeout: 60) { line in
                if line.starts(with: Array(#"{"client":"#.utf8)) { answered += 1 }
                if goodbye == nil, String(decoding: line, as: UTF8.self).contains("responseGoodbye") {
                    goodbye = String(decoding: line.prefix(300), as: UTF8.self)
                }
                return answered < count && goodbye == nil
            }
            return (answered, goodbye)
        }
        try await sender.value
        #expect(goodbye == nil, "the client was cut off: \(goodbye ?? "")")
        #expect(answered == count, "\(answered) of \(count) answers arrived")
        let status = try jsonObject(try await daemon.todoctl("status", "--json").stdout)
        #expect(status["openTodos"] as? Int == count, "status: \(status)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a client that never reads while others write gets whole frames, then the overloaded goodbye, last")
    func goodbyeAfterWholeFrames() async throws {
        let daemon = try await DaemonProcess.start()
        let stalled = try daemon.connect()
        _ = try await stalled.awaitLine(containing: "responseHello")
        // Another client writes 6,000 todos with 2 KB notes, reading its answers as it goes: about 14 MB of
        // changes broadcast to the stalled client, past its 8 MiB bound and the socket's buffers.
        let writer = try daemon.connect()
        _ = try await writer.awaitLine(containing: "responseHello")
        let count = 6_000
        let writing = startAddingTodos(count, notes: 2_000, through: writer)
        // The stalled client reads once the daemon gave up on it: it has 30 s from then to read its goodbye.
        try await daemon.awaitLog(containing: "disconnecting a client that left more than 8 MiB unread", timeout: 120)
        var lines: [String] = []
        while let line = try await stalled.readLine(timeout: 60) { lines.append(line) }
        let answered = try await writing.value
        #expect(answered == count, "the writer had \(answered) of \(count) answers")
        #expect(lines.count > 1_000, "the stalled client read \(lines.count) lines")
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

    @Test("list requests pipelined by a client that reads late: the daemon's memory stays bounded, others are answered, and every list arrives once it reads")
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
        _ = try await greedy.awaitLine(containing: "responseHello")
        // 2,000 lists of about 40 KB each: 80 MB of answers, ten times the unread bound.
        let count = 2_000
        let requests = (0..<count).map { #"{"event":"requestTodoViewModels","id":"g\#($0)","data":{"status":"all"}}"# + "\n" }.joined()
        let sent = Mutex(false)
        let sender = Task.detached {
            try await blocking { try greedy.send(requests) }
            sent.withLock { $0 = true }
        }
        // Another client is answered meanwhile.
        let status = try await daemon.todoctl("status")
        #expect(status.status == 0, "\(status.stderr)")
        let held = try await awaitHeldBack(daemon) { false }
        #expect(held, "the daemon never held back a client that asked for 2,000 lists without reading")
        let peak = try residentKilobytes(of: daemon.pid)
        #expect(peak - baseline < 60_000, "resident memory grew from \(baseline) kB to \(peak) kB")
        let (answered, goodbye) = try await blocking {
            var answered = 0
            var goodbye: String?
            try greedy.readLines(timeout: 60) { line in
                // The id comes last in a frame (its keys are sorted), after the 40 KB of the list.
                if String(decoding: line.suffix(40), as: UTF8.self).contains(#""id":"g"#) { answered += 1 }
                let head = String(decoding: line.prefix(200), as: UTF8.self)
                if head.contains("responseGoodbye") { goodbye = head }
                return answered < count && goodbye == nil
            }
            return (answered, goodbye)
        }
        try await sender.value
        #expect(goodbye == nil, "the client was cut off: \(goodbye ?? "")")
        #expect(answered == count, "\(answered) of \(count) lists arrived")
        let list = try await daemon.todoctl("list")
        #expect(list.status == 0, "\(list.stderr)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }
}

/// A client that never reads, beside one that writes: what the stalled one costs the daemon,
/// and what `todoctl events` says of the changes it could not show.
extension BoundsTests {
    /// What a daemon grew by, in kB, while a writer made `count` todos with 4 KB notes (about
    /// 34 MB broadcast), with or without a client that never reads: its peak, and its resident
    /// set once the writes are answered (and the stalled client cut off).
    private func growth(stalled: Bool, count: Int = 8_000) async throws -> (peak: Int, after: Int) {
        let daemon = try await DaemonProcess.start()
        var idle = stalled ? try daemon.connect() : nil
        _ = try await idle?.awaitLine(containing: "responseHello")
        let writer = try daemon.connect()
        _ = try await writer.awaitLine(containing: "responseHello")
        let baseline = try residentKilobytes(of: daemon.pid)
        let answered = try await startAddingTodos(count, through: writer).value
        #expect(answered == count, "the writer had \(answered) of \(count) answers")
        if stalled {
            try await daemon.awaitLog(containing: "disconnecting a client that left more than 8 MiB unread", timeout: 60)
            // Cut off, its frames are held until its goodbye is read or 30 s pass: it goes now.
            idle = nil
            try await daemon.awaitLog(containing: "client disconnected")
        }
        let peak = try residentKilobytes(of: daemon.pid, "VmHWM")
        let after = try residentKilobytes(of: daemon.pid)
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
        return (peak - baseline, after - baseline)
    }

    /// Starts adding `count` todos with notes of `size` bytes through `writer`, pipelined, reading the
    /// answers as they come (each is the change broadcast to every client); the task gives how many
    /// were answered. Sending and reading each run on a thread of their own: held back, a blocking
    /// send would otherwise block the threads of Swift concurrency and the reader that frees it.
    private func startAddingTodos(_ count: Int, notes size: Int = 4_000, through writer: RawConnection) -> Task<Int, any Error> {
        let notes = String(repeating: "n", count: size)
        let sender = Task.detached {
            try await blocking {
                var batch = ""
                for index in 0..<count {
                    batch += #"{"event":"requestNewTodo","id":"w\#(index)","data":{"title":"broadcast \#(index)","notes":"\#(notes)"}}"# + "\n"
                    if batch.utf8.count > 60_000 || index == count - 1 {
                        try writer.send(batch)
                        batch = ""
                    }
                }
            }
        }
        return Task.detached {
            let answered = try await blocking {
                var answered = 0
                try writer.readLines(timeout: 120) { line in
                    // The id comes last in a frame (its keys are sorted), after the notes.
                    if String(decoding: line.suffix(40), as: UTF8.self).contains(#""id":"w"#) { answered += 1 }
                    return answered < count
                }
                return answered
            }
            try await sender.value
            return answered
        }
    }

    @Test("issue 25: todoctl events, stopped (SIGSTOP) while another client makes 5,000 changes, says which it does not show as soon as it resumes, with no change made after")
    func eventsSaysDroppedChangesAtOnce() async throws {
        let daemon = try await DaemonProcess.start()
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        // events, and the status that asks.
        try await awaitClients(2, on: daemon)
        events.signal(SIGSTOP)
        // About 21 MB of changes: the daemon cuts the stopped client off past its 8 MiB bound (about 2,000
        // changes), and the rest are more than one catch-up from the journal holds (1,000).
        let writer = try daemon.connect()
        _ = try await writer.awaitLine(containing: "responseHello")
        let count = 5_000
        let answered = try await startAddingTodos(count, through: writer).value
        #expect(answered == count, "the writer had \(answered) of \(count) answers")
        try await daemon.awaitLog(containing: "disconnecting a client that left more than 8 MiB unread", timeout: 60)
        events.signal(SIGCONT)
        let notice = try await events.awaitLine(containing: "not shown", timeout: 60)
        #expect(notice.contains("…\(count) are not shown: the output was not read in time"), "\(notice)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("issue 25: todoctl events whose output is not read while 12,500 changes are made accounts for each as soon as it is read again, with no change made after: printed, or named as not shown")
    func eventsAccountsForChangesItDropped() async throws {
        let daemon = try await DaemonProcess.start()
        // Its output goes to a FIFO nobody reads yet: it blocks writing, while its client reads on,
        // holds 10,000 changes unread and drops the rest.
        let fifo = daemon.directory + "/events.out"
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        let output = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(output) }
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment, output: .file(fifo), errors: .pipe)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        let writer = try daemon.connect()
        _ = try await writer.awaitLine(containing: "responseHello")
        // Small changes (about 5 MB in all): the daemon never cuts this client off.
        let count = 12_500
        let answered = try await startAddingTodos(count, notes: 0, through: writer).value
        #expect(answered == count, "the writer had \(answered) of \(count) answers")

        // Read now: every change is printed, or named on stderr as not shown, without another change.
        let notices = try #require(events.errorReader)
        let printed = try await blocking {
            var printed: Set<Int> = []
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(60)
            while !printed.contains(count), !notices.lines.contains(where: { $0.contains("…\(count) are not shown") || $0.contains("change \(count) is not shown") }) {
                guard Date() < deadline else { throw TestFailure("change \(count) neither printed nor named within 60 s; stderr: \(notices.lines.suffix(5))") }
                var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) == 1 else { continue }
                let read = Glibc.read(output, &chunk, chunk.count)
                guard read > 0 else { continue }
                pending += chunk[..<read]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    if let seq = Int(String(decoding: pending[..<newline], as: UTF8.self).prefix { $0 != " " }) { printed.insert(seq) }
                    pending.removeSubrange(...newline)
                }
            }
            return printed
        }
        // What stderr names as not shown: "changes A…B are not shown" or "change B is not shown".
        var named: Set<Int> = []
        for line in notices.lines where line.contains("not shown") {
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if line.contains("changes "), numbers.count >= 2 { named.formUnion(numbers[0]...numbers[1]) } else if let one = numbers.first { named.insert(one) }
        }
        let unaccounted = Set(1...count).subtracting(printed).subtracting(named)
        #expect(unaccounted.isEmpty, "\(unaccounted.count) changes neither printed nor named, from \(unaccounted.min() ?? 0) to \(unaccounted.max() ?? 0); stderr: \(notices.lines)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    // Measured: the same writes grow a daemon by 113,600 kB without a stalled client (the todos
    // themselves: the table, the encoded cache, SQLite's pages), and with one by 122,100 kB at the
    // peak and 114,100 kB once it is gone: the issue's 89 MiB was mostly the todos, the stalled
    // client's share its 8 MiB bound.
    @Test("issue 25 probe 10: a client stalled under 34 MB of broadcasts grows the daemon by at most its 8 MiB bound and the frames' overhead, beyond what the same writes cost without it")
    func stalledUnderBroadcasts() async throws {
        let without = try await growth(stalled: false)
        let with = try await growth(stalled: true)
        print("daemon growth in kB under 8,000 broadcasts of 4 KB: without a stalled client peak \(without.peak), after \(without.after); with one peak \(with.peak), after \(with.after)")
        #expect(with.peak - without.peak < 16_000, "a stalled client: peak +\(with.peak) kB; without one: +\(without.peak) kB")
        // Once it is gone, what it held is given back.
        #expect(with.after - without.after < 8_000, "a stalled client, once gone: +\(with.after) kB; without one: +\(without.after) kB")
    }
}

/// Waits until the daemon's status counts a client held back (true), or `otherwise` holds (false);
/// fails after 60 s with neither. Asks on a connection of its own: cheaper than a process a time.
func awaitHeldBack(_ daemon: DaemonProcess, otherwise: @escaping @Sendable () -> Bool) async throws -> Bool {
    let asker = try daemon.connect()
    _ = try await asker.awaitLine(containing: "responseHello")
    let deadline = ContinuousClock.now + .seconds(60)
    var last = ""
    while ContinuousClock.now < deadline {
        try asker.send(#"{"event":"requestStatus","id":"held"}"# + "\n")
        last = try await asker.awaitLine(containing: #""id":"held""#)
        if (try? jsonObject(last))?.path("data", "heldBackClients") as? Int ?? 0 > 0 { return true }
        if otherwise() { return false }
    }
    throw TestFailure("no client held back within 60 s; the last status: \(last)")
}

/// The resident set of a process, in kilobytes (`VmRSS` of /proc/PID/status; `VmHWM`: its peak).
func residentKilobytes(of pid: Int32, _ field: String = "VmRSS") throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
        let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { throw TestFailure("no \(field) for \(pid)") }
    return value
}
