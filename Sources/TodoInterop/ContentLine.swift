/// One iCalendar content line (RFC 5545 §3.1): `NAME;PARAM=value:VALUE`, unfolded.
public struct ContentLine: Sendable, Equatable {
    /// Upper-cased: names are case-insensitive.
    public var name: String
    /// In their order, values as written (quotes removed).
    public var parameters: [(name: String, value: String)]
    /// The value as written: still escaped when it is TEXT.
    public var value: String

    public init(_ name: String, _ parameters: [(name: String, value: String)] = [], value: String) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
    }

    /// `SUMMARY:Call mum`: a TEXT property, escaped.
    public init(_ name: String, text: String) {
        self.init(name, value: ContentLine.escaped(text))
    }

    /// Reads an unfolded line; nil when it has no `:` outside quotes or no name.
    public init?(parsing line: Substring) {
        var inQuotes = false
        var colon: Substring.Index?
        for index in line.indices {
            switch line[index] {
            case "\"": inQuotes.toggle()
            case ":" where !inQuotes: colon = index
            default: continue
            }
            if colon != nil { break }
        }
        guard let colon else { return nil }
        var pieces = ContentLine.split(line[..<colon], on: ";")
        let name = pieces.removeFirst()
        guard !name.isEmpty else { return nil }
        self.init(String(name), pieces.map { piece in
            let equals = piece.firstIndex(of: "=") ?? piece.endIndex
            var value = piece[equals...].dropFirst()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return (String(piece[..<equals]).uppercased(), String(value))
        }, value: String(line[line.index(after: colon)...]))
    }

    public static func == (a: ContentLine, b: ContentLine) -> Bool {
        a.name == b.name && a.value == b.value
            && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.value) == b.parameters.map(\.value)
    }

    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The value read as TEXT: escapes undone.
    public var text: String { ContentLine.unescaped(value) }

    /// The value read as a TEXT list (CATEGORIES): split at unescaped commas.
    public var textList: [String] {
        ContentLine.split(Substring(value), on: ",", honouringEscapes: true).map { ContentLine.unescaped(String($0)) }
    }

    /// The line as written, unfolded.
    public var unfolded: String {
        let parameterText = parameters.map { parameter in
            let quoted = parameter.value.contains(where: { ":;,".contains($0) })
            return ";\(parameter.name)=" + (quoted ? "\"\(parameter.value)\"" : parameter.value)
        }.joined()
        return name + parameterText + ":" + value
    }

    /// The line folded at 75 octets, never inside a character, each piece ended by CRLF.
    public var folded: String {
        var result = "", octets = 0
        for character in unfolded {
            let size = character.utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.append(character)
            octets += size
        }
        return result + "\r\n"
    }

    /// TEXT escaped as RFC 5545 §3.3.11 says: backslash, semicolon, comma and line break.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    static func unescaped(_ value: String) -> String {
        var result = "", escaping = false
        for character in value {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The lines of a file, folds undone (a CRLF or LF followed by a space or tab joins).
    public static func unfold(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var current = ""
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if let first = line.first, first == " " || first == "\t" {
                current += line.dropFirst()
            } else {
                if !current.isEmpty { lines.append(Substring(current)) }
                current = String(line)
            }
        }
        if !current.isEmpty { lines.append(Substring(current)) }
        return lines
    }

    /// `text` split at `separator`s outside double quotes (and, for TEXT, not escaped).
    private static func split(_ text: Substring, on separator: Character, honouringEscapes: Bool = false) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex, inQuotes = false, escaping = false
        for index in text.indices {
            let character = text[index]
            if escaping { escaping = false; continue }
            if honouringEscapes && character == "\\" { escaping = true; continue }
            if character == "\"" && !honouringEscapes { inQuotes.toggle() }
            if character == separator && !inQuotes {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        pieces.append(text[start...])
        return pieces
    }
}
