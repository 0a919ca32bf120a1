import Foundation

/// The bytes of a text format (todo.txt, iCalendar) as text: strictly UTF-8, so a file in
/// another encoding is refused where it goes wrong instead of read with U+FFFD in its titles.
public enum InteropText {
    /// `data` as UTF-8 text, or the line of its first byte that is not UTF-8.
    public static func utf8(_ data: Data) throws(InteropError) -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        var line = 1
        for piece in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: piece, as: UTF8.self) == nil { break }
            line += 1
        }
        throw InteropError("line \(line)", "is not UTF-8 text: save the file as UTF-8 and import it again")
    }

    /// iCalendar's folding undone on the bytes (a line break followed by a space or a tab
    /// joins the lines), then read as UTF-8: RFC 5545 folds at 75 octets, which may split a
    /// character, so unfolding the decoded text would leave two U+FFFD where it was.
    public static func unfoldedUTF8(_ data: Data) throws(InteropError) -> String {
        let (cr, lf, space, tab) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\t"))
        let bytes = [UInt8](data)
        var unfolded: [UInt8] = []
        unfolded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            // A CRLF (or a bare LF) followed by a space or a tab is a fold: all three go.
            let lineBreak = bytes[index] == lf ? 1 : bytes[index] == cr && index + 1 < bytes.count && bytes[index + 1] == lf ? 2 : 0
            if lineBreak > 0, index + lineBreak < bytes.count, bytes[index + lineBreak] == space || bytes[index + lineBreak] == tab {
                index += lineBreak + 1
                continue
            }
            unfolded.append(bytes[index])
            index += 1
        }
        return try utf8(Data(unfolded))
    }
}
