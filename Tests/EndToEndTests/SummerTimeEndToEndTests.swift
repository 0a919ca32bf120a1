import Foundation
import Testing

/// Times of day across Berlin's changes of summer time, typed to a real todoctl and daemon in
/// that zone: clocks go from 02:00 to 03:00 on 2027-03-28, from 03:00 back to 02:00 on 2026-10-25.
@Suite("Times across summer time end to end")
struct SummerTimeEndToEndTests {
    let env = ["TZ": "Europe/Berlin"]

    @Test("A time the clocks skip is refused saying the gap and what to write, by due:, --due and edit; one they show twice is taken, and goes to task as the first")
    func skippedRefusedTwiceTaken() async throws {
        let daemon = try await DaemonProcess.start(environment: env)
        let gap = "2027-03-28 02:30 does not exist in Europe/Berlin: clocks go from 02:00 to 03:00; write 03:00 or 01:59"
        for words in [["add", "Night train", "due:2027-03-28T02:30"], ["add", "Night train", "--due", "2027-03-28 02:30"],
                      ["add", "Night train", "wait:2027-03-28@2:30am"]] {
            let refused = try await daemon.todoctl(words, environment: env)
            #expect(refused.status == 64 && refused.stderr.contains(gap), "\(words): \(refused.stdout)\(refused.stderr)")
        }
        let early = try await daemon.todoctl("add", "Night train", "due:2027-03-28T02:00", environment: env)
        #expect(early.status == 64 && early.stderr.contains("2027-03-28 02:00 does not exist in Europe/Berlin"), "\(early.stderr)")
        #expect(try await daemon.todoctl("add", "Night bus", "due:2027-03-28T03:00", environment: env).status == 0)
        let edited = try await daemon.todoctl("edit", "1", "due:2027-03-28T02:59", environment: env)
        #expect(edited.status == 64 && edited.stderr.contains("2027-03-28 02:59 does not exist in Europe/Berlin"), "\(edited.stderr)")

        let twice = try await daemon.todoctl("add", "Last bus", "due:2026-10-25T02:30", environment: env)
        #expect(twice.status == 0, "\(twice.stderr)")
        let dues = try await taskDues(exportedBy: daemon, environment: env)
        #expect(dues["Last bus"] == "20261025T003000Z" && dues["Night bus"] == "20270328T010000Z", "\(dues)")
        try await daemon.stop()
    }

    @Test("log --since a minute the clocks show twice is its first, as the formats read it: a change at 02:45 summer time is since 02:30 (mktime took the second 02:30, after it)")
    func sinceTwiceIsTheFirst() async throws {
        let summer = env.merging(["TODOD_TEST_NOW": "2026-10-25T00:45:00Z"]) { $1 }
        let daemon = try await DaemonProcess.start(environment: summer)
        #expect(try await daemon.todoctl("add", "Change the clocks", environment: summer).status == 0)
        let later = env.merging(["TODOD_TEST_NOW": "2026-10-25T03:00:00Z"]) { $1 }
        let log = try await daemon.todoctl("log", "--since", "2026-10-25 02:30", environment: later)
        #expect(log.status == 0 && log.stdout.contains("Change the clocks"), "\(log.stdout)\(log.stderr)")
        try await daemon.stop()
    }

    @Test("A time with a zone says zones are not taken and the local time to write; a day that does not exist before a time says so; 24:00 says to write 00:00 with the next day, or eod")
    func dateMessages() async throws {
        let daemon = try await DaemonProcess.start(environment: env)
        let cases = [
            "due:2026-12-24T15:00Z": "a zone (Z, +02:00) is not taken: write the local time, 2026-12-24T16:00",
            "due:2026-12-24T15:00+02:00": "a zone (Z, +02:00) is not taken: write the local time, 2026-12-24T14:00",
            "due:2026-02-30T10:00": "2026-02-30: February 2026 has 28 days",
            "due:2026-12-24T24:00": "there is no hour 24; hours run from 00 to 23: write 00:00 with the next day, or eod (23:59)",
        ]
        for (word, message) in cases {
            let refused = try await daemon.todoctl("add", "Call", word, environment: env)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(word): \(refused.stderr)")
            #expect(!refused.stderr.contains("not understood as a date"), "\(word): \(refused.stderr)")
        }
        let option = try await daemon.todoctl("add", "Call", "--due", "2026-12-24T15:00Z", environment: env)
        #expect(option.status == 64 && option.stderr.contains("write the local time, 2026-12-24T16:00"), "\(option.stderr)")
        try await daemon.stop()
    }
}
