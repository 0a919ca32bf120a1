import Foundation
import TestHarness
import Testing

/// `scheduled:` through the real todoctl and todod: kept, shown, filtered and weighed by next.
@Suite("scheduled end to end")
struct ScheduledEndToEndTests {
    @Test("add … scheduled:DATE keeps the day (it was refused as not kept): show says it, scheduled.before: finds it, next weighs one whose day has come and not one still ahead; an empty scheduled: unschedules")
    func keptShownFilteredWeighed() async throws {
        let directory = try makeTemporaryDirectory()
        let env = ["TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: env)
        let added = try await daemon.todoctl("add", "Paint the fence", "scheduled:2020-05-02", environment: env)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        _ = try await daemon.todoctl("add", "Mow the lawn", "scheduled:2099-06-01", environment: env)
        _ = try await daemon.todoctl("add", "Read", environment: env)

        #expect(try await daemon.todoctl("show", "1", environment: env).stdout.contains("\n  scheduled 2020-05-02\n"))
        let before = try await daemon.todoctl("list", "scheduled.before:2030-01-01", environment: env)
        #expect(before.lines.count == 1 && before.stdout.contains("Paint the fence"), "\(before.stdout)\(before.stderr)")
        let after = try await daemon.todoctl("list", "scheduled.after:2030-01-01", environment: env)
        #expect(after.lines.count == 1 && after.stdout.contains("Mow the lawn"), "\(after.stdout)\(after.stderr)")
        let next = try await daemon.todoctl("next", environment: env)
        #expect(next.lines.count == 1 && next.stdout.contains("Paint the fence"), "\(next.stdout)")

        #expect(try await daemon.todoctl("edit", "1", "scheduled:", environment: env).status == 0)
        #expect(try await daemon.todoctl("show", "1", environment: env).stdout.contains("scheduled") == false)
        try await daemon.stop()
    }
}
