/// A time of day on the wall clock (`15:00`), kept beside a day (`Todo.dueTime` beside
/// `Todo.due`) when a date has one, coded as `"HH:MM"`.
///
/// Minutes since midnight, without a zone: the day it goes with is a local day, and the
/// daemon and its clients read the one zone of the machine they share (`LocalMinute`). A
/// todo without one is due (waits, is scheduled) for the whole day, as before times existed.
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// 0 (00:00) … 1439 (23:59).
    public let minutes: Int

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// A valid time, or nil (`24:00` and `12:60` are nil).
    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        minutes = hour * 60 + minute
    }

    /// 0 … 1439, or nil.
    public init?(minutes: Int) {
        guard (0..<1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// Parses `HH:MM`, as `description` writes it.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            bytes.indices.allSatisfy({ $0 == 2 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) })
        else { return nil }
        func digit(_ index: Int) -> Int { Int(bytes[index] - UInt8(ascii: "0")) }
        self.init(hour: digit(0) * 10 + digit(1), minute: digit(3) * 10 + digit(4))
    }

    /// Taskwarrior's `eod`: the last minute of the day.
    public static let endOfDay = TimeOfDay(minutes: 1439)!

    /// `15:00`
    public var description: String {
        "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = TimeOfDay(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a time of day HH:MM, got \"\(text)\""))
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension LocalMinute {
    /// The time of day of this minute.
    public var timeOfDay: TimeOfDay { TimeOfDay(hour: hour, minute: minute) ?? .endOfDay }
}

extension LocalDate {
    /// `2026-11-28 23:00` with a time, `2026-11-28` without: how show, history and undo
    /// say a due, wait or scheduled day, so that a change of its time reads as a change.
    public func described(at time: TimeOfDay?) -> String {
        time.map { "\(self) \($0)" } ?? description
    }
}
