import Foundation
import TodoModel

/// An instant `minutes` after a fixed origin, in whole milliseconds.
func at(_ minutes: Int) -> Date {
    Date(millisecondsSince1970: 1_780_000_000_000 + Int64(minutes) * 60_000)
}

func day(_ text: String) -> LocalDate {
    guard let date = LocalDate(text) else { preconditionFailure("bad test date \(text)") }
    return date
}

let today = day("2026-11-22")
