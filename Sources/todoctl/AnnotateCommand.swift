import ArgumentParser
import TodoEvents
import TodoModel

struct AnnotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotate", abstract: "Add a timestamped line to a todo.",
        discussion: """
            As Taskwarrior's `task 3 annotate called the plumber`: the words are one line, kept \
            with the time it was added and listed by `show` after the notes; `denotate` removes \
            one, `undo` takes it back. Put text that starts with - after -- \
            (`todoctl annotate 3 -- -5 degrees`). A todo holds at most \(Annotation.maximumCount).
            """)

    @Argument(help: "The todo: its number, id, or id prefix.", transform: TodoRef.checked) var ref: TodoRef
    @Argument(help: ArgumentHelp("The annotation's words.", valueName: "text")) var words: [String] = []
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("say what to add: `todoctl annotate \(ref.typed) called the plumber`") }
    }

    func run() async throws {
        let edit = TodoEdit(annotate: words.joined(separator: " "))
        try MutationArguments.apply(socketPath: connection.socketPath, json: output.json) { ref in
            .requestUpdateTodoDetail(TodoDetailUpdate(ref: ref, edit: edit))
        } resolve: { _ in ([ref], false) }
    }
}
