import ArgumentParser
import TodoModel
import TodoViewModel

/// The context applied when `list`, `next` or `watch` starts: its filter holds with the
/// command's own (both must match), and the command says so in its first line, so that
/// nobody wonders where the other todos went.
struct AppliedContext {
    let context: ContextFile.Context
    let path: String
    /// The context's own conditions, read from its words as `list` reads its own.
    let options: FilterOptions

    /// The applied context, nil when none is; an unreadable file or a context whose
    /// words no longer read (the file edited by hand) is an error naming the file's line.
    static func current() throws -> AppliedContext? {
        let file = try ContextFile.read()
        guard let context = file.appliedContext else { return nil }
        do {
            return AppliedContext(context: context, path: file.path, options: try options(context.words))
        } catch {
            throw ContextFile.failure("""
                the contexts file \(file.path), line \(context.line): the context \(context.name)'s filter does not read: \
                \(error); define it again (todoctl context define \(context.name) WORD…) or leave it (todoctl context none)
                """)
        }
    }

    /// `words` read as `list`'s filter reads its own (modifiers, and its options such as
    /// `-t home`), with the same checks; the one filter grammar, not a second.
    static func options(_ words: [String]) throws -> FilterOptions {
        do {
            return try FilterOptions.read(words)
        } catch {
            throw ValidationError(FilterOptions.message(for: error))
        }
    }

    /// The line that names it: `context: work (project:work +office)`.
    var label: String { "context: \(context.name) (\(context.typed))" }

    /// `own` (a command's filter) narrowed by the context's: both must hold. Two values
    /// for one field that no todo can have at once (pri:H and pri:L) are refused, naming the
    /// context, rather than one silently winning.
    func narrowing(_ own: TodoFilter) throws -> TodoFilter {
        // The context's virtual status tag (+COMPLETED) holds over the command's default.
        let theirs = TodoValidation.normalised(options.filter(status: own.status))
        let own = TodoValidation.normalised(own)
        func clash(_ field: String, _ mine: String, _ contexts: String) -> Error {
            ValidationError("""
                the context \(context.name) (\(context.typed)) asks for \(field) \(contexts) and this command for \(mine): no todo has both; \
                ask for the same, or leave the context (todoctl context none)
                """)
        }
        func one<Value: Equatable>(_ field: String, _ mine: Value?, _ context: Value?) throws -> Value? {
            guard let mine, let context, mine != context else { return mine ?? context }
            throw clash(field, "\(mine)", "\(context)")
        }
        var both = own
        both.status = theirs.status
        both.tags = own.tags + theirs.tags.filter { !own.tags.contains($0) }
        both.notTags = own.notTags + theirs.notTags.filter { !own.notTags.contains($0) }
        both.priority = try one("priority", own.priority, theirs.priority)
        both.search = try one("the text", own.search, theirs.search)
        both.dueOn = try one("due day", own.dueOn, theirs.dueOn)
        // Each span's end (and its minute, --overdue's) holds: the earlier.
        if let before = theirs.dueBefore { both.narrowDue(before: before, by: theirs.dueByTime) }
        both.dueAfter = [own.dueAfter, theirs.dueAfter].compactMap(\.self).max()
        both.noDue = own.noDue || theirs.noDue
        if both.noDue, both.dueOn != nil || both.dueBefore != nil || both.dueAfter != nil {
            throw own.noDue ? clash("a due day", "no due day", "one") : clash("no due day", "a due day", "none")
        }
        both.waiting = own.waiting || theirs.waiting
        both.active = own.active || theirs.active
        both.blocked = try one("blocked", own.blocked, theirs.blocked)
        both.blocking = try one("blocking", own.blocking, theirs.blocking)
        both.dependsOn = own.dependsOn + theirs.dependsOn.filter { !own.dependsOn.contains($0) }
        both.ready = own.ready || theirs.ready
        both.hasScheduled = own.hasScheduled || theirs.hasScheduled
        both.scheduledBefore = [own.scheduledBefore, theirs.scheduledBefore].compactMap(\.self).min()
        both.scheduledAfter = [own.scheduledAfter, theirs.scheduledAfter].compactMap(\.self).max()
        both.hasUntil = own.hasUntil || theirs.hasUntil
        both.untilBefore = [own.untilBefore, theirs.untilBefore].compactMap(\.self).min()
        both.untilAfter = [own.untilAfter, theirs.untilAfter].compactMap(\.self).max()
        // The narrower project: home.garden within home; two apart match nothing.
        switch (own.project, theirs.project) {
        case let (mine?, context?) where mine != context:
            if TodoFilter.project(mine, isIn: context) { both.project = mine }
            else if TodoFilter.project(context, isIn: mine) { both.project = context }
            else { throw clash("the project", mine.isEmpty ? "none" : mine, context.isEmpty ? "none" : context) }
        case let (mine, context): both.project = mine ?? context
        }
        return both
    }
}
