import Foundation

/// How a person or a script names a todo: its number (`3`, `#3`), its UUID, or a unique
/// prefix of its UUID of at least 8 hex digits.
public enum TodoRef: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Int)
    case id(UUID)
    case idPrefix(String)

    /// The shortest UUID prefix that is accepted.
    public static let minimumPrefixLength = 8

    /// Parses `3`, `#3`, a UUID, or a UUID prefix; nil when it is none of them. It is
    /// strict, as the protocol documents: no spaces, no sign, no leading zero; eight bare
    /// digits or more are a UUID prefix (one id in 43 starts so), and `#` makes a number.
    public init?(_ text: String) {
        let marked = text.hasPrefix("#")
        let digits = marked ? text.dropFirst() : Substring(text)
        let isDecimal = !digits.isEmpty && digits.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        if isDecimal, marked || digits.count < TodoRef.minimumPrefixLength {
            guard digits.first != "0", let number = Int(digits) else { return nil }
            self = .number(number)
        } else if let uuid = UUIDText.uuid(text) {
            self = .id(uuid)
        } else if !marked, text.count >= TodoRef.minimumPrefixLength, text.count < 36,
            text.utf8.allSatisfy({ Self.isHexDigitOrHyphen($0) })
        {
            self = .idPrefix(text.lowercased())
        } else {
            return nil
        }
    }

    private static func isHexDigitOrHyphen(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "-"):
            true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "#\(number)"
        case .id(let id): id.uuidString.lowercased()
        case .idPrefix(let prefix): prefix
        }
    }

    /// Whether `todo` is the one this reference names.
    public func matches(_ todo: Todo) -> Bool {
        switch self {
        case .number(let number): todo.number == number
        case .id(let id): todo.id == id
        case .idPrefix(let prefix): todo.id.uuidString.lowercased().hasPrefix(prefix)
        }
    }

    // Wire form: the text a person would type ("#3", a UUID, a prefix).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            guard number > 0 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "todo numbers start at 1, not \(number)"))
            }
            self = .number(number)
            return
        }
        guard let text = try? container.decode(String.self) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath,
                      debugDescription: "a todo reference is a todo number (3, or \"#3\"), a UUID or a UUID prefix of 8+ hex digits in a string"))
        }
        guard let ref = TodoRef(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath,
                      debugDescription: "\"\(text)\" is not a todo number, UUID or UUID prefix of 8+ characters"))
        }
        self = ref
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        default: try container.encode(description)
        }
    }
}
