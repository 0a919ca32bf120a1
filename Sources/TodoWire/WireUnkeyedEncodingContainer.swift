/// An array being encoded, element by element.
struct WireUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: WireEncoder
    let array: EncodedArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.elements.count }

    mutating func encodeNil() { array.elements.append(encoder.scratch.piece { $0.raw("null") }) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try encoder.encoded(value, at: ElementKey(intValue: count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedObject()
        let key = ElementKey(intValue: count)
        array.elements.append(.object(child))
        return KeyedEncodingContainer(WireKeyedEncodingContainer<NestedKey>(encoder: encoder.nested(key), object: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodedArray()
        let key = ElementKey(intValue: count)
        array.elements.append(.array(child))
        return WireUnkeyedEncodingContainer(encoder: encoder.nested(key), array: child)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodedObject()
        let key = ElementKey(intValue: count)
        array.elements.append(.object(child))
        return encoder.nested(key, holding: .object(child))
    }
}
