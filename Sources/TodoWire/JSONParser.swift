/// The strict reader behind `JSONDocument`: RFC 8259 and nothing more. It refuses
/// trailing commas, leading zeros, bad or lone-surrogate escapes, raw control characters
/// in strings, invalid UTF-8 in strings, duplicate keys in an object, anything after the
/// value, nesting deeper than the limit and (in requests) arrays longer than their cap.
/// It recurses once per level of nesting, so never deeper than `limits.maximumDepth`.
struct JSONParser {
    let bytes: [UInt8]
    let limits: JSONLimits
    var index = 0
    var nodes: [JSONDocument.Node] = []
    /// The keys of the objects being read, innermost last: each object's from where it
    /// began (`object`), for the duplicate check. One array for the whole document: an
    /// array of its own, grown by doubling, was four allocations an object, 5% of reading a
    /// list of 10,000 todos (callgrind, `todoctl list`).
    private var keys: [(node: Int, print: UInt32)] = []

    init(bytes: [UInt8], limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
        // Room for the nodes a todo list needs (one node for every 11 bytes or so), reserved
        // at once: grown by doubling, the array of a list of 10,000 todos (3.4 MB, 300,000
        // nodes) was copied and its fresh pages faulted in again at each step, a fifth of
        // `todoctl list`'s time. Pages reserved and never written cost nothing.
        nodes.reserveCapacity(max(16, bytes.count / 8))
    }

    mutating func document() throws(JSONSyntaxError) {
        skipWhitespace()
        try value(depth: 0, key: nil)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected \(describe(bytes[index])) after the JSON value") }
    }

    private func fail(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(reason: reason, offset: index)
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// One value at `index` (whitespace already skipped); `key` is the member it is the value of.
    private mutating func value(depth: Int, key: ArraySlice<UInt8>?) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw fail("the line ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1, key: key)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal(Self.trueBytes, .true)
        case UInt8(ascii: "f"): try literal(Self.falseBytes, .false)
        case UInt8(ascii: "n"): try literal(Self.nullBytes, .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw fail("unexpected \(describe(bytes[index])) where a value was expected")
        }
    }

    private mutating func open(_ kind: JSONDocument.Kind, depth: Int) throws(JSONSyntaxError) -> Int {
        guard depth <= limits.maximumDepth else {
            throw fail("arrays and objects nested deeper than \(limits.maximumDepth) levels")
        }
        nodes.append(JSONDocument.Node(kind: kind, escaped: false, start: index, end: index, count: 0, next: 0))
        index += 1
        skipWhitespace()
        return nodes.count - 1
    }

    private mutating func close(_ node: Int, count: Int) {
        index += 1
        nodes[node].end = index
        nodes[node].count = count
        nodes[node].next = nodes.count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) {
        let node = try open(.object, depth: depth)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return close(node, count: 0) }
        let first = keys.count
        defer { keys.removeSubrange(first...) }
        var seen: Set<[UInt8]>?
        var prints: UInt64 = 0
        // A filter's `tags` and `notTags` (an edit's `tags`, `addTags`, `removeTags`) share one cap.
        var tags = 0
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw fail("trailing comma in an object") }
                throw fail("expected a key in quotes")
            }
            let keyNode = nodes.count
            try string()
            let print = fingerprint(keyNode)
            // A key whose fingerprint's bit is not yet set cannot repeat an earlier key: only
            // the others are compared (the loop ran for every key of every todo, 5% of
            // reading a list of 10,000; callgrind). An escaped key sets every bit.
            let bit = UInt64(1) << ((print &* 0x9E37_79B1) >> 26)
            if print == 0 || prints & bit != 0 || keys.count - first >= 32 {
                try refuseDuplicate(keyNode, print, among: keys[first...], seen: &seen)
            }
            prints |= print == 0 ? .max : bit
            keys.append((keyNode, print))
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
            index += 1
            skipWhitespace()
            let key = nodes[keyNode].escaped ? nil : bytes[nodes[keyNode].start..<nodes[keyNode].end]
            let valueNode = nodes.count
            try value(depth: depth, key: key)
            if let cap = limits.tagCap, let key, JSONLimits.isTagList(key), nodes[valueNode].kind == .array {
                tags += nodes[valueNode].count
                guard tags <= cap else {
                    throw fail("the tag lists of one object (tags, notTags, addTags, removeTags) hold more than \(cap) tags together: a request may send at most \(cap)")
                }
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("the line ends inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"): return close(node, count: keys.count - first)
            default: throw fail("expected ',' or '}' in an object, found \(describe(bytes[index]))")
            }
        }
    }

    /// Objects on the wire have a dozen keys at most, compared one by one: first by a
    /// fingerprint (length, first and last byte), then byte by byte when those agree. A
    /// todo's 16 keys were 120 byte comparisons a todo, a tenth of `todoctl list`'s
    /// instructions (callgrind). Past 32 keys, they go into a set (`seen`), so that a
    /// hostile object costs linear time, not quadratic.
    private func refuseDuplicate(_ key: Int, _ print: UInt32, among keys: ArraySlice<(node: Int, print: UInt32)>, seen: inout Set<[UInt8]>?) throws(JSONSyntaxError) {
        let node = nodes[key]
        var duplicate = false
        if keys.count < 32 {
            for other in keys where other.print == print || print == 0 || other.print == 0 {
                let earlier = nodes[other.node]
                if !node.escaped, !earlier.escaped {
                    if ByteRun.equal(bytes[node.start..<node.end].span, bytes[earlier.start..<earlier.end].span) { duplicate = true; break }
                } else if keyText(other.node) == keyText(key) {
                    duplicate = true
                    break
                }
            }
        } else {
            if seen == nil { seen = Set(keys.map { keyText($0.node) }) }
            duplicate = !seen!.insert(keyText(key)).inserted
        }
        if duplicate {
            throw JSONSyntaxError(reason: "duplicate key \"\(String(decoding: keyText(key), as: UTF8.self))\" in an object", offset: node.start)
        }
    }

    /// A key's length and its first and last bytes, 0 for an escaped key (whose bytes are not
    /// its text: compared in full with every other key).
    private func fingerprint(_ key: Int) -> UInt32 {
        let node = nodes[key]
        guard !node.escaped else { return 0 }
        let length = node.end - node.start
        guard length > 0 else { return 1 }
        return UInt32(truncatingIfNeeded: length) << 16 | UInt32(bytes[node.start]) << 8 | UInt32(bytes[node.end - 1])
    }

    private func keyText(_ key: Int) -> [UInt8] {
        let node = nodes[key]
        let raw = bytes[node.start..<node.end]
        return node.escaped ? JSONDocument.unescaped(raw) : Array(raw)
    }

    private mutating func array(depth: Int, key: ArraySlice<UInt8>?) throws(JSONSyntaxError) {
        let node = try open(.array, depth: depth)
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return close(node, count: 0) }
        let cap = limits.arrayCap(key: key)
        var count = 0
        while true {
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw fail("trailing comma in an array") }
            count += 1
            if let cap, count > cap.count {
                let what = key.map { "\"\(String(decoding: $0, as: UTF8.self))\"" } ?? "an array"
                throw fail("\(what) holds more than \(cap.count) \(cap.noun): a request may send at most \(cap.count)")
            }
            try value(depth: depth, key: nil)
            skipWhitespace()
            guard index < bytes.count else { throw fail("the line ends inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"): return close(node, count: count)
            default: throw fail("expected ',' or ']' in an array, found \(describe(bytes[index]))")
            }
        }
    }

    // As bytes, compared by `ByteRun`: a slice's `elementsEqual` with a String's UTF-8 view
    // was the generic one, 6% of reading a list of todos (a todo has seven nulls; callgrind).
    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8), nullBytes = Array("null".utf8)

    private mutating func literal(_ word: [UInt8], _ kind: JSONDocument.Kind) throws(JSONSyntaxError) {
        let count = word.count
        guard index + count <= bytes.count, ByteRun.equal(bytes[index..<index + count].span, word.span) else {
            throw fail("unexpected \(describe(bytes[index])) where a value was expected")
        }
        nodes.append(JSONDocument.Node(kind: kind, escaped: false, start: index, end: index + count, count: 0, next: nodes.count + 1))
        index += count
    }

    private func isDigit(_ at: Int) -> Bool {
        at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(JSONSyntaxError) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw fail("a number needs a digit after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw fail("leading zero in a number") }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw fail("a number needs digits after its '.'") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw fail("a number needs digits in its exponent") }
            while isDigit(index) { index += 1 }
        }
        nodes.append(JSONDocument.Node(kind: .number, escaped: false, start: start, end: index, count: 0, next: nodes.count + 1))
    }

    /// A string at `index` (its opening quote): escapes checked, UTF-8 checked, no raw
    /// control character. The node spans the bytes between the quotes.
    private mutating func string() throws(JSONSyntaxError) {
        index += 1
        let start = index
        var escaped = false
        var ascii = true
        while index < bytes.count {
            // The plain run first, in locals the loop keeps in registers (through `self` it
            // reloaded both at every byte: a sixth of reading a list of todos, callgrind).
            let bytes = self.bytes
            var at = index
            // Eight bytes at a time while none of them can end the run (quotes, backslashes,
            // controls and non-ASCII stop it; a false stop only hands the word to the byte
            // loop below): the byte loop was a ninth of `todoctl list`'s instructions at
            // 10,000 todos (callgrind), its titles, ids and instants plain ASCII.
            let raw = bytes.span.bytes
            while at + 8 <= bytes.count, !Self.mayEndRun(raw.unsafeLoadUnaligned(fromByteOffset: at, as: UInt64.self)) {
                at += 8
            }
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte >= 0x80 { ascii = false }
                at += 1
            }
            index = at
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if !ascii, String(validating: bytes[start..<index], as: UTF8.self) == nil {
                    throw JSONSyntaxError(reason: "a string is not valid UTF-8", offset: start)
                }
                nodes.append(JSONDocument.Node(kind: .string, escaped: escaped, start: start, end: index, count: 0, next: nodes.count + 1))
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape()
                continue
            }
            throw fail("a raw control character (0x\(String(byte, radix: 16))) in a string: escape it")
        }
        throw JSONSyntaxError(reason: "a string is not closed", offset: start - 1)
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash, a control (below
    /// 0x20) or not ASCII (0x80 up), by the bit tricks of "Bit Twiddling Hacks" (a lane's
    /// high bit is set where a byte is zero after the XOR, or below 0x20).
    private static func mayEndRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
        let quote = hasZero(word ^ (ones &* 0x22)), backslash = hasZero(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word
        return (word | quote | backslash | control) & highs != 0
    }

    /// The escape at `index` (its backslash); a `\u` high surrogate must have its low half.
    private mutating func escape() throws(JSONSyntaxError) {
        guard index + 1 < bytes.count else { throw fail("the line ends inside an escape") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let scalar = try hex4(at: index + 2)
            switch scalar {
            case 0xD800..<0xDC00:
                guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                    (0xDC00..<0xE000).contains(try hex4(at: index + 8))
                else { throw fail("a lone surrogate \\u\(String(scalar, radix: 16)): a high surrogate needs its low half") }
                index += 12
            case 0xDC00..<0xE000:
                throw fail("a lone surrogate \\u\(String(scalar, radix: 16)): a low surrogate needs a high one before it")
            default:
                index += 6
            }
        default:
            throw fail("a bad escape \\\(describe(bytes[index + 1])) in a string")
        }
    }

    private func hex4(at start: Int) throws(JSONSyntaxError) -> UInt32 {
        guard start + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONDocument.hexValue(bytes[start + offset]) else { throw fail("a \\u escape needs four hex digits") }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
