import Foundation
import TodoModel
import TodoViewModel

/// A `Decoder` over a `JSONDocument`: the types' own `Decodable` conformances read the
/// frame, so their `init(from:)` stays the one definition of the JSON shape.
///
/// A few types are read here directly, to the same result their conformance gives but
/// faster: instants (`2026-11-22T09:30:00.123Z`), UUIDs, due dates (each different day
/// once per frame), list rows (`TodoViewModel`, whose "today" is asked of the codec's
/// day once per frame, not once per row) and a todo's detail.
struct WireDecoder: Decoder {
    let document: JSONDocument
    let node: Int
    let context: Context
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// What one frame's decoding shares across its values.
    final class Context {
        /// Where the rows' day comes from (`WireCodec.today`); none: rows without a day.
        let day: WireCodec.Today?
        /// Where the minute comes from (`WireCodec.now`); none: rows read by the day.
        let time: WireCodec.Now?
        private var today: LocalDate?
        private var now: TimeOfDay?
        var dates: [Int: LocalDate] = [:]

        init(day: WireCodec.Today? = nil, time: WireCodec.Now? = nil) {
            self.day = day
            self.time = time
        }

        /// The minute this frame's rows are read at, asked once per frame.
        var currentTime: TimeOfDay? {
            if let now { return now }
            now = time?()
            return now
        }

        /// The day this frame's rows are read against, asked once per frame.
        var currentDay: LocalDate? {
            if let today { return today }
            today = day?()
            return today
        }
    }

    init(document: JSONDocument, node: Int = 0, context: Context = Context()) {
        self.document = document
        self.node = node
        self.context = context
    }

    /// Where this value is, found from the document when asked (for an error's words):
    /// keeping a path per value cost an allocation per value read, a third of the time a
    /// client took to read a list of 10,000 todos.
    var codingPath: [any CodingKey] { document.codingPath(to: node) }

    var kind: JSONDocument.Kind { document.nodes[node].kind }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard kind == .object else { throw mismatch([String: Any].self, "an object") }
        return KeyedDecodingContainer(WireKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard kind == .array else { throw mismatch([Any].self, "an array") }
        return WireUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A decoder for the child value at `child`.
    func child(_ child: Int) -> WireDecoder {
        WireDecoder(document: document, node: child, context: context)
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let found: String = switch kind {
        case .null: "null"
        case .true, .false: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
        if kind == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }

    func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
    }

    /// The text of a string value.
    func text() throws -> String {
        guard kind == .string else { throw mismatch(String.self, "a string") }
        return document.string(node)
    }

    /// A string's UTF-8 as it stands in the frame, when it holds no escape (nil when it
    /// does): ids and times are read from these bytes, with no String made per value.
    func plainText() throws -> ArraySlice<UInt8>? {
        guard kind == .string else { throw mismatch(String.self, "a string") }
        let node = document.nodes[node]
        return node.escaped ? nil : document.bytes[node.start..<node.end]
    }

    /// An integer written as one: no fraction, no exponent, within `T`'s range.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard kind == .number else { throw mismatch(type, "an integer") }
        let node = document.nodes[node]
        let digits = document.bytes[node.start..<node.end]
        var value: T = 0
        var index = digits.startIndex
        let negative = digits[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        while index < digits.endIndex {
            let byte = digits[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let digit = T(byte - UInt8(ascii: "0"))
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { throw corrupted("\(String(decoding: digits, as: UTF8.self)) does not fit \(T.self)") }
            value = sum
            index += 1
        }
        guard index == digits.endIndex else {
            throw corrupted("expected an integer, found \(String(decoding: digits, as: UTF8.self))")
        }
        return value
    }

    func floatingPoint() throws -> Double {
        guard kind == .number else { throw mismatch(Double.self, "a number") }
        let node = document.nodes[node]
        let text = String(decoding: document.bytes[node.start..<node.end], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw corrupted("\(text) does not fit Double") }
        return value
    }

    /// Values with a faster reading here than through their own conformance (same result).
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try text() as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is UInt64.Type: return try integer(UInt64.self) as! T
        case is Bool.Type: return try decode(Bool.self) as! T
        case is Date.Type: return try instant() as! T
        case is UUID.Type: return try uuid() as! T
        case is LocalDate.Type: return try date() as! T
        case is Todo.Type: return try todo() as! T
        case is TodoViewModel.Type:
            return TodoViewModel(try todo(), today: context.currentDay, now: context.currentTime) as! T
        case is TodoRows.Type:
            return TodoRows(try elements(as: TodoRows.self) { TodoViewModel(try $0.todo(row: true), today: context.currentDay, now: context.currentTime) }) as! T
        case is TodoDetailViewModel.Type: return try detail() as! T
        default: return try T(from: self)
        }
    }

    /// `2026-11-22T09:30:00.123Z` read from its digits; any other ISO 8601 form as
    /// `WireCodec.parseTimestamp` reads it.
    func instant() throws -> Date {
        if let utf8 = try plainText(), let date = Self.instant(utf8) { return date }
        let text = try text()
        guard let date = Self.instant(Array(text.utf8)[...]) ?? WireCodec.parseTimestamp(text) else {
            throw corrupted("\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }

    /// The instant of `yyyy-MM-ddTHH:mm:ss.SSSZ`, the form every encoder writes, or nil.
    private static func instant(_ utf8: ArraySlice<UInt8>) -> Date? {
        let at = utf8.startIndex
        guard utf8.count == 24, utf8[at + 4] == UInt8(ascii: "-"), utf8[at + 7] == UInt8(ascii: "-"),
            utf8[at + 10] == UInt8(ascii: "T"), utf8[at + 13] == UInt8(ascii: ":"), utf8[at + 16] == UInt8(ascii: ":"),
            utf8[at + 19] == UInt8(ascii: "."), utf8[at + 23] == UInt8(ascii: "Z"),
            let year = Self.digits(utf8, 0, 4), let month = Self.digits(utf8, 5, 2), let day = Self.digits(utf8, 8, 2),
            let hour = Self.digits(utf8, 11, 2), let minute = Self.digits(utf8, 14, 2),
            let second = Self.digits(utf8, 17, 2), let millisecond = Self.digits(utf8, 20, 3),
            let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                  millisecond: millisecond)
        else { return nil }
        return Date(millisecondsSince1970: civil.millisecondsSince1970)
    }

    /// A due date, through `LocalDate.init(from:)` once per different day in the frame.
    func date() throws -> LocalDate {
        guard let utf8 = try plainText(), utf8.count == 10,
            utf8[utf8.startIndex + 4] == UInt8(ascii: "-"), utf8[utf8.startIndex + 7] == UInt8(ascii: "-"),
            let year = Self.digits(utf8, 0, 4), let month = Self.digits(utf8, 5, 2), let day = Self.digits(utf8, 8, 2)
        else { return try LocalDate(from: self) }
        let key = year * 10_000 + month * 100 + day
        if let known = context.dates[key] { return known }
        let date = try LocalDate(from: self)
        context.dates[key] = date
        return date
    }

    /// The number written by `count` digits from `offset` into `utf8`, or nil.
    private static func digits(_ utf8: ArraySlice<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        let start = utf8.startIndex + offset
        for byte in utf8[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension WireDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(type, "true or false")
        }
    }

    func decode(_ type: String.Type) throws -> String { try text() }
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint() }
    func decode(_ type: Float.Type) throws -> Float { Float(try floatingPoint()) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
