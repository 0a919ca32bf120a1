/// An object being encoded: each member's value encoded at once, the order settled when
/// the object is written.
struct WireKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: WireEncoder
    let object: EncodedObject

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) {
        object.members.append((key.stringValue, encoder.scratch.piece { $0.raw("null") }))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.members.append((key.stringValue, try encoder.encoded(value, at: key)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedObject()
        object.members.append((key.stringValue, .object(child)))
        return KeyedEncodingContainer(WireKeyedEncodingContainer<NestedKey>(encoder: encoder.nested(key), object: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodedArray()
        object.members.append((key.stringValue, .array(child)))
        return WireUnkeyedEncodingContainer(encoder: encoder.nested(key), array: child)
    }

    mutating func superEncoder() -> any Encoder { encoder }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodedObject()
        object.members.append((key.stringValue, .object(child)))
        return encoder.nested(key, holding: .object(child))
    }
}
