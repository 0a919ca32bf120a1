import TodoModel

/// Reads a date in a filter: every word `DueDateParser` takes, and the past for sure
/// (`yesterday`, `-3d`, `-2w`), since "due before a week ago" is a question worth asking.
public enum FilterDateParser {
    /// The day `text` names, read against `today`; nil when it names none.
    public static func parse(_ text: String, today: LocalDate) -> LocalDate? {
        if let date = DueDateParser.parse(text, today: today) { return date }
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if word == "yesterday" { return today.adding(days: -1) }
        if word.hasPrefix("-"), let ahead = DueDateParser.parse("+" + word.dropFirst(), today: today) {
            return today.adding(days: -today.days(until: ahead))
        }
        return nil
    }

    /// What `parse` accepts, for error messages and help: the past words are named only
    /// when `DueDateParser` does not already take them.
    public static let accepted =
        DueDateParser.parse("yesterday", today: LocalDate(daysSince1970: 0)) != nil
        ? DueDateParser.accepted : DueDateParser.accepted + ", yesterday, -Nd or -Nw"
}
