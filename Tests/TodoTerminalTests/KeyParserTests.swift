import Testing
import TodoTerminal

@Suite("KeyParser")
struct KeyParserTests {
    @Test("arrows, paging keys, enter, backspace and control keys")
    func specialKeys() {
        var parser = KeyParser()
        let keys = parser.keys(from: Array("\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\r\u{7F}\u{03}\u{04}".utf8))
        #expect(keys == [.up, .down, .pageUp, .pageDown, .enter, .backspace, .controlC, .controlD])
    }

    @Test("an escape sequence split across reads is still one key")
    func splitSequence() {
        var parser = KeyParser()
        #expect(parser.keys(from: [0x1B]) == [])
        #expect(parser.keys(from: Array("[".utf8)) == [])
        #expect(parser.keys(from: Array("Bj".utf8)) == [.down, .character("j")])
    }

    @Test("a lone escape is the Escape key; unknown sequences are skipped")
    func escape() {
        var parser = KeyParser()
        #expect(parser.keys(from: [0x1B]) == [])
        #expect(parser.flushEscape() == .escape)
        #expect(parser.keys(from: Array("\u{1B}[99Zx".utf8)) == [.character("x")])
    }

    @Test("UTF-8 characters arrive whole, also when split")
    func unicode() {
        var parser = KeyParser()
        let bytes = Array("é✓".utf8)
        #expect(parser.keys(from: Array(bytes[..<1])) == [])
        #expect(parser.keys(from: Array(bytes[1...])) == [.character("é"), .character("✓")])
    }
}
