#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CWidth
import TodoViewModel

/// Text on its way to a terminal: made harmless, measured in columns, cut and padded
/// to a width. Every renderer of todoctl passes what others wrote (titles, tags, notes,
/// messages) through here, so that no stored byte can command the terminal.
public enum TerminalText {
    /// `text` with every character a terminal would obey instead of show written out
    /// visibly as `\u{1B}`: C0 and C1 controls, DEL, line and paragraph separators, and
    /// the bidirectional overrides that reorder what follows them. `keeping` names
    /// controls that stay (notes keep `\n` and `\t`).
    public static func escaped(_ text: String, keeping: Set<Unicode.Scalar> = []) -> String {
        // Printable ASCII, by far the most common, has nothing to escape: a scan of its
        // bytes, not of its scalars through the set (a sixth of a `list` row's drawing).
        if isPrintableASCII(text) { return text }
        guard text.unicodeScalars.contains(where: { needsEscape($0) && !keeping.contains($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) && !keeping.contains(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Notes as shown in full: line breaks and tabs kept, every other control escaped.
    public static func escapedNotes(_ notes: String) -> String {
        escaped(notes, keeping: ["\n", "\t"])
    }

    /// How many terminal columns `text` takes: 2 for CJK and emoji, 0 for combining
    /// marks, 1 for the rest. `text` should be escaped already.
    public static func width<S: StringProtocol>(_ text: S) -> Int {
        // Printable ASCII, by far the most common, needs no lookup.
        if isPrintableASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// Whether every byte of `text` is printable ASCII: one column a byte, nothing to escape.
    static func isPrintableASCII<S: StringProtocol>(_ text: S) -> Bool {
        // The text's own UTF-8 as a span: read in place, every read checked against its bounds.
        if let string = text as? String { return isPrintableASCII(string.utf8.span) }
        if let substring = text as? Substring { return isPrintableASCII(substring.utf8.span) }
        return text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Eight bytes at a time while eight are left: a byte under 0x20 or over 0x7E sets its
    /// top bit in `below` or `above` (the bit tricks of "Bit Twiddling Hacks", hasless and
    /// hasmore, exact as a yes or no). A byte at a time, the scans of a row's title and
    /// tags were 1,500 instructions a row of `todoctl list` (callgrind).
    private static func isPrintableASCII(_ utf8: Span<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        let bytes = utf8.bytes
        var offset = 0
        while offset + 8 <= bytes.byteCount {
            // Bounds-checked like any span read; "unsafe" in the name is for types some bit
            // patterns of which are no value, and every 64 bits are a UInt64.
            let word = bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let below = (word &- ones &* 0x20) & ~word & tops
            let above = ((word &+ ones) | word) & tops
            guard below | above == 0 else { return false }
            offset += 8
        }
        while offset < utf8.count {
            guard utf8[offset] >= 0x20 && utf8[offset] < 0x7F else { return false }
            offset += 1
        }
        return true
    }

    /// A drawn line (escaped text with the styler's colour sequences) cut to at most
    /// `columns` columns: the sequences take none and are kept, and a line cut where a
    /// colour was on ends with a reset, so that the colour does not run on.
    public static func clipped(styled line: String, toWidth columns: Int) -> String {
        var result = ""
        var used = 0
        var inSequence = false
        var styled = false
        for character in line {
            if inSequence || character == "\u{1B}" {
                result.append(character)
                // A sequence ends at its letter (`\e[31m`).
                inSequence = character == "\u{1B}" || !(character.isASCII && character.isLetter)
                styled = true
                continue
            }
            let next = width(of: character)
            if used + next > columns { return result + (styled ? "\u{1B}[0m" : "") }
            result.append(character)
            used += next
        }
        return result
    }

    /// `text` cut to at most `columns` columns, with `…` where it was cut.
    public static func truncated(_ text: String, toWidth columns: Int) -> String {
        truncated(text, width: width(text), toWidth: columns)
    }

    /// `truncated(_:toWidth:)` of a text whose width is known.
    private static func truncated(_ text: String, width textWidth: Int, toWidth columns: Int) -> String {
        guard textWidth > columns else { return text }
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let next = width(of: character)
            if used + next > columns - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// `text` broken into lines of at most `columns` columns, between words: a word is
    /// split only when it is wider than a whole line. `text` should be escaped already.
    public static func wrapped(_ text: String, toWidth columns: Int) -> [String] {
        let columns = max(columns, 1)
        var lines: [String] = []
        var line = ""
        // Empty pieces are the extra spaces of a run, kept within a line.
        for piece in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(piece)
            if word.isEmpty && line.isEmpty { continue }
            if width(line) + (line.isEmpty ? 0 : 1) + width(word) <= columns {
                line += (line.isEmpty ? "" : " ") + word
                continue
            }
            if !line.isEmpty { lines.append(line.trimmingTrailingSpaces()) }
            line = ""
            // A word wider than the line is the one thing cut, at the line's end.
            while width(word) > columns {
                let head = prefix(of: word, toWidth: columns)
                lines.append(head)
                word = String(word.dropFirst(head.count))
            }
            line = word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The longest start of `text` that takes at most `columns` columns.
    public static func prefix(of text: String, toWidth columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let next = width(of: character)
            if used + next > columns { break }
            result.append(character)
            used += next
        }
        // A character wider than the whole line still moves on.
        return result.isEmpty ? String(text.prefix(1)) : result
    }

    /// The longest end of `text` that takes at most `columns` columns: what a prompt
    /// shows of a long text, its cursor end.
    public static func suffix(of text: String, toWidth columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text.reversed() {
            let next = width(of: character)
            if used + next > columns { break }
            result.insert(character, at: result.startIndex)
            used += next
        }
        return result
    }

    /// `text` cut to `columns` and padded with spaces to exactly that width.
    public static func fitted(_ text: String, toWidth columns: Int) -> String {
        let (cut, padding) = fitting(text, toWidth: columns)
        return padded(cut, by: padding)
    }

    /// `fitted(_:toWidth:)` as the text cut and the spaces to pad it with, for a caller
    /// that writes the spaces itself (`TodoTable.line`).
    static func fitting(_ text: String, toWidth columns: Int) -> (text: String, padding: Int) {
        // Measured once: a text that fits is padded by what its width leaves.
        let textWidth = width(text)
        guard textWidth > columns else { return (text, max(0, columns - textWidth)) }
        let cut = truncated(text, width: textWidth, toWidth: columns)
        return (cut, max(0, columns - width(cut)))
    }

    /// `text` and `count` spaces after it.
    static func padded(_ text: String, by count: Int) -> String {
        guard count > 0 else { return text }
        // One append of the spaces made at once: a space appended at a time was 670
        // instructions a title padded (callgrind, `todoctl list` of 10,000).
        return text + String(repeating: " ", count: count)
    }

    /// One grapheme's columns: the widest of its scalars (a ZWJ family is as wide as
    /// one emoji), 2 when an emoji presentation selector asks for the emoji form.
    private static func width(of character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            if scalar == "\u{FE0F}" { return 2 }
            widest = max(widest, columns(of: scalar))
        }
        return widest
    }

    private static func columns(of scalar: Unicode.Scalar) -> Int {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
        _ = utf8Locale
        let columns = Int(cwidth_wcwidth(wchar_t(bitPattern: scalar.value)))
        // Unassigned code points (-1) still take a column when a terminal shows them.
        return columns < 0 ? 1 : columns
    }

    /// glibc's `wcwidth` knows widths only under a UTF-8 character type; a process
    /// starts in the "C" locale, so the character type is set once, nothing else.
    private static let utf8Locale: Bool = {
        setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "en_US.UTF-8") != nil
    }()

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        TodoValidation.isControl(scalar)
            || scalar.value == 0x2028 || scalar.value == 0x2029
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
