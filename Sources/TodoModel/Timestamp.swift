import Foundation

extension Date {
    /// Whole milliseconds since 1970: how todod stores and sends instants, so that a
    /// todo read back from the database or the wire equals the one that was written.
    /// Rounded, not truncated: a millisecond made into a `Date` is a binary fraction a
    /// hair below it.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This instant at the nearest whole millisecond.
    public var roundedToMilliseconds: Date {
        Date(millisecondsSince1970: millisecondsSince1970)
    }
}
