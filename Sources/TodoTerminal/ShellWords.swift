/// Splits a line into words as a shell would: on white space, with '…' and "…" keeping
/// spaces (and colons, signs) inside one word: `--filter '-t home --search "buy milk"'`, and
/// watch's `a` line, read as the same words after `todoctl add` (`Pay bill due:"next fri"`,
/// `"Buy x:y" +shop`). Two differences keep the words people type in titles: an apostrophe
/// between letters (`Call Mum's friend`) is part of the word, and a quote that is never
/// closed is kept as typed, where a shell would wait for the rest.
public enum ShellWords {
    public static func split(_ text: String) -> [String] {
        let characters = Array(text)
        var words: [String] = []
        var word = ""
        var inWord = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" || character == "\"", !isApostrophe(at: index, in: characters),
                let close = characters[(index + 1)...].firstIndex(of: character)
            {
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
