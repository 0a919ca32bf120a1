import ArgumentParser

/// `todoctl context delete NAME`: forgets a context, leaving it first when applied.
struct ContextDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a context; when it is applied, none is then.")

    @Argument(help: ArgumentHelp("The context to delete.", valueName: "name"))
    var name: String

    func run() throws {
        var file = try ContextFile.read()
        guard file.contexts.contains(where: { $0.name == name }) else {
            // Alone, as `context NAME` says it: no usage under it.
            Terminal.error("no context is called \(name): todoctl context lists them")
            throw ExitCode.validationFailure
        }
        file.contexts.removeAll { $0.name == name }
        let wasApplied = file.applied == name
        if wasApplied { file.applied = nil }
        try file.write()
        Terminal.print("context \(name) deleted\(wasApplied ? ": it was applied, and now none is" : "")")
    }
}
