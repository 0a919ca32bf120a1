import Foundation

/// A UUID made from text, the same every time (two 64-bit FNV-1a hashes, marked as a
/// version 8 UUID): a record without a UUID of its own (a todo.txt line, an iCalendar UID
/// that is not a UUID) then keeps one id across imports.
public enum StableID {
    /// The UUID for `text`: equal texts, equal UUIDs.
    public static func uuid(for text: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let high = fnv(0xcbf2_9ce4_8422_2325), low = fnv(0x84222325_cbf29ce4)
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
