import Foundation
import TestHarness
import Testing

/// The documentation is true: each page's tour runs against a fresh daemon with a fixed clock,
/// and a change that alters any output fails here until the page says so too.
@Suite("The documentation's tours")
struct ReadmeTourTests {
    /// The pages with a tour, each its own world (a fresh daemon and database).
    static let pagesWithTours = ["README.md", "docs/TOUR.md", "docs/EXIT-CODES.md"]

    /// The tour's world: Sunday 2026-11-22, 10:00 UTC, private runtime and data directories.
    static func environment(in directory: String) -> [String: String] {
        [
            "PATH": binaryDirectory + ":/usr/bin:/bin", "HOME": directory, "TZ": "UTC", "NO_COLOR": "1", "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": directory + "/run", "XDG_DATA_HOME": directory + "/data",
            "TODOD_TEST_NOW": "2026-11-22T10:00:00Z",
        ]
    }

    @Test("every page with a tour in it is one this suite runs")
    func everyTourRuns() throws {
        let withTours = try Documentation.pages().filter {
            try Documentation.text(of: $0).components(separatedBy: "\n").contains(ReadmeTour.start)
        }
        #expect(Set(withTours) == Set(Self.pagesWithTours), "the pages with \(ReadmeTour.start) are \(withTours)")
    }

    @Test("every command of a page's tour prints what the page shows, and events shows every change", arguments: pagesWithTours)
    func tour(page: String) async throws {
        let tour = try ReadmeTour(markdown: Documentation.text(of: page))
        #expect(tour.steps.count >= 3, "the tour of \(page) has \(tour.steps.count) commands")
        let directory = try makeTemporaryDirectory()
        let environment = Self.environment(in: directory)
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let notify = try NotifySocket(path: directory + "/notify.sock")
        defer { notify.close() }
        let daemon = try ChildProcess(
            binaryDirectory + "/todod", ["--log-level", "debug"],
            environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 })
        _ = try await notify.awaitMessage(containing: "READY=1")
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: environment)
        // The first client is events: once the daemon says so, it gets every change.
        _ = try await daemon.awaitLine(containing: "client connected")

        var transcript: [String] = []
        var differs = false
        for step in tour.steps {
            let (status, output) = try await ChildProcess.run("/bin/sh", ["-c", step.command], environment: environment)
            let actual = (output.isEmpty ? [] : output.components(separatedBy: "\n")) + (status == 0 ? [] : ["[exit \(status)]"])
            transcript += ["$ " + step.command] + actual
            if ReadmeTour.normalised(actual) != ReadmeTour.normalised(step.output) {
                differs = true
                Issue.record("`\(step.command)` printed:\n\(actual.joined(separator: "\n"))\n\(page) shows:\n\(step.output.joined(separator: "\n"))")
            }
        }
        if differs { Issue.record("the whole transcript, to paste into \(page):\n\(transcript.joined(separator: "\n"))") }

        if let lastEvent = tour.events.last {
            _ = try await events.awaitLine(containing: lastEvent, timeout: 10)
            #expect(events.output.components(separatedBy: "\n") == tour.events, "todoctl events printed:\n\(events.output)")
        }
        events.stopNow()
        daemon.signal(SIGTERM)
        let exitStatus = try await daemon.waitForExit()
        #expect(exitStatus == 0)
    }

    @Test("README's \"Try it\" lines, typed alike in a first and a second terminal, reach one daemon on its private socket")
    func tryIt() async throws {
        let blocks = ReadmeTour.tryBlocks(markdown: try Documentation.text(of: "README.md"))
        try #require(blocks.count == 2, "README.md's \(ReadmeTour.tryMarker) is followed by \(blocks.count) blocks, not the two terminals'")
        #expect(blocks[0].last == "make run", "the first terminal ends with \(blocks[0].last ?? "nothing")")
        // The private directory moves into this test's own, so that runs side by side do not
        // meet; nothing else of the lines changes. The daemon is started as `make run` ends,
        // without a build (which this test cannot run): todod, on the socket the lines name.
        let directory = try makeTemporaryDirectory()
        func typed(_ lines: [String]) -> String {
            lines.filter { $0 != "make run" }.joined(separator: "\n").replacingOccurrences(of: "/tmp/", with: directory + "/")
        }
        let setup = typed(blocks[0])
        let environment = ["PATH": binaryDirectory + ":/usr/bin:/bin", "HOME": directory, "TZ": "UTC", "LANG": "C.UTF-8"]
        let notify = try NotifySocket(path: directory + "/notify.sock")
        defer { notify.close() }
        let daemon = try ChildProcess(
            "/bin/sh", ["-c", setup + "\nexec todod"],
            environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 })
        _ = try await notify.awaitMessage(containing: "READY=1")

        let second = try await ChildProcess.run("/bin/sh", ["-c", typed(blocks[1])], environment: environment)
        #expect(second.status == 0 && second.output == "added #1 Buy milk", "the second terminal's lines printed (status \(second.status)):\n\(second.output)")
        let again = try await ChildProcess.run("/bin/sh", ["-c", setup + "\ntodoctl list"], environment: environment)
        #expect(again.status == 0 && again.output.contains("#1 [ ]   Buy milk"), "the first terminal's lines, then todoctl list, printed (status \(again.status)):\n\(again.output)")

        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
    }
}
