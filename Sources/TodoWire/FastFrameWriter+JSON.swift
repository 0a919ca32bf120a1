import Foundation
import TodoModel

// The JSON underneath FastFrameWriter: room, bytes, strings (escaped as JSONEncoder
// escapes them), numbers, dates, instants and UUIDs, each stored without a check once
// its piece has reserved room.
extension FastFrameWriter {
    // MARK: Room

    /// Makes room for `bound` more bytes: every write below stores without checking.
    mutating func reserve(_ bound: Int) {
        guard count + bound > capacity else { return }
        var grown = capacity * 2
        while count + bound > grown { grown *= 2 }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
        larger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    /// The most bytes `string(_:)` writes for `text`: quotes, and every byte escaped as `\u00xx`.
    static func bound(_ text: String) -> Int { 2 + 6 * text.utf8.count }

    static func bound(_ strings: [String]) -> Int {
        strings.reduce(2) { $0 + 1 + bound($1) }
    }

    static func bound(_ filter: TodoFilter) -> Int {
        64 + (filter.search.map(bound) ?? 0) + (filter.tag.map(bound) ?? 0)
    }

    // MARK: Values (room reserved by the caller)

    mutating func byte(_ value: UInt8) {
        base.storeBytes(of: value, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    mutating func raw(_ text: StaticString) {
        (base + count).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// `{"priority":…,"search":…,"status":…,"tag":…}`, nil fields left out.
    mutating func filter(_ filter: TodoFilter) {
        if let priority = filter.priority {
            raw("{\"priority\":")
            string(priority.rawValue)
            raw(",")
        } else {
            raw("{")
        }
        if let search = filter.search {
            raw("\"search\":")
            string(search)
            raw(",")
        }
        raw("\"status\":")
        string(filter.status.rawValue)
        if let tag = filter.tag {
            raw(",\"tag\":")
            string(tag)
        }
        raw("}")
    }

    mutating func strings(_ values: [String]) {
        byte(UInt8(ascii: "["))
        for index in values.indices {
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(values[index])
        }
        byte(UInt8(ascii: "]"))
    }

    /// A JSON string escaped as `JSONEncoder` escapes it: `"` and `\`, the control
    /// characters (`\b \t \n \f \r`, else `\u00xx`); `/` and everything else as it is.
    mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        if value.utf8.withContiguousStorageIfAvailable({ escape($0) }) == nil {
            escape(Array(value.utf8))
        }
        byte(UInt8(ascii: "\""))
    }

    mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        // A plain loop over a pointer: fast in debug builds too, where iterators are not.
        guard let source = utf8.baseAddress else { return }
        let length = utf8.count
        var start = 0
        var index = 0
        while index < length {
            let unit = source[index]
            if unit >= 0x20 && unit != UInt8(ascii: "\"") && unit != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            (base + count).copyMemory(from: source + start, byteCount: index - start)
            count += index - start
            index += 1
            start = index
            byte(UInt8(ascii: "\\"))
            switch unit {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte(unit)
            case 0x08: byte(UInt8(ascii: "b"))
            case 0x09: byte(UInt8(ascii: "t"))
            case 0x0A: byte(UInt8(ascii: "n"))
            case 0x0C: byte(UInt8(ascii: "f"))
            case 0x0D: byte(UInt8(ascii: "r"))
            default:
                raw("u00")
                byte(FastFrameWriter.hexDigit(unit >> 4))
                byte(FastFrameWriter.hexDigit(unit & 0xF))
            }
        }
        (base + count).copyMemory(from: source + start, byteCount: length - start)
        count += length - start
    }

    mutating func escape(_ utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { escape($0) }
    }

    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    mutating func signed<T: BinaryInteger>(_ value: T) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            // The magnitude of Int.min does not fit an Int; it does a UInt64.
            unsigned(UInt64(value.magnitude))
        } else {
            unsigned(UInt64(value))
        }
    }

    mutating func unsigned(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// "00" "01" … "99": two digits per table lookup.
    static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Two digits, zero-padded (`0…99`).
    mutating func two(_ value: Int) {
        (base + count).copyMemory(from: FastFrameWriter.pairs.utf8Start + 2 * value, byteCount: 2)
        count += 2
    }

    /// Four digits, zero-padded (`0…9999`).
    mutating func four(_ value: Int) {
        two(value / 100)
        two(value % 100)
    }

    /// `"2026-11-30"` (LocalDate keeps years within 1…9999).
    mutating func date(_ date: LocalDate) {
        byte(UInt8(ascii: "\""))
        day(year: date.year, month: date.month, day: date.day)
        byte(UInt8(ascii: "\""))
    }

    /// `2026-11-30`, the calendar day of a date and of an instant.
    mutating func day(year: Int, month: Int, day: Int) {
        four(year)
        byte(UInt8(ascii: "-"))
        two(month)
        byte(UInt8(ascii: "-"))
        two(day)
    }

    /// `"2026-11-22T09:30:00.123Z"`, or `null`.
    mutating func instant(_ date: Date?) {
        guard let date else { return raw("null") }
        byte(UInt8(ascii: "\""))
        if let civil = CivilTime(millisecondsSince1970: date.millisecondsSince1970) {
            day(year: civil.year, month: civil.month, day: civil.day)
            byte(UInt8(ascii: "T"))
            two(civil.hour)
            byte(UInt8(ascii: ":"))
            two(civil.minute)
            byte(UInt8(ascii: ":"))
            two(civil.second)
            byte(UInt8(ascii: "."))
            byte(UInt8(ascii: "0") + UInt8(civil.millisecond / 100))
            two(civil.millisecond % 100)
            byte(UInt8(ascii: "Z"))
        } else {
            // Before 1970 or after 9999: Foundation's formatter, as JSONEncoder would
            // (at most 40 bytes: a six-digit year with its sign).
            for unit in WireCodec.timestamp(date).utf8.prefix(40) { byte(unit) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// `"fc1cd20f-e7e3-40a4-a32d-59bb4c36daa9"`: lowercase, as `Todo` encodes its id.
    mutating func uuid(_ id: UUID) {
        byte(UInt8(ascii: "\""))
        var raw = id.uuid
        withUnsafeBytes(of: &raw) { bytes in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { byte(UInt8(ascii: "-")) }
                byte(FastFrameWriter.hexDigit(bytes[index] >> 4))
                byte(FastFrameWriter.hexDigit(bytes[index] & 0xF))
            }
        }
        byte(UInt8(ascii: "\""))
    }
}
