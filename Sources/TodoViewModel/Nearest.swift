/// The nearest of a few known words to a mistyped one, for "did you mean …?" in messages.
public enum Nearest {
    /// The word of `candidates` at the fewest edits (insert, delete, replace or swap characters)
    /// from `typed`, if it is at most `limit` edits away and `typed` is not just a shorter
    /// word (a single edit on a two-letter word would match almost anything).
    public static func word(to typed: String, in candidates: [String], limit: Int = 2) -> String? {
        let allowed = min(limit, max(1, typed.count / 3))
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = edits(from: typed, to: candidate)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// The word of `candidates` that `typed` begins, when it is 3 or more characters and
    /// begins only one (`pri` for priority, as Taskwarrior's abbreviations go: `--sort
    /// due,-pri` got no hint; outside probe), else the nearest by `word(to:in:)`.
    /// A short word two edits off (`--sort dew`: due) is meant too when it is the one
    /// candidate that near beginning with the same letter: the one-edit limit of a
    /// three-letter word left `dew` without a hint (outside probe).
    public static func meant(by typed: String, in candidates: [String]) -> String? {
        let begun = typed.count >= 3 ? candidates.filter { $0.hasPrefix(typed) } : []
        if begun.count == 1 { return begun[0] }
        if let nearest = word(to: typed, in: candidates) { return nearest }
        guard typed.count >= 3 else { return nil }
        let near = candidates.filter { $0.first == typed.first && edits(from: typed, to: $0) <= 2 }
        return near.count == 1 ? near[0] : nil
    }

    /// Edits from one word to the other, a swap of two neighbours counting as one (`deu` is
    /// one from `due`): the optimal string alignment distance, over characters.
    public static func edits(from a: String, to b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
