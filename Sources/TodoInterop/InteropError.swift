/// A record of an input that could not be read: where it is (`line 3`, `task 2`) and why.
public struct InteropError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the input, as a person finds it: "line 3", "task 2 (uuid …)".
    public var position: String
    /// What is wrong, and what was expected.
    public var reason: String

    public init(_ position: String, _ reason: String) {
        self.position = position
        self.reason = reason
    }

    public var description: String { "\(position): \(reason)" }
}
