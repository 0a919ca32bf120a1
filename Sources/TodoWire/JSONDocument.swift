/// A JSON text read strictly (RFC 8259) into a flat tape of nodes, in document order:
/// a container's node is followed by its children (an object's as key, value, key,
/// value…), and records where its subtree ends, so that a reader skips a value in one step.
///
/// Reading it never recurses deeper than `JSONLimits.maximumDepth` and copies no string:
/// a node is a range of the input, decoded only when `WireDecoder` asks for it. Bytes are
/// read by index from an `[UInt8]`: no pointer arithmetic, so a bad index traps instead of
/// reading someone else's memory.
///
/// A class, not a struct: every value read makes a `WireDecoder` holding the document, and
/// a struct of two arrays was two retains and two releases each time, 17 values a todo
/// (822,000 retains to read a list of 10,000 todos, callgrind); a class is one.
final class JSONDocument: Sendable {
    /// What a node holds.
    enum Kind: UInt8, Sendable {
        case null, `true`, `false`, number, string, array, object
    }

    /// One value (or object key) of the document.
    struct Node: Sendable {
        var kind: Kind
        /// Whether a string holds a backslash escape (else its bytes are its UTF-8).
        var escaped: Bool
        /// The value's bytes: a string's between its quotes, a number's digits, a
        /// container's from its bracket to its closing one.
        var start: Int
        var end: Int
        /// Elements of an array, members of an object.
        var count: Int
        /// The index of the node after this value and everything inside it.
        var next: Int
    }

    let bytes: [UInt8]
    let nodes: [Node]

    /// Reads `bytes` as one JSON value, whitespace around it allowed.
    init(bytes: [UInt8], limits: JSONLimits) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: bytes, limits: limits)
        try parser.document()
        self.bytes = bytes
        nodes = parser.nodes
    }

    /// The text of a string node (or an object key), its escapes decoded.
    func string(_ index: Int) -> String {
        let node = nodes[index]
        if !node.escaped {
            // Validated as UTF-8 when the document was read (see `JSONParser.string`).
            return String(decoding: bytes[node.start..<node.end], as: UTF8.self)
        }
        return String(decoding: JSONDocument.unescaped(bytes[node.start..<node.end]), as: UTF8.self)
    }

    /// Whether a string node's text is `text`, without building a String when it is not escaped.
    func string(_ index: Int, equals text: String) -> Bool {
        let node = nodes[index]
        if node.escaped { return string(index) == text }
        return text.utf8.elementsEqual(bytes[node.start..<node.end])
    }

    /// The keys and indices that lead from the top value to node `target`.
    func codingPath(to target: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var current = 0
        while current != target, current < nodes.count {
            let node = nodes[current]
            var child = current + 1
            var found = false
            for index in 0..<node.count {
                let value = node.kind == .object ? child + 1 : child
                if (value..<nodes[value].next).contains(target) {
                    path.append(node.kind == .object ? ElementKey(string(child)) : ElementKey(intValue: index))
                    current = value
                    found = true
                    break
                }
                child = nodes[value].next
            }
            guard found else { break }
        }
        return path
    }

    /// The UTF-8 of a string whose escapes `JSONParser` has already checked.
    static func unescaped(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            let escape = raw[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    // The parser checked that the low half follows.
                    let low = hex4(raw, at: index + 2)
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default: out.append(escape)  // " \ /
            }
        }
        return out
    }

    /// Four hex digits that the parser has checked.
    static func hex4(_ raw: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | UInt32(hexValue(raw[index + offset])!) }
        return value
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

/// Why a line is not JSON, in words, with the byte offset where reading stopped.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    var reason: String
    var offset: Int

    var description: String { "\(reason) at byte \(offset)" }
}
