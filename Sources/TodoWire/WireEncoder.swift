import Foundation
import TodoModel
import TodoViewModel

/// An `Encoder` that writes the protocol's JSON bytes: the types' own `encode(to:)` say
/// what goes out, so their conformances stay the one definition of the JSON shape.
///
/// Scalars are written at once into a shared scratch buffer; objects and arrays are kept
/// as small trees of those pieces, since an object's keys go out sorted, and written once
/// at the end (`EncodedValue.write`). The output is byte for byte what `JSONEncoder`
/// writes with the protocol's settings (sorted keys, unescaped slashes, instants as
/// `WireCodec.timestamp`): `WireEncoderTests` compares the two for every event.
final class WireEncoder: Encoder {
    let scratch: EncodingScratch
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What `encode(to:)` made of this encoder's value.
    private(set) var value: EncodedValue?

    init(scratch: EncodingScratch, codingPath: [any CodingKey] = []) {
        self.scratch = scratch
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A type may ask twice (WireFrame writes its id, then has its Event add to the same object).
        if case .object(let object)? = value { return KeyedEncodingContainer(WireKeyedEncodingContainer(encoder: self, object: object)) }
        let object = EncodedObject()
        value = .object(object)
        return KeyedEncodingContainer(WireKeyedEncodingContainer(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array)? = value { return WireUnkeyedEncodingContainer(encoder: self, array: array) }
        let array = EncodedArray()
        value = .array(array)
        return WireUnkeyedEncodingContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// `value` encoded, at `key` below this encoder's path.
    func encoded<T: Encodable>(_ value: T, at key: any CodingKey) throws -> EncodedValue {
        switch value {
        case let text as String: return scratch.piece { $0.string(text) }
        case let number as Int: return scratch.piece { $0.integer(number) }
        case let number as UInt64: return scratch.piece { $0.integer(number) }
        case let flag as Bool: return scratch.piece { $0.raw(flag ? "true" : "false") }
        case let date as Date: return scratch.piece { $0.instant(date) }
        case let row as TodoViewModel: return .bytes(try EncodedTodoCache.bytes(of: row.todo))
        case let todo as Todo: return .bytes(try EncodedTodoCache.bytes(of: todo))
        // A detail without parent or subtasks is its todo's JSON (`TodoDetailViewModel.encode`):
        // its cached bytes, where encoding its fields was a quarter of the daemon's time
        // answering `show` (perf `-e cpu-clock`).
        case let detail as TodoDetailViewModel where !detail.hasRelations:
            return .bytes(try EncodedTodoCache.bytes(of: detail.todo))
        // A list's rows: the cache looked up once for all of them, not once a row.
        case let rows as [TodoViewModel]: return .array(EncodedArray(elements: try EncodedTodoCache.bytes(of: rows).map(EncodedValue.bytes)))
        // A list's rows in the row shape (`TodoFilter.rows`), from the cache's rows alike.
        case let rows as TodoRows: return .array(EncodedArray(elements: try EncodedTodoCache.bytes(of: rows.rows, .row).map(EncodedValue.bytes)))
        default:
            let child = WireEncoder(scratch: scratch, codingPath: codingPath + [key])
            try value.encode(to: child)
            return child.value ?? .object(EncodedObject())
        }
    }

    /// An encoder for a member or element at `key`, already holding `value` when given.
    func nested(_ key: any CodingKey, holding value: EncodedValue? = nil) -> WireEncoder {
        let child = WireEncoder(scratch: scratch, codingPath: codingPath + [key])
        child.value = value
        return child
    }

    /// `value` as JSON bytes.
    static func bytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = []
        try write(value, into: &out)
        return out
    }

    /// `value` as JSON, appended to `sink` after room for all of it is reserved: a list of
    /// 300 todos (140 kB) grown by doubling was copied five times and, past malloc's mapping
    /// threshold, mapped and faulted in afresh for every list (a fifth of the daemon's time
    /// answering lists, perf `-e cpu-clock`).
    static func write<T: Encodable, Sink: JSONSink>(_ value: T, into sink: inout Sink) throws {
        let encoder = WireEncoder(scratch: EncodingScratch())
        try value.encode(to: encoder)
        let encoded = encoder.value ?? .object(EncodedObject())
        sink.reserve(encoded.byteCount(scratch: encoder.scratch))
        encoded.write(into: &sink, scratch: encoder.scratch)
    }
}

extension WireEncoder: SingleValueEncodingContainer {
    private func set(_ value: EncodedValue) { self.value = value }

    func encodeNil() { set(scratch.piece { $0.raw("null") }) }
    func encode(_ value: Bool) { set(scratch.piece { $0.raw(value ? "true" : "false") }) }
    func encode(_ value: String) { set(scratch.piece { $0.string(value) }) }
    func encode(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        set(scratch.piece { $0.double(value) })
    }
    func encode(_ value: Float) throws { try encode(Double(value)) }
    func encode(_ value: Int) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: Int8) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: Int16) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: Int32) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: Int64) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: UInt) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: UInt8) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: UInt16) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: UInt32) { set(scratch.piece { $0.integer(value) }) }
    func encode(_ value: UInt64) { set(scratch.piece { $0.integer(value) }) }
    func encode<T: Encodable>(_ value: T) throws { set(try encoded(value, at: ElementKey(intValue: 0))) }
}

/// The bytes of the scalars of one encoding; `EncodedValue.scratch` ranges point into it.
final class EncodingScratch {
    var output = JSONOutput()

    /// Writes a scalar and returns where it lies.
    func piece(_ write: (inout JSONOutput) -> Void) -> EncodedValue {
        let start = output.bytes.count
        write(&output)
        return .scratch(start..<output.bytes.count)
    }
}

/// A value on its way out: a scalar's bytes, bytes already encoded (a cached todo), or a
/// container whose members are written once their order is known.
enum EncodedValue {
    case scratch(Range<Int>)
    case bytes([UInt8])
    case object(EncodedObject)
    case array(EncodedArray)

    /// The length of the JSON `write(into:scratch:)` writes.
    func byteCount(scratch: EncodingScratch) -> Int {
        switch self {
        case .scratch(let range): range.count
        case .bytes(let bytes): bytes.count
        case .object(let object):
            object.members.reduce(1) { $0 + 1 + JSONOutput.stringByteCount($1.key) + 1 + $1.value.byteCount(scratch: scratch) }
                + (object.members.isEmpty ? 1 : 0)
        case .array(let array):
            array.elements.reduce(1) { $0 + 1 + $1.byteCount(scratch: scratch) } + (array.elements.isEmpty ? 1 : 0)
        }
    }

    func write<Sink: JSONSink>(into out: inout Sink, scratch: EncodingScratch) {
        switch self {
        case .scratch(let range): out.append(contentsOf: scratch.output.bytes[range])
        case .bytes(let bytes): out.append(contentsOf: bytes)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            // Sorted as JSONEncoder's .sortedKeys sorts them: by their UTF-8.
            let members = object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (offset, member) in members.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                JSONOutput.string(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out, scratch: scratch)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (offset, element) in array.elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out, scratch: scratch)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

/// An object's members in the order they were encoded.
final class EncodedObject {
    var members: [(key: String, value: EncodedValue)] = []
}

/// An array's elements.
final class EncodedArray {
    var elements: [EncodedValue]

    init(elements: [EncodedValue] = []) {
        self.elements = elements
    }
}
