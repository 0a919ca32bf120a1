import ArgumentParser
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// The arguments of every command that changes todos by reference.
struct MutationArguments: ParsableArguments {
    @Argument(help: "The todos: numbers, ids, or id prefixes.") var refs: [TodoRef]
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    /// Sends one request per todo; reports each, and exits 1 if any was refused.
    func apply(_ request: (TodoRef) -> Event) async throws {
        var refused = 0
        var changed: [TodoViewModel] = []
        try await Session.run(connection) { client in
            for ref in refs {
                do {
                    let change = try client.change(request(ref))
                    changed.append(change.todo)
                    if !output.json { Terminal.print(change.kind == .unchanged ? "\(change.todo.numberText) \(change.todo.title): nothing to change" : change.line) }
                } catch let TodoClientError.refused(error) {
                    refused += 1
                    Terminal.error(error.message)
                }
            }
        }
        if output.json { try Terminal.printJSON(changed) }
        if refused > 0 { throw ExitStatus.refused }
    }
}

struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark todos done.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try await arguments.apply(Event.requestCompleteTodo) }
}

struct ReopenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reopen", abstract: "Mark done todos open again.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try await arguments.apply(Event.requestReopenTodo) }
}

struct ToggleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Mark open todos done, and done todos open.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try await arguments.apply(Event.requestToggleComplete) }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete todos (they can be restored).", aliases: ["delete"])
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try await arguments.apply(Event.requestDeleteTodo) }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring deleted todos back.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try await arguments.apply(Event.requestRestoreTodo) }
}
