import Testing
import TodoModel
import TodoViewModel

@Suite("Dates in words")
struct DueDateParserTests {
    /// A Wednesday in a leap year, the last day of February.
    private static let leapDay = day("2024-02-29")
    /// A Sunday at the end of a year.
    private static let newYearsEve = day("2028-12-31")

    @Test("reads each form against a fixed today (Sunday 2026-11-22)", arguments: [
        ("2026-12-24", "2026-12-24"), ("today", "2026-11-22"), ("Tomorrow", "2026-11-23"), ("yesterday", "2026-11-21"),
        ("fri", "2026-11-27"), ("friday", "2026-11-27"), ("sun", "2026-11-29"), ("mon", "2026-11-23"),
        ("next mon", "2026-11-23"), ("next fri", "2026-11-27"), ("last fri", "2026-11-20"), ("last sun", "2026-11-15"),
        ("+3d", "2026-11-25"), ("+2w", "2026-12-06"), ("+1m", "2026-12-22"), ("+1y", "2027-11-22"),
        ("-1d", "2026-11-21"), ("-2w", "2026-11-08"), ("in 3 days", "2026-11-25"), ("in 2 weeks", "2026-12-06"),
        ("in a month", "2026-12-22"), ("in 1 day", "2026-11-23"), ("3 days ago", "2026-11-19"), ("a week ago", "2026-11-15"),
        ("sow", "2026-11-16"), ("eow", "2026-11-22"), ("som", "2026-11-01"), ("eom", "2026-11-30"),
        ("soy", "2026-01-01"), ("eoy", "2026-12-31"), ("next week", "2026-11-23"), ("next month", "2026-12-01"),
        ("next year", "2027-01-01"), ("dec 24", "2026-12-24"), ("24 dec", "2026-12-24"), ("December 24", "2026-12-24"),
        ("nov 22", "2026-11-22"), ("nov 21", "2027-11-21"), ("  in   3   days ", "2026-11-25"),
    ])
    func forms(text: String, expected: String) {
        #expect(DueDateParser.parse(text, today: today) == day(expected))
    }

    @Test("a Taskwarrior duration without its sign is that long from today, as due:3d is in task (it was none of the forms)", arguments: [
        ("3d", "2026-11-25"), ("2w", "2026-12-06"), ("1m", "2026-12-22"), ("1y", "2027-11-22"), ("3days", "2026-11-25"),
        ("2weeks", "2026-12-06"), ("2mo", "2027-01-22"), ("1q", "2027-02-22"),
    ])
    func unsignedDurations(text: String, expected: String) {
        #expect(DueDateParser.parse(text, today: today) == day(expected), "\(String(describing: DueDateParser.parse(text, today: today)))")
    }

    @Test("now, sod, eod and noon, where a day alone is taken (a filter, until), say that only due, wait and scheduled keep a time and what to give, not a word of another meaning (eod suggested eow)", arguments: ["now", "sod", "eod", "EOD", "noon"])
    func timesOfDay(text: String) {
        #expect(DueDateParser.parse(text, today: today) == nil)
        #expect(
            DueDateParser.impossibility(of: text) == "\(text): a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give today or tomorrow",
            "\(String(describing: DueDateParser.impossibility(of: text)))")
    }

    @Test("a day with a time of day, where a day alone is taken, says which take a time and gives the day alone (it got the generic list of forms)", arguments: [
        "2026-12-24T10:00", "2026-12-24t10:00", "2026-12-24 10:00", "2026-12-24T10:00:30",
    ])
    func dayWithTime(text: String) {
        #expect(DueDateParser.parse(text, today: today) == nil)
        #expect(
            DueDateParser.impossibility(of: text)
                == "\(text): a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give the day alone, 2026-12-24",
            "\(String(describing: DueDateParser.impossibility(of: text)))")
        #expect(DueDateParser.impossibility(of: "2026-02-30T10:00") == nil, "a day that does not exist is no day to give")
    }

    @Test("someday and later, Taskwarrior's far-off day, say that there is none here and what to give instead", arguments: ["someday", "later", "Someday"])
    func farOffDay(text: String) {
        #expect(DueDateParser.parse(text, today: today) == nil)
        #expect(
            DueDateParser.impossibility(of: text)
                == "\(text): todod has no far-off day (Taskwarrior's someday and later): leave the date out, or give a day such as eoy or +3m",
            "\(String(describing: DueDateParser.impossibility(of: text)))")
    }

    @Test("a month and a day run together, as due:feb30 gives them, are explained as with the space (feb30 was only not understood; outside probe 10)")
    func monthAndDayTogether() {
        #expect(DueDateParser.impossibility(of: "feb30") == "feb30: February has 28 days, 29 in a leap year")
        #expect(DueDateParser.impossibility(of: "apr31") == "apr31: April has 30 days")
        #expect(DueDateParser.impossibility(of: "dec24") == nil && DueDateParser.impossibility(of: "v2") == nil)
    }

    @Test("day 00 is said to be no day, not a day past the month's end (2026-02-00 said February 2026 has 28 days; outside probe)")
    func dayZero() {
        #expect(DueDateParser.impossibility(of: "2026-02-00") == "2026-02-00: there is no day 00; days run from 01 to 28 in February 2026")
        #expect(DueDateParser.impossibility(of: "2026-02-30") == "2026-02-30: February 2026 has 28 days")
        #expect(DueDateParser.impossibility(of: "feb 0") == "feb 0: there is no day 0; days run from 1")
    }

    @Test("on a Wednesday, next mon is in next week and mon is the coming one")
    func nextWeekday() {
        let wednesday = day("2026-11-25")
        #expect(DueDateParser.parse("mon", today: wednesday) == day("2026-11-30"))
        #expect(DueDateParser.parse("next mon", today: wednesday) == day("2026-11-30"))
        #expect(DueDateParser.parse("fri", today: wednesday) == day("2026-11-27"))
        #expect(DueDateParser.parse("next fri", today: wednesday) == day("2026-12-04"))
    }

    @Test("month ends and leap years: from 2024-02-29")
    func leapYear() {
        #expect(DueDateParser.parse("eom", today: Self.leapDay) == day("2024-02-29"))
        #expect(DueDateParser.parse("+1m", today: Self.leapDay) == day("2024-03-29"))
        #expect(DueDateParser.parse("+1y", today: Self.leapDay) == day("2025-02-28"))
        #expect(DueDateParser.parse("tomorrow", today: Self.leapDay) == day("2024-03-01"))
        #expect(DueDateParser.parse("feb 29", today: Self.leapDay) == day("2024-02-29"))
        #expect(DueDateParser.parse("feb 29", today: day("2024-03-01")) == day("2028-02-29"))
        #expect(DueDateParser.parse("+1m", today: day("2026-01-31")) == day("2026-02-28"))
    }

    @Test("at a year's end, the next ones are in the next year")
    func yearEnd() {
        #expect(DueDateParser.parse("tomorrow", today: Self.newYearsEve) == day("2029-01-01"))
        #expect(DueDateParser.parse("eoy", today: Self.newYearsEve) == Self.newYearsEve)
        #expect(DueDateParser.parse("next month", today: Self.newYearsEve) == day("2029-01-01"))
        #expect(DueDateParser.parse("jan 1", today: Self.newYearsEve) == day("2029-01-01"))
        #expect(DueDateParser.parse("eow", today: Self.newYearsEve) == Self.newYearsEve)
    }

    @Test("refuses what is not a date", arguments: [
        "", "soon", "fr", "next", "next fortnight", "+3x", "+d", "++3d", "+-3d", "in 3", "in three days",
        "dec 32", "32 dec", "feb 30", "2026-02-30", "+999999d", "in 3 days please", "last week", "mon dec",
        // Past the calendar's ends: refused, not clamped to 9999 or year 1.
        "+8000y", "+99999y", "-3000y", "+99999m", "in 8000 years",
    ])
    func refuses(text: String) {
        #expect(DueDateParser.parse(text, today: today) == nil)
    }

    @Test("the list of accepted forms names the new words")
    func acceptedNamesForms() {
        for form in ["eow", "eom", "eoy", "sow", "som", "next mon", "in 3 days", "dec 24", "yesterday", "-1d"] {
            #expect(DueDateParser.accepted.contains(form))
        }
    }
}
