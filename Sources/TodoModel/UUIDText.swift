import Foundation

/// A UUID from its 36 characters (`8-4-4-4-12` hex digits, either case), as
/// `UUID(uuidString:)` reads it.
///
/// Why not `UUID(uuidString:)`: on Linux it parses with `sscanf`, which perf put at 4% of
/// the CPU of `todoctl list` of 300 todos (one id a row; docs/PERFORMANCE.md, "Start-up").
/// A test holds the two to the same answers.
public enum UUIDText {
    public static func uuid(_ text: String) -> UUID? {
        var text = text
        text.makeContiguousUTF8()
        return uuid(utf8: text.utf8.span)
    }

    /// The UUID whose text these UTF-8 bytes are: the wire reads an id from the frame's
    /// bytes without making a String of it first (an allocation per row of a list). A
    /// `Span`, not a generic collection: a generic called from another module is not
    /// specialized, and iterating through its witnesses cost 24k instructions an id
    /// (callgrind, `todoctl list` of 300).
    public static func uuid(utf8 text: Span<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes = InlineArray<16, UInt8>(repeating: 0)
        var count = 0
        var high: UInt8?
        for position in text.indices {
            let byte = text[position]
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard position < 36, let nibble = nibble(byte) else { return nil }
            if let first = high {
                bytes[count] = first << 4 | nibble
                count += 1
                high = nil
            } else {
                high = nibble
            }
        }
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
