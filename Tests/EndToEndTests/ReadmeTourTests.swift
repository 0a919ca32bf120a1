import Foundation
import Testing

/// The README is true: its tour runs against a fresh daemon with a fixed clock, and a
/// change that alters any output fails here until README.md says so too.
@Suite("README.md's tour")
struct ReadmeTourTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../README.md").standardized.path

    /// The tour's world: Sunday 2026-11-22, 10:00 UTC, private runtime and data directories.
    static func environment(in directory: String) -> [String: String] {
        [
            "PATH": binaryDirectory + ":/usr/bin:/bin", "HOME": directory, "TZ": "UTC", "NO_COLOR": "1", "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": directory + "/run", "XDG_DATA_HOME": directory + "/data",
            "TODOD_TEST_NOW": "2026-11-22T10:00:00Z",
        ]
    }

    @Test("every command of the tour prints what the README shows, and events shows every change")
    func tour() async throws {
        let tour = try ReadmeTour(markdown: String(contentsOfFile: Self.readme, encoding: .utf8))
        #expect(tour.steps.count >= 10, "the tour is there")
        let directory = try makeTemporaryDirectory()
        let environment = Self.environment(in: directory)
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let notify = try NotifyListener(path: directory + "/notify.sock")
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
                Issue.record("`\(step.command)` printed:\n\(actual.joined(separator: "\n"))\nREADME.md shows:\n\(step.output.joined(separator: "\n"))")
            }
        }
        if differs { Issue.record("the whole transcript, to paste into README.md:\n\(transcript.joined(separator: "\n"))") }

        if let lastEvent = tour.events.last {
            _ = try await events.awaitLine(containing: lastEvent, timeout: 10)
        }
        #expect(events.output.components(separatedBy: "\n") == tour.events, "todoctl events printed:\n\(events.output)")
        events.stopNow()
        daemon.signal(SIGTERM)
        let exitStatus = try await daemon.waitForExit()
        #expect(exitStatus == 0)
    }
}
