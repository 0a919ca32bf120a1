import Foundation
import Testing

/// Times of day as the user sees them in show, history, undo, redo and list --waiting, through
/// a real daemon, at 09:00 UTC on Monday 2026-11-23 (`fixedClock`): an outside probe found
/// them left out or wrong (probe 12, findings 3, 5 and 8).
@Suite("Times of day in show, history, undo and list --waiting, through a real daemon")
struct TimeDisplayEndToEndTests {
    /// `todoctl arguments` on the fixed clock, which must succeed.
    private static func todoctl(_ daemon: DaemonProcess, _ arguments: String...) async throws -> CommandResult {
        let result = try await daemon.todoctl(arguments, environment: fixedClock)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    @Test("show gives the wait's and the scheduled day's times, says a wait at 23:00 today still hides the todo (it said over), and says the next of a timed series with its time")
    func showTimes() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await Self.todoctl(daemon, "add", "Call", "the", "bank", "wait:2026-11-23T23:00", "scheduled:2026-11-30T10:15")
        _ = try await Self.todoctl(daemon, "add", "Stand-up", "due:2026-11-24T09:30", "recur:daily")
        let bank = try await Self.todoctl(daemon, "show", "1")
        #expect(bank.stdout.contains("waits     until 2026-11-23 23:00 (hidden from the list till then)"), "\(bank.stdout)")
        #expect(bank.stdout.contains("scheduled 2026-11-30 10:15 (next weighs it from then)"), "\(bank.stdout)")
        let standUp = try await Self.todoctl(daemon, "show", "2")
        #expect(standUp.stdout.contains("the next is due 2026-11-25 09:30"), "\(standUp.stdout)")
        try await daemon.stop()
    }

    @Test("history, undo and redo say a due time's change on one day (15:00 → 16:00), a time taken away, and the wait's and scheduled day's times")
    func changeLinesWithTimes() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await Self.todoctl(daemon, "add", "Call", "the", "bank", "due:2026-11-29T15:00")
        _ = try await Self.todoctl(daemon, "edit", "1", "due:2026-11-29T16:00")
        let history = try await Self.todoctl(daemon, "history", "1")
        #expect(history.stdout.contains("due 2026-11-29 15:00 → 2026-11-29 16:00"), "\(history.stdout)")
        let undo = try await Self.todoctl(daemon, "undo")
        #expect(undo.stdout.contains("due 2026-11-29 16:00 → 2026-11-29 15:00"), "\(undo.stdout)")
        let redo = try await Self.todoctl(daemon, "redo")
        #expect(redo.stdout.contains("due 2026-11-29 15:00 → 2026-11-29 16:00"), "\(redo.stdout)")

        // The same day without its time is a change too: it was "2026-11-29 → 2026-11-29".
        _ = try await Self.todoctl(daemon, "edit", "1", "due:2026-11-29", "wait:2026-11-28T08:00", "scheduled:2026-11-27T10:15")
        let later = try await Self.todoctl(daemon, "history", "1")
        #expect(later.stdout.contains("due 2026-11-29 16:00 → 2026-11-29"), "\(later.stdout)")
        #expect(later.stdout.contains("wait none → 2026-11-28 08:00"), "\(later.stdout)")
        #expect(later.stdout.contains("scheduled none → 2026-11-27 10:15"), "\(later.stdout)")
        try await daemon.stop()
    }

    @Test("list --waiting says when each todo comes back, as list says a due date (in 6 h, tomorrow 08:00, a far day), and due:now reads due now at once in list and show, and is overdue from its minute")
    func waitingAndDueNow() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await Self.todoctl(daemon, "add", "Renew", "the", "passport", "wait:2026-11-24T08:00")
        _ = try await Self.todoctl(daemon, "add", "Call", "the", "bank", "wait:15:00")
        _ = try await Self.todoctl(daemon, "add", "Buy", "a", "tree", "wait:2026-12-24")
        let waiting = try await Self.todoctl(daemon, "list", "--waiting")
        #expect(waiting.lines.first?.contains("Wait") == true, "\(waiting.stdout)")
        #expect(waiting.lines.contains { $0.contains("Renew the passport") && $0.hasSuffix("tomorrow 08:00") }, "\(waiting.stdout)")
        #expect(waiting.lines.contains { $0.contains("Call the bank") && $0.hasSuffix("in 6 h") }, "\(waiting.stdout)")
        #expect(waiting.lines.contains { $0.contains("Buy a tree") && $0.hasSuffix("2026-12-24") }, "\(waiting.stdout)")

        _ = try await Self.todoctl(daemon, "add", "Stretch", "due:now")
        let list = try await Self.todoctl(daemon, "list")
        #expect(list.lines.contains { $0.contains("Stretch") && $0.hasSuffix("due now") }, "\(list.stdout)")
        let show = try await Self.todoctl(daemon, "show", "4")
        #expect(show.stdout.contains("due       2026-11-23 09:00 (due now)"), "\(show.stdout)")
        // Overdue from its minute, as before: only the words changed.
        let overdue = try await Self.todoctl(daemon, "list", "--overdue")
        #expect(overdue.lines.contains { $0.contains("Stretch") }, "\(overdue.stdout)")
        try await daemon.stop()
    }
}

/// A time of day typed apart from its day, unquoted (`due:tomorrow 15:00`): a title word, as
/// Taskwarrior has it, and a hint naming the fix (probe 12, finding 6).
@Suite("An unquoted time after a day, through a real daemon")
struct UnquotedTimeEndToEndTests {
    @Test("add keeps an unquoted 15:00 after due:tomorrow (and 9am after --due fri) in the title and says on stderr to quote it, exit 0; a quoted one, a time after no day and one after -- say nothing")
    func hintOnStderr() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let modifier = try await daemon.todoctl(["add", "-j", "Call", "due:tomorrow", "15:00"], environment: fixedClock)
        #expect(modifier.status == 0, "\(modifier.stderr)")
        #expect(try jsonObject(modifier.stdout)["title"] as? String == "Call 15:00", "\(modifier.stdout)")
        #expect(modifier.stderr == "todoctl: 15:00 went into the title; to make it the due time, quote it: 'due:tomorrow 15:00'\n", "\(modifier.stderr)")
        let option = try await daemon.todoctl(["add", "Dentist", "--due", "fri", "9am"], environment: fixedClock)
        #expect(option.status == 0 && option.stderr.contains("9am went into the title; to make it the due time, quote it: --due 'fri 9am'"), "\(option.stderr)")
        for quiet in [["add", "Call", "due:tomorrow 15:00"], ["add", "Meet", "at", "10:30"], ["add", "Read", "--", "due:tomorrow", "15:00"]] {
            let added = try await daemon.todoctl(quiet, environment: fixedClock)
            #expect(added.status == 0 && added.stderr.isEmpty, "\(quiet): \(added.stderr)")
        }
        try await daemon.stop()
    }

    @Test("watch's a line adds an unquoted due:tomorrow 15:00 as add does and says on the status line to quote it")
    func hintInWatch() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let tmux = try await Tmux(environment: daemon.environment.merging(fixedClock) { $1 }.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        _ = try await tmux.waitFor("no open todos: press a")
        try await tmux.keys("a")
        try await tmux.type("Call due:tomorrow 15:00")
        _ = try await tmux.waitFor("15:00 went into the title; to make it the due time, quote it")
        _ = try await tmux.waitFor("Call 15:00")
        await tmux.kill()
        try await daemon.stop()
    }
}

/// todoctl in another time zone than its daemon's (probe 12, finding 4): the same todo meant
/// other instants without a word.
@Suite("A shell in another zone than the daemon's, through a real daemon")
struct ZoneWarningEndToEndTests {
    @Test("todoctl in Tokyo beside a daemon in UTC says once on stderr that they differ and which zone reads the times, and still answers; in the daemon's zone it says nothing")
    func warnsOnce() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let tokyo = fixedClock.merging(["TZ": "Asia/Tokyo"]) { $1 }
        let added = try await daemon.todoctl(["add", "Call", "the", "bank", "due:15:00"], environment: tokyo)
        #expect(added.status == 0 && added.stdout == "added #1 Call the bank\n", "\(added.stdout)\(added.stderr)")
        #expect(added.stderr.components(separatedBy: "the daemon runs in UTC+00:00, this shell in UTC+09:00").count == 2, "\(added.stderr)")
        #expect(added.stderr.contains("times of day are read and written here in this shell's zone"), "\(added.stderr)")
        let same = try await daemon.todoctl(["list"], environment: fixedClock)
        #expect(same.status == 0 && same.stderr.isEmpty, "\(same.stderr)")
        try await daemon.stop()
    }
}
