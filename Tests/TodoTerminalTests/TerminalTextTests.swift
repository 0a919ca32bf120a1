import Testing
import TodoModel
@testable import TodoTerminal
import TodoViewModel

@Suite("TerminalText")
struct TerminalTextTests {
    /// The title of the issue: retitles the terminal, rings the bell, clears the screen.
    static let hostile = "x \u{1B}]0;PWNED\u{07} \u{1B}[2J"

    @Test("escape sequences are written out visibly, not sent to the terminal")
    func escapesControls() {
        let shown = TerminalText.escaped(Self.hostile)
        #expect(shown == #"x \u{1B}]0;PWNED\u{7} \u{1B}[2J"#)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(TerminalText.escaped("del\u{7F} c1\u{9B} rtl\u{202E}") == #"del\u{7F} c1\u{9B} rtl\u{202E}"#)
        #expect(TerminalText.escaped("plain café 東京 🙂") == "plain café 東京 🙂")
    }

    @Test("a control byte or DEL is escaped wherever it stands, in a word's bytes or the tail after them, in a string or a part of one")
    func escapesAtEveryPosition() {
        for length in 1...19 {
            for position in 0..<length {
                for bad in ["\u{1}", "\u{1F}", "\u{7F}"] {
                    let text = String(repeating: "a", count: position) + bad + String(repeating: "~", count: length - position - 1)
                    #expect(TerminalText.escaped(text) != text, "\(length) \(position)")
                    let part = ("  " + text + " ")[...].dropFirst(2).dropLast()
                    #expect(!TerminalText.isPrintableASCII(part), "\(length) \(position)")
                }
            }
            let printable = String(repeating: " ~", count: length)
            #expect(TerminalText.escaped(printable) == printable && TerminalText.isPrintableASCII(("x" + printable)[...].dropFirst()))
            #expect(!TerminalText.isPrintableASCII(printable + "é"))
        }
    }

    @Test("notes keep their line breaks and tabs, and nothing else unprintable")
    func notesKeepLines() {
        #expect(TerminalText.escapedNotes("a\n\tb\u{1B}c\r") == "a\n\tb\\u{1B}c\\u{D}")
    }

    @Test("width counts columns: two for CJK and emoji, none for combining marks")
    func widths() {
        #expect(TerminalText.width("abc") == 3)
        #expect(TerminalText.width("東京") == 4)
        #expect(TerminalText.width("🙂") == 2)
        #expect(TerminalText.width("👩‍👩‍👧") == 2)
        #expect(TerminalText.width("❤️") == 2)
        #expect(TerminalText.width("e\u{301}") == 1)
    }

    @Test("a cut never splits a wide character and never overshoots the width")
    func truncation() {
        #expect(TerminalText.truncated("東京タワー", toWidth: 6) == "東京…")
        #expect(TerminalText.width(TerminalText.truncated("東京タワー", toWidth: 6)) == 5)
        #expect(TerminalText.fitted("東京タワー", toWidth: 6) == "東京… ")
        #expect(TerminalText.fitted("ab", toWidth: 4) == "ab  ")
        #expect(TerminalText.fitted("🙂🙂🙂", toWidth: 4) == "🙂… ")
    }

    @Test("a table row with a hostile title shows it escaped, and the columns still line up")
    func tableEscapes() {
        let table = TodoTable(rows: [TodoViewModel(todo(1, Self.hostile)), TodoViewModel(todo(2, "two"))], styler: TextStyler(colours: false))
        let lines = table.render()
        #expect(lines[0] == #"#1 [ ]   x \u{1B}]0;PWNED\u{7} \u{1B}[2J"#)
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test("tables align titles of CJK and emoji by columns on screen", arguments: [80, 30])
    func tableAlignsWideTitles(columns: Int) {
        var screen = WatchScreen(rows: 8, columns: columns)
        let titles = ["牛乳を買う", "🎂 cake 🎉", "plain", "東京タワーに行って写真を撮ってくる"]
        var todos = titles.enumerated().map { todo($0.offset + 1, $0.element) }
        todos = todos.map { var t = $0; t.tags = ["home"]; return t }
        screen.incorporate(list(todos))
        let frame = WatchRenderer(styler: TextStyler(colours: false)).render(screen)
        let rows = frame[1...4]
        let tagColumns = Set(rows.map { line in TerminalText.width(line.components(separatedBy: "#home")[0]) })
        #expect(tagColumns.count == 1, "the tags start at different columns: \(Array(rows))")
        #expect(rows.allSatisfy { TerminalText.width($0) <= max(columns, 44) })
    }
}
