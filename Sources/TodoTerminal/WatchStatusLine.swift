/// One of the bottom lines, as text, with what it is (the renderer styles it).
public struct WatchStatusLine: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case prompt, message, notice, help, outage }
    public let kind: Kind
    public let text: String
    /// The part of `text` drawn in reverse video: a prompt's old value while it is selected.
    public let reversed: Range<String.Index>?

    public init(kind: Kind, text: String, reversed: Range<String.Index>? = nil) {
        self.kind = kind
        self.text = text
        self.reversed = reversed
    }
}
