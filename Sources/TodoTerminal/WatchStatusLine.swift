/// One of the bottom lines, as text, with what it is (the renderer styles it).
public struct WatchStatusLine: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case prompt, message, notice, help, outage }
    public let kind: Kind
    public let text: String
}
