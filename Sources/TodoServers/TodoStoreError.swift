/// Why the store cannot open a database or write to it; the message says what happened
/// and what to do.
public struct TodoStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
