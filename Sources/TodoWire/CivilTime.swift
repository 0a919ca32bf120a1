/// An instant in UTC as calendar fields, for the years 1970…9999 the fast path writes and
/// reads (Howard Hinnant's days-from-civil algorithms, proleptic Gregorian like ISO 8601).
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
        // civil_from_days, for days ≥ 0.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CivilTime.daysIn(month: month, year: year), (0..<24).contains(hour), (0..<60).contains(minute),
            (0..<60).contains(second), (0..<1000).contains(millisecond)
        else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.millisecond) =
            (year, month, day, hour, minute, second, millisecond)
    }

    var millisecondsSince1970: Int64 {
        // days_from_civil, for years ≥ 1970.
        let y = year - (month <= 2 ? 1 : 0)
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days) * 86_400_000 + Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
