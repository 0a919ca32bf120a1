import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// The arguments of every command that changes todos' state: named todos, or a filter.
struct MutationArguments: ParsableArguments {
    @OptionGroup var selection: Selection
    @OptionGroup(title: "Filter (instead of naming todos)") var filter: FilterOptions
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws { try selection.validate(refs: filter.leadingRefs, direct: filter) }

    /// Sends one request per todo, over the todos in `status` when a filter chooses them;
    /// reports each with the further changes it made, and exits 1 if any was refused.
    func apply(status: TodoFilter.Status, action: String, verb: String? = nil, _ request: (TodoRef) -> Event) throws {
        try Self.apply(socketPath: connection.socketPath, json: output.json, verb: verb, request) { client in
            try selection.resolve(client, refs: filter.leadingRefs, ranged: filter.leadingRanged, direct: filter, status: status, action: action)
        }
    }

    /// Sends one request per todo `resolve` gives.
    static func apply(
        socketPath: String, json: Bool, verb: String? = nil, _ request: (TodoRef) -> Event,
        resolve: (TodoConnection) throws -> (refs: [TodoRef], found: Bool)
    ) throws {
        let report = try Session.run(socketPath: socketPath) { client in
            let (refs, found) = try resolve(client)
            var report = BulkReport(json: json, summarised: found, verb: verb)
            // Todos an earlier request of this command deleted as its consequence.
            var deletedAlong: Set<UUID> = []
            for named in try client.pinned(refs) {
                let result = named.flatMap { ref in Result { () throws(TodoClientError) in try client.change(request(ref)) } }
                // `reopen 4-5`, #5 the next occurrence #4's completion made: reopening #4 deletes
                // it, said then ("deleted #5"), so #5's own refusal ("#5 is deleted") is no news.
                if case .failure(.refused) = result, case .success(.id(let id)) = named, deletedAlong.contains(id) { continue }
                try report.record(result)
                if case .success(let change) = result {
                    report.recordFurther(change.further)
                    deletedAlong.formUnion(change.further.filter { $0.kind == .deleted }.map(\.todo.todo.id))
                }
            }
            return report
        }
        try report.finish()
    }
}

/// Filters for `done` and friends pick from the todos each acts on.
private let bulkDiscussion = """
    Name todos by number or id (Taskwarrior's ranges and lists too: 2-4, 1,3), each read as the todo it names when the command \
    is typed (a next occurrence the command makes is none of them), or give a filter (list's options and modifiers such as +tag \
    project:home due:fri, directly or as --filter '…') to act on every todo it finds; more than \(Selection.askAbove) found by a filter \
    or named by ranges and lists are listed and need a yes (or --yes; without a terminal todoctl refuses rather than ask).
    """

struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark todos done.",
        discussion: bulkDiscussion + " A filter picks from open todos. A repeating todo gets its next occurrence. "
            + "A parent with open subtasks is refused unless --with-children.")
    @OptionGroup var arguments: MutationArguments
    @Flag(help: "Complete the todos' open subtasks too.") var withChildren = false
    func run() async throws {
        try arguments.apply(status: .open, action: "complete", withChildren ? Event.requestCompleteTodoWithChildren : Event.requestCompleteTodo)
    }
}

struct ReopenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen", abstract: "Mark done todos open again.",
        discussion: bulkDiscussion + " A filter picks from completed todos. Reopening a repeating todo deletes the next occurrence "
            + "its completion made, unless someone edited, completed or gave subtasks to that one since: it is then kept, and the "
            + "reopened todo stops repeating, so that the series has one open occurrence.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try arguments.apply(status: .completed, action: "reopen", Event.requestReopenTodo) }
}

struct ToggleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: "Mark open todos done, and done todos open.",
        discussion: bulkDiscussion + " A filter picks from open and completed todos.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try arguments.apply(status: .all, action: "toggle", Event.requestToggleComplete) }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete todos (they can be restored).",
        discussion: bulkDiscussion + " A filter picks from open and completed todos.", aliases: ["delete"])
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try arguments.apply(status: .all, action: "delete", Event.requestDeleteTodo) }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Bring deleted todos back.",
        discussion: bulkDiscussion + " A filter picks from deleted todos. Restoring a repeating todo's next occurrence while the "
            + "one it repeats is open again stops that one repeating: the series has one open occurrence.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try arguments.apply(status: .deleted, action: "restore", Event.requestRestoreTodo) }
}

struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Mark todos as being worked on, as Taskwarrior's start.",
        discussion: bulkDiscussion + " A filter picks from open todos. A started todo is marked [>] in list and watch "
            + "(+ACTIVE finds them), show says since when and the time spent over all its starts; stop, done or undo ends it. "
            + "Starting a started todo changes nothing.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try arguments.apply(status: .open, action: "start", verb: "started") { .requestUpdateTodoDetail(TodoDetailUpdate(ref: $0, edit: TodoEdit(active: true))) } }
}

struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop working on todos: the time since their start counts as spent.",
        discussion: bulkDiscussion + " A filter picks from open todos (stop +ACTIVE stops every started one). "
            + "Stopping a todo that is not started changes nothing.")
    @OptionGroup var arguments: MutationArguments
    func run() async throws { try arguments.apply(status: .open, action: "stop", verb: "stopped") { .requestUpdateTodoDetail(TodoDetailUpdate(ref: $0, edit: TodoEdit(active: false))) } }
}
