import Foundation
import Testing

/// `--since` looks back (#27's second probe): a time later than now found nothing and said
/// "nothing to undo since then", where `+1d` was refused; `1y` got the bare list of forms.
@Suite("--since looks back")
struct SinceBoundsTests {
    @Test("a later hour today, a later day and 'in 3 days' are refused as after now, and 1y is a year back")
    func laterThanNowIsRefused() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        let added = try await daemon.todoctl("add", "Pay rent", environment: fixedClock)
        #expect(added.status == 0, "\(added.stderr)")
        // fixedClock is 09:00 UTC on 2026-11-23.
        for (command, form) in [(["log"], "14:02"), (["undo", "--yes"], "2026-11-24"), (["log"], "in 3 days"), (["burndown"], "10:00")] {
            let refused = try await run("todoctl", command + ["--since", form], environment: daemon.environment.merging(fixedClock) { $1 })
            #expect(refused.status == 64, "\(command) --since \(form): \(refused.status) \(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("later than now") || refused.stderr.contains("in the future"), "\(command) --since \(form): \(refused.stderr)")
            #expect(refused.stderr.contains("3 days ago"), "the forms are listed: \(refused.stderr)")
        }
        let year = try await daemon.todoctl("log", "--since", "1y", environment: fixedClock)
        #expect(year.status == 0 && year.lines.count == 1, "\(year.status) \(year.stdout)\(year.stderr)")
        // Nothing was taken back by the refused undo.
        let listed = try await daemon.todoctl("list", environment: fixedClock)
        #expect(listed.lines.count == 1, "\(listed.stdout)")
        try await daemon.stop()
    }
}
