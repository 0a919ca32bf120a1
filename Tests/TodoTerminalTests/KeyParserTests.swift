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

    @Test("each editing sequence a terminal sends is its key", arguments: [
        ("\u{1B}[H", Key.home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
        ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
        ("\u{1B}[3~", .delete), ("\u{1B}[D", .left), ("\u{1B}[C", .right), ("\u{1B}OD", .left), ("\u{1B}OC", .right),
        ("\u{1B}b", .wordBack), ("\u{1B}f", .wordForward), ("\u{1B}[1;5D", .wordBack), ("\u{1B}[1;5C", .wordForward),
        ("\u{1B}[1;3D", .wordBack), ("\u{1B}[1;3C", .wordForward),
    ])
    func editingSequence(sequence: String, key: Key) {
        #expect(KeyParser.key(of: Array(sequence.utf8)) == key, "\(Array(sequence.utf8)): \(String(describing: KeyParser.key(of: Array(sequence.utf8))))")
    }

    @Test("readline's control keys: Ctrl-A, E, B, F as Home, End, Left, Right; Ctrl-D, K, U, W their own", arguments: [
        (0x01, Key.home), (0x05, .end), (0x02, .left), (0x06, .right),
        (0x04, .controlD), (0x0B, .controlK), (0x15, .controlU), (0x17, .controlW), (0x7F, .backspace), (0x08, .backspace),
    ] as [(UInt8, Key)])
    func controlKey(byte: UInt8, key: Key) {
        #expect(KeyParser.key(of: [byte]) == key, "\(byte): \(String(describing: KeyParser.key(of: [byte])))")
    }

    @Test("a wide character is one key, whole: CJK and emoji; a ZWJ family is its scalars, each whole")
    func wideCharacterKeys() {
        #expect(KeyParser.key(of: Array("東".utf8)) == .character("東"))
        #expect(KeyParser.key(of: Array("🙂".utf8)) == .character("🙂"))
        var parser = KeyParser()
        let keys = parser.keys(from: Array("東🙂\u{1B}[D".utf8))
        #expect(keys == [.character("東"), .character("🙂"), .left], "\(keys)")
    }

    @Test("ESC then another byte in the same read is one Alt-key: Alt-D, Alt-Backspace, Alt-X; a lone ESC is Escape", arguments: [
        ([0x1B, UInt8(ascii: "d")], Key.alt("d")), ([0x1B, 0x7F], .altBackspace), ([0x1B, 0x08], .altBackspace),
        ([0x1B, UInt8(ascii: "x")], .alt("x")), ([0x1B, UInt8(ascii: "u")], .alt("u")), ([0x1B, UInt8(ascii: "b")], .wordBack),
    ] as [([UInt8], Key)])
    func altKey(bytes: [UInt8], key: Key) {
        #expect(KeyParser.key(of: bytes) == key, "\(bytes): \(String(describing: KeyParser.key(of: bytes)))")
    }

    @Test("Alt-keys in one read are keys of their own, never Escape and the letter; a lone ESC after them is Escape")
    func altLetters() {
        var parser = KeyParser()
        let keys = parser.keys(from: Array("\u{1B}b\u{1B}x\u{1B}d\u{1B}\u{7F}\u{1B}".utf8))
        #expect(keys == [.wordBack, .alt("x"), .alt("d"), .altBackspace], "\(keys)")
        let escape = parser.flushEscape()
        #expect(escape == .escape, "\(String(describing: escape))")
    }
}
