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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            let breakLength = byte == UInt8(ascii: "\r") && data.index(after: index) < data.endIndex && data[data.index(after: index)] == UInt8(ascii: "\n") ? 2 : byte == UInt8(ascii: "\n") ? 1 : 0
            if breakLength > 0 {
                let next = data.index(index, offsetBy: breakLength)
                if next < data.endIndex, data[next] == UInt8(ascii: " ") || data[next] == UInt8(ascii: "\t") {
                    index = data.index(after: next)
                    continue
                }
            }
            bytes.append(byte)
            index = data.index(after: index)
        }
        return try utf8(Data(bytes))
    }
}
