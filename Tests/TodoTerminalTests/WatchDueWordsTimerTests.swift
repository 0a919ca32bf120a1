import Testing

@testable import TodoTerminal

/// When watch's one timer for its rows' due times wakes (`WatchScreen.minutesToNextWords`).
@Suite("When watch says a due time again")
struct WatchDueWordsTimerTests {
    @Test("Each minute while a row says minutes either way; at the next whole hour while it says hours, ahead (in 2 h) and overdue (1 h overdue)")
    func nextWords() {
        #expect(WatchScreen.minutesToNextWords(dueIn: 45) == 1)
        #expect(WatchScreen.minutesToNextWords(dueIn: 0) == 1)
        #expect(WatchScreen.minutesToNextWords(dueIn: -59) == 1)
        // in 2 h until 119 minutes ahead (in 1 h), and in 1 h until 59 (in 59 min).
        #expect(WatchScreen.minutesToNextWords(dueIn: 120) == 1)
        #expect(WatchScreen.minutesToNextWords(dueIn: 179) == 60)
        #expect(WatchScreen.minutesToNextWords(dueIn: 61) == 2)
        // 1 h overdue from 60 minutes behind to 119, 2 h overdue from 120.
        #expect(WatchScreen.minutesToNextWords(dueIn: -60) == 60)
        #expect(WatchScreen.minutesToNextWords(dueIn: -119) == 1)
    }
}
