/// The text of a prompt being edited as readline edits a line: a cursor inside it, and the
/// old value a prompt starts from selected, so that typing replaces it instead of adding to
/// it. A value: a key gives the next editor; `WatchScreen` keeps it and draws it.
public struct LineEditor: Sendable, Equatable {
    /// Characters (graphemes), so that an emoji or a CJK character moves and goes as one.
    private var characters: [Character]
    /// Where the next character goes: 0 before the first character, `count` after the last.
    public private(set) var cursor: Int
    /// The whole text is selected (drawn reversed): a character replaces it, a deleting key
    /// takes it away, a movement keeps it to edit.
    public private(set) var isSelected: Bool

    /// `text` with the cursor at its end; `selected` for an old value that typing replaces.
    public init(_ text: String = "", selected: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        // Nothing to replace is nothing selected.
        isSelected = selected && !characters.isEmpty
    }

    public var text: String { String(characters) }

    /// The text before and after the cursor: what the prompt draws on each side of it.
    public var beforeCursor: String { String(characters[..<cursor]) }
    public var afterCursor: String { String(characters[cursor...]) }

    /// The editor after `key`; keys that do not edit a line (Enter, Escape, Tab, arrows
    /// up and down) leave it as it is, for the prompt to act on.
    public func applying(_ key: Key) -> LineEditor {
        var next = self
        next.apply(key)
        return next
    }

    private mutating func apply(_ key: Key) {
        if isSelected {
            isSelected = false
            switch key {
            case .character(let character):
                characters = [character]
                cursor = 1
                return
            case .backspace, .delete, .controlD, .controlK, .controlU, .controlW, .altBackspace, .alt("d"):
                characters = []
                cursor = 0
                return
            case .left, .right, .home, .end, .wordBack, .wordForward: break
            default:
                // Enter, Escape and the rest are the prompt's: the old value stays selected.
                isSelected = true
                return
            }
        }
        switch key {
        case .character(let character):
            // The scalars of one grapheme (a ZWJ family, a flag) arrive as keys of their own:
            // joined again here, they stay one character to the cursor.
            let before = Array(String(characters[..<cursor]) + String(character))
            characters = Array(String(before) + String(characters[cursor...]))
            cursor = min(before.count, characters.count)
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .wordBack: cursor = wordStart(before: cursor, Self.isWordCharacter)
        case .wordForward: cursor = wordEnd(after: cursor, Self.isWordCharacter)
        case .backspace:
            guard cursor > 0 else { return }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete, .controlD:
            guard cursor < characters.count else { return }
            characters.remove(at: cursor)
        case .controlK: characters.removeSubrange(cursor...)
        case .controlU:
            characters.removeSubrange(..<cursor)
            cursor = 0
        case .controlW:
            // unix-word-rubout: back to a space, so that `due:fri` goes in one key.
            let start = wordStart(before: cursor) { !$0.isWhitespace }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .altBackspace:
            let start = wordStart(before: cursor, Self.isWordCharacter)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .alt("d"): characters.removeSubrange(cursor..<wordEnd(after: cursor, Self.isWordCharacter))
        default: break
        }
    }

    /// Readline's word for Alt-B, Alt-F, Alt-D and Alt-Backspace: letters and digits, so
    /// that they stop at punctuation (`due:fri`, `eggs.txt`) as in bash.
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Readline's word start: back over what is not a word's, then over the word's characters.
    private func wordStart(before index: Int, _ inWord: (Character) -> Bool) -> Int {
        var index = index
        while index > 0, !inWord(characters[index - 1]) { index -= 1 }
        while index > 0, inWord(characters[index - 1]) { index -= 1 }
        return index
    }

    /// Readline's word end: forward over what is not a word's, then over the word's characters.
    private func wordEnd(after index: Int, _ inWord: (Character) -> Bool) -> Int {
        var index = index
        while index < characters.count, !inWord(characters[index]) { index += 1 }
        while index < characters.count, inWord(characters[index]) { index += 1 }
        return index
    }
}
