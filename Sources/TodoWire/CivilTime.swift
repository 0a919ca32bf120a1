import TodoModel

/// An instant in UTC as calendar fields, for the years 1970…9999 the fast path writes and
/// reads (the day arithmetic is `LocalDate`'s, proleptic Gregorian like ISO 8601).
struct CivilTime: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int

    /// Milliseconds of 9999-12-31T23:59:59.999Z, the last the fast path handles.
    static let lastMillisecond: Int64 = 253_402_300_799_999

    init?(millisecondsSince1970 milliseconds: Int64) {
        guard milliseconds >= 0, milliseconds <= CivilTime.lastMillisecond else { return nil }
        let days = Int(milliseconds / 86_400_000)
        var rest = Int(milliseconds % 86_400_000)
        millisecond = rest % 1000
        rest /= 1000
        second = rest % 60
        rest /= 60
        minute = rest % 60
        hour = rest / 60
        let date = LocalDate(daysSince1970: days)
        (year, month, day) = (date.year, date.month, date.day)
    }

    init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= LocalDate.daysIn(month: month, year: year), (0..<24).contains(hour), (0..<60).contains(minute),
            (0..<60).contains(second), (0..<1000).contains(millisecond)
        else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.millisecond) =
            (year, month, day, hour, minute, second, millisecond)
    }

    var millisecondsSince1970: Int64 {
        // Valid by construction: `init?` checked the fields.
        let days = LocalDate(year: year, month: month, day: day)!.daysSince1970
        return Int64(days) * 86_400_000 + Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }
}
