import Foundation
import Synchronization
import Testing
import TodoModel
import TodoTerminal

@Suite("MidnightTimer")
struct MidnightTimerTests {
    @Test("the next midnight is the start of the next local day, also where a clock change skips midnight")
    func nextMidnight() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // 2026-11-23 22:30 UTC is 23:30 in Berlin: midnight is 23:00 UTC.
        let late = Date(timeIntervalSince1970: 1_795_473_000)
        #expect(MidnightTimer.nextMidnight(after: late, in: berlin) == Date(timeIntervalSince1970: 1_795_474_800))
        // São Paulo moved its clocks from 00:00 to 01:00 on 2018-11-04: that day began at 01:00 (03:00 UTC).
        let saoPaulo = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        let evening = Date(timeIntervalSince1970: 1_541_282_400)  // 2018-11-03 19:00 local
        #expect(MidnightTimer.nextMidnight(after: evening, in: saoPaulo) == Date(timeIntervalSince1970: 1_541_300_400))
    }

    @Test("it sleeps until midnight (no polling) and tells each new day once")
    func tellsNewDays() async throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        // A clock that moves only when the timer sleeps on it.
        let clock = Mutex((now: Date(timeIntervalSince1970: 1_795_478_400 - 90), sleeps: [Duration]()))
        let days = Mutex([LocalDate]())
        let timer = MidnightTimer(
            now: { clock.withLock { $0.now } }, timeZone: { utc },
            sleep: { duration in
                let count = clock.withLock { state in
                    state.sleeps.append(duration)
                    state.now += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                    return state.sleeps.count
                }
                if count == 3 { throw CancellationError() }
            })
        await timer.run { day in days.withLock { $0.append(day) } }
        let sleeps = clock.withLock { $0.sleeps }
        // 90 s to the first midnight, then a whole day, each a millisecond past it.
        #expect(sleeps.prefix(2) == [.milliseconds(90_001), .milliseconds(86_400_000)])
        #expect(days.withLock { $0 } == [LocalDate(year: 2026, month: 11, day: 24)!, LocalDate(year: 2026, month: 11, day: 25)!])
    }
}
