import ArgumentParser
import TodoEvents
import TodoModel

struct DenotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "denotate", abstract: "Remove an annotation from a todo.",
        discussion: """
            Removes the annotation whose text is the words given, else the one whose text \
            starts with them, as Taskwarrior's `task 3 denotate plumber` does; none, or a \
            start that several share, is refused with the ones it has (exit 1). `undo` puts it back.
            """)

    @Argument(help: "The todo: its number, id, or id prefix.", transform: TodoRef.checked) var ref: TodoRef
    @Argument(help: ArgumentHelp("The annotation's text, or its start.", valueName: "text")) var words: [String] = []
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("say which annotation to remove: its text or its start (`todoctl show \(ref.typed)` lists them)") }
    }

    func run() async throws {
        let edit = TodoEdit(denotate: words.joined(separator: " "))
        try MutationArguments.apply(socketPath: connection.socketPath, json: output.json) { ref in
            .requestUpdateTodoDetail(TodoDetailUpdate(ref: ref, edit: edit))
        } resolve: { _ in ([ref], false) }
    }
}
