import Foundation
import Testing

/// burndown's bounds, found from outside (#27's probe): a --since centuries back drew a
/// line a day from year 1; a width of 10 or of 99,999 columns was taken as given.
@Suite("todoctl burndown within bounds")
struct BurndownBoundsTests {
    @Test("--since before the journal began starts at its first change, and says so")
    func sinceBeforeTheJournal() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await daemon.todoctl("add", "Pay rent", environment: fixedClock)
        let drawn = try await daemon.todoctl("burndown", "--since", "0001-01-01", environment: fixedClock.merging(["COLUMNS": "40"]) { $1 })
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.lines.count < 10, "\(drawn.lines.count) lines")
        #expect(drawn.stderr.contains("the journal begins on 2026-11-23: drawn from there"), "\(drawn.stderr)")
        let json = try jsonArray(try await daemon.todoctl("burndown", "--json", "--since", "0001-01-01", environment: fixedClock).stdout)
        #expect(json.count == 1, "\(json.count)")
        try await daemon.stop()
    }

    @Test("COLUMNS=10 says how many columns burndown needs (14: it draws narrower than 32 now); COLUMNS=99999 draws lines no wider than the cap")
    func widths() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await daemon.todoctl("add", "Pay rent", environment: fixedClock)
        let narrow = try await daemon.todoctl("burndown", environment: fixedClock.merging(["COLUMNS": "10"]) { $1 })
        #expect(narrow.status == 64, "\(narrow.status) \(narrow.stdout)")
        #expect(narrow.stderr.contains("burndown needs 14 columns to draw; this terminal has 10"), "\(narrow.stderr)")
        let wide = try await daemon.todoctl("burndown", environment: fixedClock.merging(["COLUMNS": "99999"]) { $1 })
        #expect(wide.status == 0 && wide.lines.allSatisfy { $0.count <= 500 }, "\(wide.lines.map(\.count).max() ?? 0)")
        try await daemon.stop()
    }
}
