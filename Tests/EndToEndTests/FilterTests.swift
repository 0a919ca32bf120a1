import Foundation
import Testing

/// A daemon and todoctl that agree it is Monday 2026-11-23, 09:00 UTC.
let fixedClock = ["TODOD_TEST_NOW": "2026-11-23T09:00:00Z", "TZ": "UTC"]

@Suite("The filter language of list, events and the bulk commands")
struct FilterTests {
    /// Four todos: #1 overdue (home, admin), #2 tomorrow (home, errands), #3 high and undated, #4 today (admin).
    static func week() async throws -> DaemonProcess {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        for arguments in [
            ["add", "Tax", "return", "-t", "home", "-t", "admin", "-d", "2026-11-21"],
            ["add", "Buy", "milk", "--tag", "home", "--tag", "errands", "--due", "tomorrow", "--notes", "semi-skimmed"],
            ["add", "Call", "mum", "-p", "high"],
            ["add", "Pay", "rent", "-t", "admin", "-d", "today"],
        ] {
            let added = try await run("todoctl", arguments, environment: daemon.environment.merging(fixedClock) { $1 })
            #expect(added.status == 0, "\(arguments): \(added.stderr)")
        }
        return daemon
    }

    static func numbers(_ daemon: DaemonProcess, _ arguments: String...) async throws -> [Int] {
        let result = try await run("todoctl", ["list", "-j"] + arguments, environment: daemon.environment.merging(fixedClock) { $1 })
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try jsonArray(result.stdout).compactMap { $0["number"] as? Int }.sorted()
    }

    @Test("list --tag home --tag admin keeps only todos with both (it used to keep the last tag alone)")
    func severalTags() async throws {
        let daemon = try await Self.week()
        let numbers = try await Self.numbers(daemon, "--tag", "home", "--tag", "admin")
        #expect(numbers == [1])
        let numbers2 = try await Self.numbers(daemon, "-t", "#admin")
        #expect(numbers2 == [1, 4])
        let numbers3 = try await Self.numbers(daemon, "--not-tag", "admin")
        #expect(numbers3 == [2, 3])
        try await daemon.stop()
    }

    @Test("dates in words: --overdue, --due today, --due-before, --due-after (the past too), --no-due")
    func dates() async throws {
        let daemon = try await Self.week()
        let numbers = try await Self.numbers(daemon, "--overdue")
        #expect(numbers == [1])
        let numbers2 = try await Self.numbers(daemon, "--due", "today")
        #expect(numbers2 == [4])
        let numbers3 = try await Self.numbers(daemon, "-d", "tomorrow")
        #expect(numbers3 == [2])
        let numbers4 = try await Self.numbers(daemon, "--due-before", "tomorrow")
        #expect(numbers4 == [1, 4])
        let numbers5 = try await Self.numbers(daemon, "--due-after", "-1d")
        #expect(numbers5 == [2, 4])
        let numbers6 = try await Self.numbers(daemon, "--due-before", "yesterday")
        #expect(numbers6 == [1])
        let numbers7 = try await Self.numbers(daemon, "--no-due")
        #expect(numbers7 == [3])
        let numbers8 = try await Self.numbers(daemon, "-p", "high", "--search", "MUM")
        #expect(numbers8 == [3])
        let contradiction = try await daemon.todoctl("list", "--no-due", "--overdue")
        #expect(contradiction.status == 64)
        #expect(contradiction.stderr.contains("--no-due leaves out every dated todo"))
        let bad = try await daemon.todoctl("list", "--due-before", "someday")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("yesterday") && bad.stderr.contains("-1d") && bad.stderr.contains("3 days ago"))
        try await daemon.stop()
    }
}
