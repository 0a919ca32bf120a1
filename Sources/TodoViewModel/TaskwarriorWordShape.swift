/// Which words a Taskwarrior user types are tags and modifiers, and which title words: the
/// shape of one word, before its value is read (`TaskwarriorWords` reads the values into
/// fields), and the modifiers' names as messages spell them.
///
/// Which words are modifiers, so that nothing typed by habit lands in a title unread:
/// - `+word` and `-word`: a tag to add, or to remove (in a filter: to leave out), when the
///   character after the sign may start a Taskwarrior 2.6 tag (`isTag`): `+🎉`, `+_x`,
///   `+@home`. `+1`, `+.x` and `-` alone are title words, as `task` takes them.
/// - `name:value` where `name` is ASCII letters (any case), optionally with one `.suffix`
///   (`due.before:`): a modifier. Known names are read; any other is refused with the
///   nearest known one. Three shapes stay title words: a URL (`https://…`, any `name://`),
///   a word ending in its colon (`Re:`, `Bob:`) whose name is not a modifier's, and words
///   whose part before the colon is not letters (`10:30`, `C++:`).
/// - a word holding a space (one quoted argument) is a title phrase, sign or colon and all
///   (`"+ve thinking"`, `"Re: meeting"`), unless it is a known modifier with its value
///   right after the colon (`"due:dec 2"`), as Taskwarrior reads them.
/// - after `--`, every word is a title word, as typed.
public enum TaskwarriorWordShape {
    /// The modifiers' names, the long one first; `pri:` and `pro:` are Taskwarrior's
    /// shortest abbreviations, which users type most.
    public static let modifierNames = ["project", "pro", "due", "wait", "priority", "pri", "recur", "scheduled", "until", "depends"]

    /// Whether `word` is `+tag` or `-tag`: the sign, then a character that may start a tag
    /// in Taskwarrior 2.6 (its lexer's identifier start, tried against `task` 2.6.2): not a
    /// digit, a space, one of its operators `+-*/()<>^!%=~`, nor `.` `'` `"` `&` `:`. What follows
    /// is the tag, as todoctl always took it after a letter (`+project:home`, where `task`
    /// would stop at the colon; TodoValidation refuses spaces and commas in it).
    public static func isTag(_ word: String) -> Bool {
        guard let sign = word.first, sign == "+" || sign == "-", let next = word.dropFirst().first else { return false }
        return !next.isWhitespace && !("0"..."9").contains(next) && !tagStartExclusions.contains(next)
    }

    private static let tagStartExclusions: Set<Character> = ["+", "-", "*", "/", "(", ")", "<", ">", "^", "!", "%", "=", "~", ".", "'", "\"", "&", ":"]

    /// Whether `word`, which holds a space (one quoted argument, `"Re: meeting"`), is a
    /// modifier: only a known name with its value right after the colon, which Taskwarrior
    /// reads the same way (`"due:dec 2"`, `"pri:H x"` refused). Any other such word is a
    /// title phrase, as Taskwarrior takes it: `"+ve thinking"`, `"Re: meeting"`,
    /// `"Due: taxes"` — the user quoted it to keep it together.
    static func isModifierPhrase(_ word: String) -> Bool {
        guard let (name, value) = modifier(word), let first = value.first, !first.isWhitespace else { return false }
        return modifierNames.contains(String(name.split(separator: ".")[0]))
    }

    /// `name` and `value` of a modifier-shaped word, or nil for a title word (see the type's
    /// rule).
    static func modifier(_ word: String) -> (name: String, value: String)? {
        guard let colon = word.firstIndex(of: ":") else { return nil }
        let name = String(word[..<colon])
        let value = String(word[word.index(after: colon)...])
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isLetter } })
        else { return nil }
        if value.hasPrefix("//") { return nil }
        if value.isEmpty && !modifierNames.contains(parts[0].lowercased()) { return nil }
        return (name.lowercased(), value)
    }

    /// The error for a modifier `name` todod does not read, with the name meant.
    static func unknown(_ word: String, name: String) -> TaskwarriorWordError {
        let long = ["project", "due", "wait", "priority", "recur", "scheduled", "until", "depends"]
        // An abbreviation is meant for the name it starts (`prio`, `proj`); else the nearest.
        let meant = long.first { $0.hasPrefix(name) && name.count >= 3 } ?? Nearest.word(to: name, in: long)
        return .unknownModifier(word: word, name: name, suggestion: meant)
    }

    /// `pri` → `priority`: the name messages use.
    static func canonical(_ name: String) -> String {
        ["pri": "priority", "pro": "project"][name] ?? name
    }

    /// How a modifier is written in messages: `priority: (pri:)`.
    public static func spelled(_ name: String) -> String {
        switch name {
        case "priority": "priority: (pri:)"
        case "project": "project: (pro:)"
        default: name + ":"
        }
    }
}
