import Foundation
import TodoModel

/// Todos with every field drawn at random, texts full of what JSON must escape: for the
/// tests that hold the wire's own readers and writers to Foundation's.
enum RandomTodo {
    static let alphabet = Array("aZ09 \"\\/\n\t\r\u{0}\u{1}\u{1f}\u{7f}é€😀\u{2028}#-_.:,{}[]")

    static func text() -> String { String((0..<Int.random(in: 0...12)).map { _ in alphabet.randomElement()! }) }

    static func instant() -> Date { Date(millisecondsSince1970: Int64.random(in: -5_000_000_000_000...253_402_300_799_999)) }

    static func day() -> LocalDate? {
        Bool.random() ? LocalDate(year: Int.random(in: 1...9999), month: Int.random(in: 1...12), day: Int.random(in: 1...28)) : nil
    }

    /// A time of day or none; the todo keeps one only beside its day.
    static func time() -> TimeOfDay? { Bool.random() ? TimeOfDay(minutes: Int.random(in: 0..<1440)) : nil }

    static func make(number: Int) -> Todo {
        Todo(
            number: number, title: text(), notes: text(), priority: Priority.allCases.randomElement()!,
            due: day(), tags: (0..<Int.random(in: 0...3)).map { _ in text() }, createdAt: instant(), updatedAt: instant(),
            completedAt: Bool.random() ? instant() : nil, deletedAt: Bool.random() ? instant() : nil,
            revision: Int.random(in: Int.min...Int.max),
            recurrence: Bool.random() ? Recurrence(count: Int.random(in: 1...99), unit: [.day, .week, .month, .year].randomElement()!) : nil,
            parent: Bool.random() ? Int.random(in: 1...number) : nil, wait: day(),
            previous: Bool.random() ? Int.random(in: 1...number) : nil,
            foreign: Bool.random() ? [text(): text(), "taskwarrior": text()] : [:],
            annotations: (0..<Int.random(in: 0...2)).map { _ in Annotation(entry: instant(), description: text()) },
            project: Bool.random() ? text() : nil, started: Bool.random() ? instant() : nil,
            depends: (0..<Int.random(in: 0...2)).map { _ in UUID() }, scheduled: day(), until: day(),
            dueTime: time(), waitTime: time(), scheduledTime: time())
    }
}
