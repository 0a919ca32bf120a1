import Foundation

/// Any JSON value, kept as written: another program's fields that todod does not know
/// travel through it untouched (a number stays a number).
public enum InteropJSON: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([InteropJSON])
    case object([String: InteropJSON])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let value = try? c.decode(Bool.self) { self = .bool(value) }
        else if let value = try? c.decode(Double.self) { self = .number(value) }
        else if let value = try? c.decode(String.self) { self = .string(value) }
        else if let value = try? c.decode([InteropJSON].self) { self = .array(value) }
        else { self = .object(try c.decode([String: InteropJSON].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let value): try c.encode(value)
        case .number(let value): try c.encode(value)
        case .string(let value): try c.encode(value)
        case .array(let value): try c.encode(value)
        case .object(let value): try c.encode(value)
        }
    }

    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// Compact JSON text with sorted keys, so that the same value is always the same text.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The value `text` holds, or nil when it is not JSON.
    public init?(text: String) {
        guard let value = try? JSONDecoder().decode(InteropJSON.self, from: Data(text.utf8)) else { return nil }
        self = value
    }
}
