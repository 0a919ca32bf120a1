import ArgumentParser
import TodoClock
import TodoModel
import TodoViewModel

/// A date in a filter as typed; read against today when the command runs.
struct FilterDateArgument: ExpressibleByArgument {
    let date: LocalDate
    /// As typed, for a report that says what it counts (`burndown --due-before eow`).
    let text: String

    init?(argument: String) {
        guard let date = FilterDateParser.parse(argument, today: WallClock.today()) else { return nil }
        self.date = date
        text = argument
    }

    /// For `transform:`: the date, or why the text names none.
    static func checked(_ text: String) throws -> FilterDateArgument {
        guard let date = FilterDateArgument(argument: text) else { throw DateProblem(text) }
        return date
    }

    static var defaultValueDescription: String { FilterDateParser.accepted }

    static var defaultCompletionKind: CompletionKind {
        .list(["today", "tomorrow", "yesterday", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "+1w", "-1w"])
    }
}
