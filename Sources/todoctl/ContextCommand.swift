import ArgumentParser

/// `todoctl context`: named filters that `list`, `next` and `watch` apply until changed,
/// as Taskwarrior's contexts.
struct ContextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context", abstract: "Named filters (work, home) that list, next and watch apply until changed.",
        discussion: """
            todoctl context define work project:work +office names a filter: any words and \
            options a filter takes (+tag, -tag, project:NAME, pri:H, due:DATE, +OVERDUE, -t TAG, \
            --search TEXT …), checked at once. todoctl context work applies it; todoctl context \
            none leaves it; todoctl context alone says which is applied and lists them all; \
            todoctl context delete work deletes one. While one is applied, list, next and watch \
            show only the todos matching it and their own filter, and their first line says so \
            (context: work (project:work +office)); two values no todo can have at once (the \
            context's pri:H, the command's pri:L) are refused. add does not take the context's \
            fields: a todo added while one is applied may not show until it matches. watch reads \
            the context when it starts: a change in another terminal is seen by the next watch. \
            The contexts are this user's, kept in $XDG_CONFIG_HOME/todod/contexts (else \
            ~/.config/todod/contexts), one tab-separated line each, rewritten whole on each change.
            """,
        subcommands: [ContextApplyCommand.self, ContextDefineCommand.self, ContextDeleteCommand.self],
        defaultSubcommand: ContextApplyCommand.self)
}
