import TodoModel

/// The order `todoctl list --sort due,-priority` asks for: keys compared in turn, each
/// ascending or (`-key`) descending, ties broken by number, ascending. A todo without a
/// value for a key (no due date, no project) comes after those with one in either
/// direction, as Taskwarrior puts them: "no date" is never the most pressing.
public struct TodoSort: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case number, due, priority, title, created, updated, project
    }

    public struct Term: Sendable, Equatable {
        public let key: Key
        public let descending: Bool
    }

    /// A `--sort` that names no key there is, said with the keys there are.
    public struct UnknownKey: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public let terms: [Term]

    /// The keys people may name, for `--help` and the error.
    public static let keyList = Key.allCases.map(\.rawValue).joined(separator: ", ")

    /// Taskwarrior's names for keys todoctl names otherwise: `--sort description` came
    /// with no hint that it is title here (outside probe).
    public static let taskwarriorNames: [String: String] = ["description": "title", "entry": "created", "modified": "updated", "id": "number"]

    /// `did you mean title? (Taskwarrior's description is todoctl's title) `, or the key an
    /// abbreviation begins (`pri`), or a typo's nearest key; empty when no key is near.
    static func meant(_ name: String) -> String {
        let lower = name.lowercased()
        if let key = taskwarriorNames[lower] { return "did you mean \(key)? (Taskwarrior's \(lower) is todoctl's \(key)) " }
        return Nearest.meant(by: lower, in: Key.allCases.map(\.rawValue)).map { "did you mean \($0)? " } ?? ""
    }

    /// Reads `due,-priority`; an unknown or empty key, or one named twice, is refused with
    /// the keys there are.
    public init(_ text: String) throws(UnknownKey) {
        // As --columns '' says it: no key named is no key misspelt.
        guard text.contains(where: { $0 != "," && $0 != "-" && !$0.isWhitespace }) else {
            throw UnknownKey(description: "--sort '\(text)' names no key: give one or more of \(Self.keyList), separated by commas, each with - before it for descending (--sort due,-priority)")
        }
        var terms: [Term] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let descending = piece.hasPrefix("-")
            let name = descending ? piece.dropFirst() : piece
            guard let key = Key(rawValue: name.lowercased()) else {
                let what = name.isEmpty ? "an empty sort key" : "unknown sort key '\(name)'"
                throw UnknownKey(
                    description: "\(what) in --sort '\(text)'; \(Self.meant(String(name)))the keys are \(Self.keyList), each with - before it for descending (--sort due,-priority)")
            }
            // Refused, as --columns refuses a column named twice: the second can never decide
            // anything, and `due,-due` is a slip whose meaning is a guess.
            guard !terms.contains(where: { $0.key == key }) else {
                throw UnknownKey(description: "sort key '\(key.rawValue)' is named twice in --sort '\(text)'; name each key once, in the order wanted")
            }
            terms.append(Term(key: key, descending: descending))
        }
        self.terms = terms
    }

    /// Whether `a` comes before `b`.
    public func precedes(_ a: Todo, _ b: Todo) -> Bool {
        for term in terms {
            switch Self.compare(term.key, a, b) {
            case .same: continue
            case .less(let less): return term.descending ? !less : less
            case .missing(let aFirst): return aFirst
            }
        }
        return a.number < b.number
    }

    /// The rows in this order.
    public func sorted(_ rows: [TodoViewModel]) -> [TodoViewModel] {
        rows.sorted { precedes($0.todo, $1.todo) }
    }

    private enum Comparison {
        case same
        /// Both have a value and they differ: whether `a`'s is the smaller.
        case less(Bool)
        /// Only one has a value: whether it is `a`, which then comes first in either direction.
        case missing(aFirst: Bool)
    }

    private static func compare(_ key: Key, _ a: Todo, _ b: Todo) -> Comparison {
        switch key {
        case .number: ordered(a.number, b.number)
        // By the day, then the time on it (`Todo.dueOrder`).
        case .due: optional(a.dueOrder, b.dueOrder)
        case .priority: ordered(a.priority, b.priority)
        case .title: ordered(a.title.lowercased(), b.title.lowercased())
        case .created: ordered(a.createdAt, b.createdAt)
        case .updated: ordered(a.updatedAt, b.updatedAt)
        case .project: optional(a.project, b.project)
        }
    }

    private static func ordered<T: Comparable>(_ a: T, _ b: T) -> Comparison {
        a == b ? .same : .less(a < b)
    }

    private static func optional<T: Comparable>(_ a: T?, _ b: T?) -> Comparison {
        switch (a, b) {
        case let (a?, b?): ordered(a, b)
        case (.some, nil): .missing(aFirst: true)
        case (nil, .some): .missing(aFirst: false)
        case (nil, nil): .same
        }
    }
}
