/// A `TODOD_TEST_NOW` that cannot be used, in words.
public struct ClockError: Error, Sendable, Equatable {
    public let message: String
}
