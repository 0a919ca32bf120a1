import ArgumentParser

/// `todoctl context define NAME WORD…`: names a filter, its words checked as `list` checks its own.
struct ContextDefineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "define", abstract: "Name a filter: todoctl context define work project:work +office.")

    @Argument(help: ArgumentHelp("The context's name: one word.", valueName: "name"))
    var name: String
    // Passed through: `-office` and `-t home` are the filter's, not this command's options.
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The filter: \(ModifierWords.filterHelp), or list's filter options.", valueName: "filter"))
    var words: [String] = []

    func validate() throws {
        if let problem = ContextFile.nameProblem(name) { throw ValidationError(problem) }
        if words.isEmpty { throw ValidationError("a context needs a filter: give its words (todoctl context define \(name) project:\(name))") }
        if let word = words.first(where: { $0.contains("\t") || $0.contains("\n") }) {
            throw ValidationError("`\(word)` holds a tab or a line break, which a context's word cannot: give it without")
        }
        _ = try AppliedContext.options(words)
    }

    func run() throws {
        var file = try ContextFile.read()
        let context = ContextFile.Context(name: name, words: words)
        let redefined = file.contexts.firstIndex { $0.name == name }
        if let redefined { file.contexts[redefined] = context } else { file.contexts.append(context) }
        try file.write()
        Terminal.print("""
            context \(name) \(redefined == nil ? "defined" : "redefined"): \(context.typed)\
            \(file.applied == name ? " (applied)" : "; apply it with todoctl context \(name)")
            """)
    }
}
