import Foundation

/// JSON bytes being written, the scalars escaped and formatted as `JSONEncoder` writes
/// them with the protocol's settings.
struct JSONOutput {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string escaped as `JSONEncoder` escapes it: `"` and `\`, the control
    /// characters (`\b \t \n \f \r`, else `\u00xx`); `/` and everything else as it is.
    mutating func string(_ text: String) {
        JSONOutput.string(text, into: &bytes)
    }

    static func string<Sink: JSONSink>(_ text: String, into bytes: inout Sink) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        if !utf8.contains(where: JSONOutput.needsEscape) {
            // The common case: one copy of the whole text.
            bytes.append(contentsOf: utf8)
        } else {
            for unit in utf8 {
                guard JSONOutput.needsEscape(unit) else {
                    bytes.append(unit)
                    continue
                }
                bytes.append(UInt8(ascii: "\\"))
                switch unit {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(unit)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              JSONOutput.hexDigit(unit >> 4), JSONOutput.hexDigit(unit & 0xF)])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How many bytes `string(_:)` writes for `text`.
    static func stringByteCount(_ text: String) -> Int {
        text.utf8.reduce(2) { count, unit in
            guard needsEscape(unit) else { return count + 1 }
            switch unit {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: return count + 2
            default: return count + 6
            }
        }
    }

    private static func needsEscape(_ unit: UInt8) -> Bool {
        unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\")
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    mutating func integer<T: BinaryInteger>(_ value: T) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// The shortest text that reads back as `value`, `3` rather than `3.0` (as JSONEncoder writes it).
    mutating func double(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// `"2026-11-22T09:30:00.123Z"`.
    mutating func instant(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        if let civil = CivilTime(millisecondsSince1970: date.millisecondsSince1970) {
            digits(civil.year, 4)
            bytes.append(UInt8(ascii: "-"))
            digits(civil.month, 2)
            bytes.append(UInt8(ascii: "-"))
            digits(civil.day, 2)
            bytes.append(UInt8(ascii: "T"))
            digits(civil.hour, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(civil.minute, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(civil.second, 2)
            bytes.append(UInt8(ascii: "."))
            digits(civil.millisecond, 3)
            bytes.append(UInt8(ascii: "Z"))
        } else {
            // Before 1970 or after 9999: Foundation's formatter, as JSONEncoder would.
            bytes.append(contentsOf: WireCodec.timestamp(date).utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` (non-negative) in `count` digits, zero-padded.
    private mutating func digits(_ value: Int, _ count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

/// Where JSON bytes go: an array (a todo's cached bytes, the scratch) or the `ByteBuffer`
/// a frame is sent in, written once, without a copy between the two.
protocol JSONSink {
    mutating func append(_ byte: UInt8)
    mutating func append<Bytes: Sequence<UInt8>>(contentsOf bytes: Bytes)
    /// Makes room for `count` more bytes.
    mutating func reserve(_ count: Int)
}

extension Array: JSONSink where Element == UInt8 {
    mutating func reserve(_ count: Int) { reserveCapacity(self.count + count) }
}
