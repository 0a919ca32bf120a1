import Foundation

/// todoctl's arguments as the bytes the shell passed. Swift's `CommandLine.arguments` puts
/// U+FFFD in place of bytes that are not UTF-8, and such a title was stored so (`Caf�
/// au lait`) where the daemon refuses the same bytes on its socket. So an argument is
/// checked in the bytes of /proc/self/cmdline, and one that is not UTF-8 is refused,
/// written out with its bytes (`Caf\xE9 au lait`), before anything is sent.
enum ArgumentBytes {
    /// `argument 2, "Caf\xE9 au lait", is not UTF-8 …`, or nil when every argument is.
    static func complaint(in arguments: [String]) -> String? {
        // Only a replacement character can stand for bytes that were not UTF-8: the usual
        // command line costs no read.
        guard arguments.contains(where: { $0.unicodeScalars.contains("\u{FFFD}") }),
            let raw = FileManager.default.contents(atPath: "/proc/self/cmdline")
        else { return nil }
        // NUL after each argument; the first is the program.
        let words = raw.split(separator: 0, omittingEmptySubsequences: false).dropFirst()
        guard let (index, bytes) = words.enumerated().first(where: { String(validating: $0.element, as: UTF8.self) == nil }) else { return nil }
        return """
            argument \(index + 1), "\(writtenOut(Array(bytes)))", is not UTF-8: todod keeps text in UTF-8, and nothing was sent; \
            give it in UTF-8 (from Latin-1: iconv -f LATIN1 -t UTF-8)
            """
    }

    /// `bytes` as text, each byte that starts no UTF-8 character written as `\xE9`.
    static func writtenOut(_ bytes: [UInt8]) -> String {
        var text = ""
        var start = 0
        while start < bytes.count {
            let lead = bytes[start]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if start + length <= bytes.count, let character = String(validating: bytes[start..<start + length], as: UTF8.self) {
                text += character
                start += length
            } else {
                text += "\\x" + String(lead, radix: 16, uppercase: true)
                start += 1
            }
        }
        return text
    }
}
