import Foundation

import TodoModel

/// Reads a due date as people type it: `2026-12-24`, `today`, `tomorrow`, a weekday
/// (`friday`, `fri`: the next one after today), `+3d`, `+2w`.
public enum DueDateParser {
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    public static func parse(_ text: String, today: LocalDate) -> LocalDate? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let date = LocalDate(word) { return date }
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let index = weekdays.firstIndex(where: { word.count >= 3 && $0.hasPrefix(word) }) {
            let ahead = (index + 1 - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        if word.hasPrefix("+"), let unit = word.last, let count = Int(word.dropFirst().dropLast()), count >= 0, count < 100_000 {
            switch unit {
            case "d": return today.adding(days: count)
            case "w": return today.adding(days: count * 7)
            default: return nil
            }
        }
        return nil
    }

    /// What `parse` accepts, for error messages and help.
    public static let accepted = "YYYY-MM-DD, today, tomorrow, a weekday (mon … sun), +Nd or +Nw"
}
