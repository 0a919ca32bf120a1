import Foundation
import Testing

/// `todoctl calendar` lists a timed todo with its time of day, against a real daemon.
@Suite("todoctl calendar: times of day")
struct CalendarTimesTests {
    @Test("calendar's list gives a todo's time before its title, the day's timed todos first, in time order, then the whole-day ones")
    func timesInTheList() async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        for words in [
            ["add", "Buy flowers", "due:2026-12-01"],
            ["add", "Call dentist", "due:2026-12-01T15:00"],
            ["add", "Meet Ann", "due:2026-12-01T09:30"],
            ["add", "Pay rent", "due:2026-12-03"],
        ] {
            let added = try await daemon.todoctl(words, environment: fixedClock)
            #expect(added.status == 0, "\(words): \(added.stderr)")
        }
        let december = try await daemon.todoctl(["calendar", "2026-12"], environment: fixedClock.merging(["COLUMNS": "40"]) { $1 })
        #expect(december.lines.filter { $0.contains("#") } == [
            "Tu  1  #3 09:30 Meet Ann",
            "Tu  1  #2 15:00 Call dentist",
            "Tu  1  #1 Buy flowers",
            "Th  3  #4 Pay rent",
        ], "\(december.stdout)\(december.stderr)")
        try await daemon.stop()
    }
}
