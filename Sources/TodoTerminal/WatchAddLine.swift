import Foundation
import TodoViewModel

/// watch's `a` line takes `todoctl add`'s options beside its modifiers (`Pay bill -d fri
/// -p high`, which was refused): each option and the word after it are read as the
/// modifier they stand for (`due:fri`, `pri:high`), so that `TaskwarriorWords` reads one
/// syntax and says what is wrong in its words. The line is split into words as a shell
/// would split the same words after `todoctl add` (`ShellWords`): quotes keep a value or a
/// title phrase together (`due:"next fri"`, `"Buy x:y"`), and an apostrophe in a word
/// (`Call Mum's friend`) stays in the title.
enum WatchAddLine {
    /// Why the line does not read, for the status line.
    struct Refusal: Error, Equatable {
        let message: String
    }

    /// `add`'s options that the line takes, the modifier each stands for, and a value to
    /// show when one is missing.
    static let options: [String: (modifier: String, example: String)] = [
        "-d": ("due:", "fri"), "--due": ("due:", "fri"), "-p": ("pri:", "high"), "--priority": ("pri:", "high"), "-t": ("+", "home"),
        "--tag": ("+", "home"), "--wait": ("wait:", "fri"), "--every": ("recur:", "1w"), "--project": ("project:", "home"),
    ]

    /// How to keep an option-looking word in the title, said only where such a word was
    /// refused: said after every refusal, it followed a bad priority (`-p hi`) and a quote
    /// never closed, which `--` does nothing for (outside probe 10).
    static let titleWordsHint = "(after --, words are title words)"

    /// What a line takes, for messages and help.
    static let taken = "-d DATE, -p H|M|L, -t TAG, --project NAME, --wait DATE, --every PERIOD, and due:DATE, pri:H, +tag, project:NAME, recur:1w \(titleWordsHint)"

    /// A line's words as `TaskwarriorWords` reads them, and how the user typed each word
    /// an option became (`pri:hi` from `-p hi`), so that a refusal names what was typed.
    struct Read: Equatable {
        let words: [String]
        let typed: [String: String]
    }

    /// What is wrong with a word of the line, said with the words typed: an option's word
    /// was named as the modifier it became (`-p hi` said `pri:hi: … priority: takes …`; outside
    /// probe), now as typed (`-p hi: … -p takes H, M or L …`, as add says it).
    static func refusal(_ error: TaskwarriorWordError, in line: Read) -> Refusal {
        var message = error.message
        for (word, typed) in line.typed.sorted(by: { $0.key.count > $1.key.count }) where message.contains(word) {
            message = message.replacingOccurrences(of: word, with: typed)
            // `-p` for `priority:` where the message names the modifier for its values.
            guard let option = typed.split(whereSeparator: { $0 == " " || $0 == "=" }).first, case .unreadableValue(_, let name, _, _, _, _) = error,
                error.word == word
            else { continue }
            message = message.replacingOccurrences(of: "did you mean \(name):", with: "did you mean \(option) ")
                .replacingOccurrences(of: " \(name): takes", with: " \(option) takes")
        }
        return Refusal(message: isTitleWordRefused(error) ? message + " " + titleWordsHint : message)
    }

    /// Whether `error` refuses a word shaped like a modifier or a tag that is none a new todo
    /// takes (`Re:Zero`, `-shop`, `+OVERDUE`, `due.by:fri`): a word the user may have meant
    /// for the title, which `--` keeps there. A value that does not read (`-p hi`, `due:x`)
    /// or a field given twice was meant as the field it names.
    private static func isTitleWordRefused(_ error: TaskwarriorWordError) -> Bool {
        switch error {
        case .unknownModifier, .attributeModifier, .removalInAdd, .virtualTag, .virtualTagNotTaken: true
        default: false
        }
    }

    /// A line of options or modifiers alone (`-p H`) is no todo: the daemon's "title: a todo
    /// needs a title; it is empty" said nothing of the options (outside probe 10). The
    /// example puts a title before the line as typed.
    static func untitled(_ text: String) -> Refusal {
        let typed = text.trimmingCharacters(in: .whitespaces)
        return Refusal(message: "the line has options but no title words (\(typed)): put the todo's words before them, as in Buy milk \(typed)")
    }

    /// `words` with each option and its value as one modifier word, up to `--`.
    static func read(_ words: [String]) throws(Refusal) -> Read {
        var result: [String] = []
        var typed: [String: String] = [:]
        var rest = words[...]
        while let word = rest.popFirst() {
            guard word != "--" else {
                result += ["--"] + rest
                break
            }
            guard isOption(word) else {
                result.append(word)
                continue
            }
            let (name, attached) = word.firstIndex(of: "=").map { (String(word[..<$0]), String(word[word.index(after: $0)...])) } ?? (word, nil)
            guard let (modifier, example) = options[name] else { throw Refusal(message: "\(name): not read here; a line takes \(taken)") }
            guard let value = attached ?? rest.first.flatMap({ $0 == "--" ? nil : $0 }), !value.isEmpty else {
                throw Refusal(message: "\(name): give it a value, as in \(name) \(example)")
            }
            if attached == nil { rest.removeFirst() }
            // A tag is one word: `-t "two words"` made the modifier `+two words`, which reads
            // as a quoted title phrase, and the tag went into the title unsaid (outside probe).
            if modifier == "+", value.contains(where: { $0.isWhitespace || $0 == "," }) {
                throw Refusal(message: "\(name) \"\(value)\" is not one tag: a tag has no spaces or commas; give each tag its own \(name)")
            }
            // -t takes a tag as add does, #home or home.
            let modifierWord = modifier + (modifier == "+" && value.hasPrefix("#") ? String(value.dropFirst()) : value)
            result.append(modifierWord)
            let shown = value.contains(where: \.isWhitespace) ? "\"\(value)\"" : value
            typed[modifierWord] = attached == nil ? "\(name) \(shown)" : "\(name)=\(shown)"
        }
        return Read(words: result, typed: typed)
    }

    /// `-d` (a dash and one letter) or `--due`: what the command line would read as an
    /// option. A longer `-word` is a tag to remove, which `TaskwarriorWords` refuses in an add.
    private static func isOption(_ word: String) -> Bool {
        if word.hasPrefix("--") { return word.count > 2 }
        return word.count == 2 && word.hasPrefix("-") && word.last?.isLetter == true
    }
}
