/// An object of a `JSONDocument`, read by key. Its members are listed once (key node,
/// value node); a lookup compares the key's bytes, so no String is built per key.
struct WireKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: WireDecoder
    /// (key node, value node) of each member, in document order.
    private let members: [(key: Int, value: Int)]

    init(decoder: WireDecoder) {
        self.decoder = decoder
        let nodes = decoder.document.nodes
        var members: [(key: Int, value: Int)] = []
        members.reserveCapacity(nodes[decoder.node].count)
        var child = decoder.node + 1
        for _ in 0..<nodes[decoder.node].count {
            members.append((child, child + 1))
            child = nodes[child + 1].next
        }
        self.members = members
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { members.compactMap { Key(stringValue: decoder.document.string($0.key)) } }

    private func valueNode(_ key: Key) -> Int? {
        let name = key.stringValue
        // Duplicate keys were refused when the line was read: the first match is the only one.
        return members.first { decoder.document.string($0.key, equals: name) }?.value
    }

    func contains(_ key: Key) -> Bool { valueNode(key) != nil }

    private func child(_ key: Key) throws -> WireDecoder {
        guard let node = valueNode(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing field \"\(key.stringValue)\""))
        }
        return decoder.child(node)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).kind == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decodeValue(type)
    }

    // An absent key and a null are both "not present" (as JSONDecoder has it).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let node = valueNode(key) else { return nil }
        let child = decoder.child(node)
        return child.kind == .null ? nil : try child.decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// An array of a `JSONDocument`, read in order.
struct WireUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: WireDecoder
    private var next: Int
    private(set) var currentIndex = 0

    init(decoder: WireDecoder) {
        self.decoder = decoder
        next = decoder.node + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { decoder.document.nodes[decoder.node].count }
    var isAtEnd: Bool { currentIndex >= count! }

    private mutating func advance() throws -> WireDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has only \(count!) elements"))
        }
        let child = decoder.child(next)
        next = decoder.document.nodes[next].next
        currentIndex += 1
        return child
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.document.nodes[next].kind == .null else { return false }
        _ = try advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try advance().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try advance().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try advance().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try advance() }
}

/// A step of an error's path: an object's key, or an array element's index (`[3]`).
struct ElementKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(intValue: Int) { (self.intValue, stringValue) = (intValue, "\(intValue)") }
    init(_ key: String) { (self.intValue, stringValue) = (nil, key) }
    init?(stringValue: String) { self.init(stringValue) }
}
