import ArgumentParser
import TodoViewModel

/// A mistyped option (`list --sotr due`), said as one before its value is read: ArgumentParser
/// took the value for an argument first and blamed it ('"due" is not a modifier', "The value
/// '1h' is invalid for '<seq>'"), and a command that takes modifier words (rm, done …)
/// took the option itself for one.
///
/// So every `--word` of the command line (up to `--`, and not an option's value) is looked
/// up among the options the command's help lists, and one that is none of them is refused
/// with the nearest, in ArgumentParser's words.
enum MistypedOption {
    /// ArgumentParser's own options, which a command's help may not list.
    private static let builtIn: Set<String> = ["--help", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// "Unknown option '--sotr'. Did you mean '--sort'?", or nil.
    static func complaint(in arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        // The default command (list) has no name on the line.
        let named = LeadingOptions.command(named: first)
        guard named != nil || !LeadingOptions.isCommand(first) else { return nil }
        let command = named ?? TodoctlCommand.configuration.defaultSubcommand ?? ListCommand.self
        // `context define work --search milk`: a context's filter words are list's, read by
        // `AppliedContext` (which names a bad one), not options of `context`'s.
        if command == ContextCommand.self { return nil }
        let words = Array(arguments.dropFirst(named == nil ? 0 : 1).prefix { $0 != "--" })
        var known: Set<String>?
        for (index, word) in words.enumerated() where word.hasPrefix("--") && word.count > 2 {
            if index > 0, ModifierWords.valueOptions.contains(words[index - 1]) { continue }
            let option = String(word.prefix { $0 != "=" })
            let options = known ?? options(of: command).filter { $0.hasPrefix("--") }
            known = options
            guard !options.contains(option), !builtIn.contains(option) else { continue }
            let nearest = Nearest.word(to: option, in: options.sorted()).map { " Did you mean '\($0)'?" } ?? " (todoctl \(named != nil ? first + " " : "")--help lists the options)"
            return "Unknown option '\(option)'.\(nearest)"
        }
        return nil
    }

    /// The options `command`'s help lists, long and short (`--sort`, `-t`): each option's
    /// line starts two spaces in (`  -s, --sort <keys>   …`); its help text, further in, may
    /// name other commands' options. `ModifierWords` asks too: a `-x` no option of the
    /// command's is a tag to remove.
    static func options(of command: ParsableArguments.Type) -> Set<String> {
        let help = (command as? ParsableCommand.Type).map { TodoctlCommand.helpMessage(for: $0, columns: 400) } ?? command.helpMessage(columns: 400)
        var options: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            let synopsis = line.dropFirst(2).split(separator: "  ").first ?? ""
            for token in synopsis.split(whereSeparator: { $0 == " " || $0 == "," }) where token.hasPrefix("-") {
                options.insert(String(token.prefix { $0 != "=" && $0 != "<" }))
            }
        }
        return options
    }
}
