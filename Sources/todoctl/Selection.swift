import ArgumentParser
import Foundation
import TodoClient
import TodoModel
import TodoTerminal
import TodoViewModel

/// Which todos a bulk command acts on: the ones named (the command's leading words, which
/// it passes in as `refs`), or the ones a filter finds now.
/// Above `askAbove` todos found by a filter, todoctl asks first (as Taskwarrior does),
/// unless `--yes`; it never asks when standard input is not a terminal, and refuses.
struct Selection: ParsableArguments {
    /// More todos than this, found by a filter, need a yes.
    static let askAbove = 3

    @Option(
        name: .customLong("filter"), parsing: .unconditional,
        help: ArgumentHelp("The filter options of `list` as one argument, e.g. --filter '-t home --overdue'.", valueName: "options"))
    var expression: String?
    @Flag(name: .shortAndLong, help: "Change more than \(askAbove) todos found by a filter or named by ranges (2-9) without asking.") var yes = false

    /// The filter given as `--filter '…'`, read with `list`'s options.
    func parsedExpression() throws -> FilterOptions? {
        guard let expression else { return nil }
        do {
            let options = try FilterOptions.read(ShellWords.split(expression))
            guard !options.isEmpty else { throw ValidationError("--filter '\(expression)' gives no condition: use list's filter options, e.g. --filter '-t home --overdue'") }
            return options
        } catch let error as ValidationError {
            throw error
        } catch let error as ShellWords.UnclosedQuote {
            throw ValidationError("--filter '\(expression)': \(error)")
        } catch {
            throw ValidationError("--filter '\(expression)': \(FilterOptions.message(for: error))")
        }
    }

    /// Checks, before anything is sent, that todos are named or a filter is given, not
    /// both; `direct` are filter options given on the command line itself.
    func validate(refs: [TodoRef], direct: FilterOptions?) throws {
        let filters = try [parsedExpression(), direct?.isEmpty == false ? direct : nil].compactMap(\.self)
        if filters.count > 1 { throw ValidationError("give the filter either as options or as --filter '…', not both") }
        if !refs.isEmpty && !filters.isEmpty { throw ValidationError("name todos or give a filter, not both") }
        if refs.isEmpty && filters.isEmpty {
            // edit takes its filter only as --filter: its bare +home is a tag to add.
            let examples = direct == nil ? "--filter '+home', --filter 'project:work' or --filter '-t home --overdue'" : "+home, project:work, -t home or --overdue"
            throw ValidationError("name the todos (numbers or ids), or give a filter (such as \(examples)) to act on every todo it finds")
        }
    }

    /// The todos to act on (checked by `validate(direct:)`), and whether a filter found
    /// them: then over the todos in `status`, confirmed when there are many.
    /// Todos named by a range or a list (`ranged`: `done 1-40`, a typo of `1-4` away) are
    /// confirmed as a filter's are, as Taskwarrior asks above three whatever names them.
    func resolve(_ client: TodoConnection, refs: [TodoRef], ranged: Bool = false, direct: FilterOptions?, status: TodoFilter.Status, action: String) throws -> (refs: [TodoRef], found: Bool) {
        guard let options = try parsedExpression() ?? (direct?.isEmpty == false ? direct : nil) else {
            if ranged && refs.count > Self.askAbove && !yes {
                let todos = try client.list(TodoFilter(status: .all)).todos
                let lines = refs.map { ref in
                    todos.first { ref.matches($0.todo) }.map { "\($0.numberText) \(TerminalText.escaped($0.title))" } ?? "\(ref) (no open or done todo)"
                }
                try Self.confirm(lines, found: "\(refs.count) todos are named", noun: "todos", action: action, yes: yes)
            }
            return (refs, false)
        }
        let list = try client.list(options.filter(status: status))
        try Self.confirm(list.todos.map { "\($0.numberText) \(TerminalText.escaped($0.title))" }, found: "\(list.todos.count) todos match",
                         noun: "todos", action: action, yes: yes)
        // Subtasks are completed before their parents, which are refused while any is open.
        let todos = action == "complete" ? list.todos.filter { $0.todo.parent != nil } + list.todos.filter { $0.todo.parent == nil } : list.todos
        return (todos.map { .id($0.todo.id) }, true)
    }

    /// Asks before acting on more than a handful of things (`lines`, one each, escaped
    /// already; `found` says how many there are); refuses where it cannot ask.
    /// `count`: what is asked about, when a line is not one (undo's steps, listed change by change).
    static func confirm(_ lines: [String], count: Int? = nil, found: String, noun: String, action: String, yes: Bool) throws {
        let count = count ?? lines.count
        guard count > askAbove, !yes else { return }
        guard isatty(STDIN_FILENO) == 1 else {
            Terminal.error("\(found); todoctl asks before it will \(action) more than \(askAbove), and cannot ask without a terminal: nothing changed. Pass --yes to \(action) all \(count)")
            throw ExitStatus.refused
        }
        for line in lines { Terminal.print("  \(line)") }
        Swift.print("\(action.prefix(1).uppercased() + action.dropFirst()) these \(count) \(noun)? [y/N] ", terminator: "")
        fflush(nil)
        guard let answer = readLine()?.lowercased(), ["y", "yes"].contains(answer) else {
            Terminal.print("nothing changed")
            throw ExitStatus.refused
        }
    }
}
