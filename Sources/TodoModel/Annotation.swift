import Foundation

/// A timestamped line added to a todo (`todoctl annotate`), as Taskwarrior's annotations:
/// a todo keeps them in the order they were added, each with the instant it was added.
/// Named `entry` and `description` on the wire, as Taskwarrior names them, so that the
/// two read each other's without a dictionary.
public struct Annotation: Sendable, Codable, Equatable, Hashable {
    /// When it was added (whole milliseconds, as every instant todod keeps).
    public var entry: Date
    public var description: String

    public init(entry: Date, description: String) {
        self.entry = entry
        self.description = description
    }

    /// The most annotations a todo holds: enough for a log kept by hand, few enough that
    /// `show` stays readable and a todo's row stays small.
    public static let maximumCount = 100
}

extension Array where Element == Annotation {
    /// The index of the annotation `text` names, as Taskwarrior's `denotate` finds it: the
    /// one whose text is exactly `text`, else the one whose text starts with it. Throws when
    /// none matches or the prefix matches more than one (the error lists them).
    public func index(naming text: String, of todo: Todo) throws(TodoModelError) -> Int {
        if let exact = firstIndex(where: { $0.description == text }) { return exact }
        let matches = indices.filter { self[$0].description.hasPrefix(text) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            let held = isEmpty ? "it has none" : "it has: " + map { "\"\($0.description)\"" }.joined(separator: ", ")
            throw .invalid(field: "annotation", reason: "#\(todo.number) has no annotation that is or starts with \"\(text)\"; \(held)")
        }
        let named = matches.map { "\"\(self[$0].description)\"" }.joined(separator: ", ")
        throw .invalid(field: "annotation", reason: "\"\(text)\" starts \(matches.count) annotations of #\(todo.number) (\(named)); give more of the text")
    }
}
