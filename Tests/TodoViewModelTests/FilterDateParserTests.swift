import Testing
import TodoModel
import TodoViewModel

@Suite("Dates in filters")
struct FilterDateParserTests {
    private let monday = LocalDate("2026-11-23")!

    @Test("take every word --due takes")
    func dueWords() {
        for word in ["today", "tomorrow", "fri", "+3d", "+2w", "2026-12-24"] {
            #expect(FilterDateParser.parse(word, today: monday) == DueDateParser.parse(word, today: monday), "\(word)")
        }
    }

    @Test("and the past: yesterday, -Nd, -Nw")
    func past() {
        #expect(FilterDateParser.parse("yesterday", today: monday) == LocalDate("2026-11-22"))
        #expect(FilterDateParser.parse("-1d", today: monday) == LocalDate("2026-11-22"))
        #expect(FilterDateParser.parse("-2w", today: monday) == LocalDate("2026-11-09"))
        #expect(FilterDateParser.parse("-x", today: monday) == nil)
    }
}
