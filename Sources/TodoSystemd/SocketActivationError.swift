/// Why the sockets handed over by systemd cannot be used.
public struct SocketActivationError: Error, CustomStringConvertible, Sendable {
    /// The offending file descriptor, or nil when the environment itself is wrong.
    public let fileDescriptor: CInt?
    /// What is wrong and what to do about it.
    public let message: String

    /// Creates an error about `fileDescriptor` (nil for the environment).
    public init(fileDescriptor: CInt?, message: String) {
        self.fileDescriptor = fileDescriptor
        self.message = message
    }

    public var description: String { message }
}
