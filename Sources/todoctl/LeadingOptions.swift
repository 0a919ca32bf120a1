import ArgumentParser

/// `todoctl --socket PATH list`, the option before the command as `git -C` and
/// `systemctl --user` take theirs: moved after the command's name, where the command's
/// own `--socket` reads it, before ArgumentParser sees the arguments.
enum LeadingOptions {
    /// The arguments (without the program's name) with a leading `--socket PATH` or
    /// `--socket=PATH` moved after the command that follows it; unchanged when no known
    /// command follows (then ArgumentParser says what is wrong).
    static func movedAfterCommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--socket", rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first.hasPrefix("--socket=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty, let command = rest.first, isCommand(command) else { return arguments }
        return [command] + leading + rest.dropFirst()
    }

    private static func isCommand(_ name: String) -> Bool {
        TodoctlCommand.configuration.subcommands.contains {
            $0.configuration.commandName == name || $0.configuration.aliases.contains(name)
        }
    }
}

extension TodoctlCommand {
    /// Runs todoctl with its leading options moved into place (`LeadingOptions`).
    static func main() async {
        await main(LeadingOptions.movedAfterCommand(Array(CommandLine.arguments.dropFirst())))
    }
}
