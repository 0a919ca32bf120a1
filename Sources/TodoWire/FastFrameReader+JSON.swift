import Foundation

// The JSON underneath FastFrameReader: whitespace, literals, objects and arrays, strings
// (escapes decoded), integers, and skipping what a frame does not need. Anything it does
// not read exactly as JSONDecoder would throws `Miss`.
extension FastFrameReader {
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws(Miss) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw Miss() }
        index += 1
    }

    /// Consumes `null` if it comes next.
    mutating func isNull() throws(Miss) -> Bool {
        skipWhitespace()
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n") else { return false }
        guard bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { throw Miss() }
        index += 4
        return true
    }

    /// A key of an object, without escapes (a key with one is left to JSONDecoder).
    struct Key {
        let bytes: UnsafeRawBufferPointer

        static func ~= (name: StaticString, key: Key) -> Bool {
            name.utf8CodeUnitCount == key.bytes.count
                && memcmp(name.utf8Start, key.bytes.baseAddress!, key.bytes.count) == 0
        }
    }

    /// Calls `member` for each key of an object, with the reader at the key's value.
    mutating func object(_ member: (inout FastFrameReader, Key) throws(Miss) -> Void) throws(Miss) {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let (start, end, escaped) = try stringBounds()
            guard !escaped else { throw Miss() }
            try expect(UInt8(ascii: ":"))
            try member(&self, Key(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end])))
            skipWhitespace()
            guard index < bytes.count else { throw Miss() }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { return }
            throw Miss()
        }
    }

    mutating func array(_ element: (inout FastFrameReader) throws(Miss) -> Void) throws(Miss) {
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw Miss() }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "]") { return }
            throw Miss()
        }
    }

    /// The bytes between a string's quotes, and whether it holds an escape; the reader is
    /// left after the closing quote.
    mutating func stringBounds() throws(Miss) -> (start: Int, end: Int, escaped: Bool) {
        try expect(UInt8(ascii: "\""))
        let start = index
        var escaped = false
        while index < bytes.count {
            // Eight bytes at a time while none is a quote, a backslash or a control character.
            while index + 8 <= bytes.count, !FastFrameReader.mayEndString(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start, index - 1, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                guard index + 1 < bytes.count else { throw Miss() }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 6 <= bytes.count,
                        (2..<6).allSatisfy({ FastFrameReader.hexValue(bytes[index + $0]) != nil })
                    else { throw Miss() }
                    index += 6
                default: throw Miss()
                }
                continue
            }
            // A raw control character is not JSON.
            if byte < 0x20 { throw Miss() }
            index += 1
        }
        throw Miss()
    }

    /// Whether any of eight bytes is `"`, `\` or below 0x20 (bytes of multi-byte UTF-8
    /// characters are 0x80 and up, so they never match).
    @inline(__always)
    static func mayEndString(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
        return control || hasZeroByte(word ^ 0x2222_2222_2222_2222) || hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
    }

    mutating func string() throws(Miss) -> String {
        let (start, end, escaped) = try stringBounds()
        return try text(start, end, escaped: escaped)
    }

    /// The text between `start` and `end`, unescaped; invalid UTF-8 is left to JSONDecoder.
    func text(_ start: Int, _ end: Int, escaped: Bool) throws(Miss) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard escaped else {
            guard let text = String(validating: raw, as: UTF8.self) else { throw Miss() }
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var position = 0
        while position < raw.count {
            let byte = raw[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard position < raw.count else { throw Miss() }
            let escape = raw[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try FastFrameReader.hex4(raw, &position)
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair: the low half must follow.
                    guard position + 6 <= raw.count, raw[position] == UInt8(ascii: "\\"), raw[position + 1] == UInt8(ascii: "u")
                    else { throw Miss() }
                    position += 2
                    let low = try FastFrameReader.hex4(raw, &position)
                    guard (0xDC00..<0xE000).contains(low) else { throw Miss() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Miss() }
                out.append(contentsOf: Array(String(Character(unicode)).utf8))
            default: throw Miss()
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw Miss() }
        return text
    }

    static func hex4(_ raw: UnsafeRawBufferPointer, _ position: inout Int) throws(Miss) -> UInt32 {
        guard position + 4 <= raw.count else { throw Miss() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexValue(raw[position]) else { throw Miss() }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// An integer written as one (no fraction, no exponent, no leading zero).
    mutating func unsigned() throws(Miss) -> UInt64 {
        skipWhitespace()
        let start = index
        var value: UInt64 = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw Miss() }
            value = sum
            index += 1
        }
        let count = index - start
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { throw Miss() }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "-"), UInt8(ascii: "+"): throw Miss()
            default: break
            }
        }
        return value
    }

    mutating func signed() throws(Miss) -> Int {
        skipWhitespace()
        guard index < bytes.count else { throw Miss() }
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            let magnitude = try unsigned()
            guard magnitude <= UInt64(Int.max) + 1 else { throw Miss() }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        let value = try unsigned()
        guard value <= UInt64(Int.max) else { throw Miss() }
        return Int(value)
    }

    /// Skips any JSON value.
    mutating func skipValue() throws(Miss) {
        skipWhitespace()
        guard index < bytes.count else { throw Miss() }
        switch bytes[index] {
        case UInt8(ascii: "\""): _ = try stringBounds()
        case UInt8(ascii: "{"): try object { reader, _ throws(Miss) in try reader.skipValue() }
        case UInt8(ascii: "["): try array { reader throws(Miss) in try reader.skipValue() }
        case UInt8(ascii: "n"): guard try isNull() else { throw Miss() }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default: throw Miss()
        }
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, as RFC 8259 has it.
    mutating func skipNumber() throws(Miss) {
        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw Miss() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw Miss() }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw Miss() }
            while isDigit(index) { index += 1 }
        }
    }

    mutating func literal(_ word: StaticString) throws(Miss) {
        guard index + word.utf8CodeUnitCount <= bytes.count,
            memcmp(word.utf8Start, bytes.baseAddress! + index, word.utf8CodeUnitCount) == 0
        else { throw Miss() }
        index += word.utf8CodeUnitCount
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
