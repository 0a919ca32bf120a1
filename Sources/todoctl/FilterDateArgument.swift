import ArgumentParser
import TodoClock
import TodoModel
import TodoViewModel

/// A date in a filter as typed; read against today when the command runs.
struct FilterDateArgument: ExpressibleByArgument {
    let date: LocalDate

    init?(argument: String) {
        guard let date = FilterDateParser.parse(argument, today: WallClock.today()) else { return nil }
        self.date = date
    }

    static var defaultValueDescription: String { FilterDateParser.accepted }

    static var defaultCompletionKind: CompletionKind {
        .list(["today", "tomorrow", "yesterday", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "+1w", "-1w"])
    }
}
