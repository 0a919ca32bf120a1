/// A key press, as `todoctl watch` understands them. Readline's synonyms arrive as the key
/// they stand for (Ctrl-A is `home`, Ctrl-B `left`), so that browsing and prompts agree.
public enum Key: Sendable, Equatable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    case controlC, controlD
    /// Readline's kills: to the end (Ctrl-K), to the start (Ctrl-U), the word before (Ctrl-W).
    case controlK, controlU, controlW
    /// A word back and forward: Alt-B and Alt-F (ESC b, ESC f), Ctrl- or Alt-arrows.
    case wordBack, wordForward
    /// Readline's Alt-Backspace (ESC DEL, ESC ^H): delete the word before the cursor.
    case altBackspace
    /// Any other Alt-key (ESC then a character): Alt-D deletes the word after the cursor;
    /// the rest do nothing, in a prompt and in the list — never Escape then a command.
    case alt(Character)
    case character(Character)
}

/// Turns the bytes a terminal sends in raw mode into keys: plain characters (UTF-8),
/// control keys, and the escape sequences of arrows and paging keys.
public struct KeyParser: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The keys in `bytes`, keeping an unfinished sequence for the next call.
    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        while let (key, length) = Self.firstKey(in: pending) {
            pending.removeFirst(length)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// A lone escape (no sequence follows within the read) is the Escape key.
    public mutating func flushEscape() -> Key? {
        guard pending == [0x1B] else { return nil }
        pending = []
        return .escape
    }

    private static let sequences: [[UInt8]: Key] = [
        Array("\u{1B}[A".utf8): .up, Array("\u{1B}[B".utf8): .down,
        Array("\u{1B}OA".utf8): .up, Array("\u{1B}OB".utf8): .down,
        Array("\u{1B}[5~".utf8): .pageUp, Array("\u{1B}[6~".utf8): .pageDown,
        Array("\u{1B}[D".utf8): .left, Array("\u{1B}[C".utf8): .right,
        Array("\u{1B}OD".utf8): .left, Array("\u{1B}OC".utf8): .right,
        Array("\u{1B}[H".utf8): .home, Array("\u{1B}[F".utf8): .end,
        Array("\u{1B}OH".utf8): .home, Array("\u{1B}OF".utf8): .end,
        Array("\u{1B}[1~".utf8): .home, Array("\u{1B}[4~".utf8): .end,
        Array("\u{1B}[7~".utf8): .home, Array("\u{1B}[8~".utf8): .end,
        Array("\u{1B}[3~".utf8): .delete,
        Array("\u{1B}[1;5D".utf8): .wordBack, Array("\u{1B}[1;5C".utf8): .wordForward,
        Array("\u{1B}[1;3D".utf8): .wordBack, Array("\u{1B}[1;3C".utf8): .wordForward,
    ]

    /// The key of one whole sequence of bytes (an escape sequence, a control, a UTF-8
    /// character); nil when it is no key, or more than one.
    public static func key(of bytes: [UInt8]) -> Key? {
        guard let (key, length) = firstKey(in: bytes), length == bytes.count else { return nil }
        return key
    }

    /// Alt sends ESC before the key: ESC and the key in one read are one Alt-key, never
    /// Escape and then the key (which, in the list, would run the key as a command).
    /// Two escapes are the first one pressed alone.
    private static func altKey(in bytes: [UInt8]) -> (Key?, Int)? {
        switch bytes[1] {
        case 0x1B: return (.escape, 1)
        case UInt8(ascii: "b"): return (.wordBack, 2)
        case UInt8(ascii: "f"): return (.wordForward, 2)
        case 0x7F, 0x08: return (.altBackspace, 2)
        default:
            guard let (key, length) = firstKey(in: Array(bytes.dropFirst())) else { return nil }
            guard case .character(let character) = key else {
                // Alt with a control key (Alt-Enter, Alt-Tab): a key that does nothing.
                return (.alt(Character(Unicode.Scalar(bytes[1]))), 1 + length)
            }
            return (.alt(character), 1 + length)
        }
    }

    /// The first key and how many bytes it took; nil when more bytes are needed.
    /// A nil key with a length is a sequence that is skipped (an unknown escape).
    private static func firstKey(in bytes: [UInt8]) -> (Key?, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B:
            guard bytes.count > 1 else { return nil }
            guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else { return altKey(in: bytes) }
            // A CSI sequence ends with a byte in 0x40...0x7E.
            guard let end = bytes.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) }) else { return nil }
            return (sequences[Array(bytes[...end])], end + 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x01: return (.home, 1)
        case 0x02: return (.left, 1)
        case 0x03: return (.controlC, 1)
        case 0x04: return (.controlD, 1)
        case 0x05: return (.end, 1)
        case 0x06: return (.right, 1)
        case 0x0B: return (.controlK, 1)
        case 0x15: return (.controlU, 1)
        case 0x17: return (.controlW, 1)
        case ..<0x20: return (nil, 1)
        default:
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes[..<length], as: UTF8.self)
            return (text.first.map(Key.character), length)
        }
    }
}
