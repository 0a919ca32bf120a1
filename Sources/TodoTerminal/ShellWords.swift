/// Splits a line into words as a shell would: on white space, with '…' and "…" keeping
/// spaces (and colons, signs) inside one word: `--filter '-t home --search "buy milk"'`, and
/// watch's `a` line, read as the same words after `todoctl add` (`Pay bill due:"next fri"`,
/// `"Buy x:y" +shop`). A `\` keeps the quote, space or `\` after it as typed (`Buy \"milk`).
/// A quote that is never closed is refused, as a shell refuses the line: kept as typed, a
/// mistyped quote went into the title without a word, which `todoctl add` in a shell cannot
/// do (outside probe 10). One difference keeps the words people type in titles: an
/// apostrophe between letters (`Call Mum's friend`) is part of the word; a `\` before any
/// other character is kept too (`C:\temp`).
public enum ShellWords {
    /// A quote opened and never closed: what a shell would wait for the rest of.
    public struct UnclosedQuote: Error, Equatable, CustomStringConvertible {
        /// Where the quote is, by the word it touches: `before milk` in `Buy "milk`, `after
        /// kids` in `the kids' toys`, or `at the end`.
        public let place: String

        public var description: String {
            "the quote opened \(place) is not closed: close it, or put \\ before it"
        }

        init(at index: Int, in characters: [Character]) {
            func word(_ run: some Sequence<Character>) -> [Character] { Array(run.prefix { !$0.isWhitespace }) }
            let after = String(word(characters[(index + 1)...]))
            let before = String(word(characters[..<index].reversed()).reversed())
            place = !after.isEmpty ? "before \(after)" : !before.isEmpty ? "after \(before)" : "at the end"
        }
    }

    public static func split(_ text: String) throws(UnclosedQuote) -> [String] {
        let characters = Array(text)
        var words: [String] = []
        var word = ""
        var inWord = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, ["'", "\"", "\\"].contains(characters[index + 1]) || characters[index + 1].isWhitespace {
                word.append(characters[index + 1])
                inWord = true
                index += 2
                continue
            }
            if character == "'" || character == "\"", !isApostrophe(at: index, in: characters) {
                guard let close = characters[(index + 1)...].firstIndex(of: character) else {
                    throw UnclosedQuote(at: index, in: characters)
                }
                word += String(characters[(index + 1)..<close])
                inWord = true
                index = close + 1
                continue
            }
            if character.isWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
            index += 1
        }
        if inWord { words.append(word) }
        return words
    }

    /// `'` between two letters or digits: `Mum's`, `rock'n'roll`.
    private static func isApostrophe(at index: Int, in characters: [Character]) -> Bool {
        guard characters[index] == "'", index > 0, index + 1 < characters.count else { return false }
        let around = [characters[index - 1], characters[index + 1]]
        return around.allSatisfy { $0.isLetter || $0.isNumber }
    }
}
