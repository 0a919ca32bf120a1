import ArgumentParser

/// `todoctl context NAME` applies a context, `context none` leaves it, and `context` alone
/// says which is applied and lists them.
struct ContextApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply", abstract: "Apply a context (todoctl context NAME); none leaves it; alone, list the contexts.")

    @Argument(help: ArgumentHelp("The context to apply, or none; without it, the contexts are listed.", valueName: "name"))
    var name: String?

    func run() throws {
        var file = try ContextFile.read()
        guard let name else {
            if file.contexts.isEmpty {
                return Terminal.print("no contexts: define one with todoctl context define NAME WORD… (as todoctl context define work project:work)")
            }
            Terminal.print(file.appliedContext.map { "applied: \($0.name)" } ?? "applied: none")
            let width = file.contexts.map(\.name.count).max() ?? 0
            for context in file.contexts {
                let name = context.name.padding(toLength: width, withPad: " ", startingAt: 0)
                Terminal.print("\(context.name == file.applied ? "*" : " ") \(name)  \(context.typed)")
            }
            return
        }
        if name == "none" {
            file.applied = nil
            try file.write()
            return Terminal.print("no context applied: list, next and watch show every todo their filter matches")
        }
        guard let context = file.contexts.first(where: { $0.name == name }) else {
            let known = file.contexts.map(\.name).joined(separator: ", ")
            // Said alone and exit 64: as a ValidationError it came with ArgumentParser's usage
            // of todoctl itself, which has nothing to do with a context's name (outside probe).
            Terminal.error("""
                no context is called \(name)\(known.isEmpty ? "" : " (there are \(known))"): \
                define it first with todoctl context define \(name) WORD…
                """)
            throw ExitCode.validationFailure
        }
        file.applied = name
        try file.write()
        Terminal.print("context \(name) applied (\(context.typed)): list, next and watch show only its todos until todoctl context none")
    }
}
