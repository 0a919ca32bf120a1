import Testing
import TodoTerminal

@Suite("LineEditor")
struct LineEditorTests {
    /// `keys` applied one after another to `editor`.
    private func edited(_ editor: LineEditor, _ keys: [Key]) -> LineEditor {
        keys.reduce(editor) { $0.applying($1) }
    }

    /// The text with `|` at the cursor, to read a state at a glance.
    private func shown(_ editor: LineEditor) -> String {
        editor.beforeCursor + "|" + editor.afterCursor
    }

    private func typed(_ text: String) -> [Key] {
        text.map(Key.character)
    }

    @Test("characters go in at the cursor, which starts at the end")
    func typing() {
        let editor = edited(LineEditor("bread"), [.home] + typed("Buy "))
        #expect(shown(editor) == "Buy |bread")
        #expect(editor.text == "Buy bread", "\(editor.text)")
    }

    @Test("Left and Right move one character and stop at the ends; Home and End go to them")
    func moving() {
        let start = LineEditor("abc")
        #expect(shown(edited(start, [.left])) == "ab|c")
        #expect(shown(edited(start, [.left, .left, .left, .left])) == "|abc")
        #expect(shown(edited(start, [.home, .right])) == "a|bc")
        #expect(shown(edited(start, [.right])) == "abc|")
        #expect(shown(edited(start, [.home])) == "|abc")
        #expect(shown(edited(start, [.home, .end])) == "abc|")
    }

    @Test("Alt-B and Alt-F move to the start of the word before and the end of the word after, over spaces")
    func words() {
        let start = LineEditor("pay  the gas")
        #expect(shown(edited(start, [.wordBack])) == "pay  the |gas")
        #expect(shown(edited(start, [.wordBack, .wordBack])) == "pay  |the gas")
        #expect(shown(edited(start, [.home, .wordForward])) == "pay|  the gas")
        #expect(shown(edited(start, [.home, .wordForward, .wordForward])) == "pay  the| gas")
        #expect(shown(edited(start, [.home, .wordBack])) == "|pay  the gas")
    }

    @Test("Alt-B, Alt-F, Alt-D and Alt-Backspace stop at punctuation, as readline's words are letters and digits; Ctrl-W kills back to a space")
    func wordsStopAtPunctuation() {
        let start = LineEditor("Buy milk, eggs.txt")
        let cases: [([Key], String)] = [
            ([.wordBack], "Buy milk, eggs.|txt"),
            ([.wordBack, .wordBack], "Buy milk, |eggs.txt"),
            ([.wordBack, .wordBack, .wordBack], "Buy |milk, eggs.txt"),
            ([.home, .wordForward], "Buy| milk, eggs.txt"),
            ([.home, .wordForward, .wordForward], "Buy milk|, eggs.txt"),
            ([.home, .wordForward, .wordForward, .wordForward], "Buy milk, eggs|.txt"),
            ([.altBackspace], "Buy milk, eggs.|"),
            ([.home, .wordForward, .alt("d")], "Buy|, eggs.txt"),
            ([.controlW], "Buy milk, |"),
            ([.wordBack, .controlW], "Buy milk, |txt"),
        ]
        for (keys, expected) in cases {
            #expect(shown(edited(start, keys)) == expected, "\(keys): \(shown(edited(start, keys)))")
        }
    }

    @Test("Backspace takes the character before the cursor; at the start nothing")
    func backspace() {
        #expect(shown(edited(LineEditor("abc"), [.left, .backspace])) == "a|c")
        #expect(shown(edited(LineEditor("abc"), [.home, .backspace])) == "|abc")
    }

    @Test("Delete and Ctrl-D take the character under the cursor; at the end nothing")
    func delete() {
        for key in [Key.delete, .controlD] {
            #expect(shown(edited(LineEditor("abc"), [.home, key])) == "|bc", "\(key): \(shown(edited(LineEditor("abc"), [.home, key])))")
            #expect(shown(edited(LineEditor("abc"), [key])) == "abc|", "\(key): \(shown(edited(LineEditor("abc"), [key])))")
        }
    }

    @Test("Ctrl-U kills to the start, Ctrl-K to the end")
    func kills() {
        let middle = edited(LineEditor("Buy bread"), [.left, .left, .left])
        #expect(shown(middle.applying(.controlU)) == "|ead")
        #expect(shown(middle.applying(.controlK)) == "Buy br|")
    }

    @Test("Ctrl-W kills the word before the cursor and the spaces after it")
    func killWord() {
        #expect(shown(edited(LineEditor("Pay gas bill"), [.controlW])) == "Pay gas |")
        #expect(shown(edited(LineEditor("Pay gas  "), [.controlW])) == "Pay |")
        #expect(shown(edited(LineEditor("Pay gas bill"), [.wordBack, .controlW])) == "Pay |bill")
    }

    @Test("Alt-D kills from the cursor to the end of the word after it, over spaces; at the end nothing")
    func killWordForward() {
        #expect(shown(edited(LineEditor("Pay gas bill"), [.home, .alt("d")])) == "| gas bill", "\(shown(edited(LineEditor("Pay gas bill"), [.home, .alt("d")])))")
        #expect(shown(edited(LineEditor("Pay gas bill"), [.home, .wordForward, .alt("d")])) == "Pay| bill", "\(shown(edited(LineEditor("Pay gas bill"), [.home, .wordForward, .alt("d")])))")
        #expect(shown(edited(LineEditor("Pay gas"), [.alt("d")])) == "Pay gas|", "\(shown(edited(LineEditor("Pay gas"), [.alt("d")])))")
    }

    @Test("Alt-Backspace kills the word before the cursor, as Ctrl-W does between spaces")
    func killWordBack() {
        #expect(shown(edited(LineEditor("Pay gas bill"), [.altBackspace])) == "Pay gas |", "\(shown(edited(LineEditor("Pay gas bill"), [.altBackspace])))")
        #expect(shown(edited(LineEditor("Pay gas bill"), [.wordBack, .altBackspace])) == "Pay |bill", "\(shown(edited(LineEditor("Pay gas bill"), [.wordBack, .altBackspace])))")
    }

    @Test("any other Alt-key leaves the text, the cursor and the selection as they are")
    func otherAltKeys() {
        for key in [Key.alt("x"), .alt("u"), .alt("1")] {
            #expect(edited(LineEditor("Pay gas", selected: true), [key]) == LineEditor("Pay gas", selected: true), "\(key)")
            #expect(shown(edited(LineEditor("Pay gas"), [.left, key])) == "Pay ga|s", "\(key): \(shown(edited(LineEditor("Pay gas"), [.left, key])))")
        }
    }

    @Test("an old value starts selected: a character replaces it all")
    func selectedReplacedByTyping() {
        let editor = edited(LineEditor("Buy bread", selected: true), typed("Buy sourdough bread"))
        #expect(editor.text == "Buy sourdough bread", "\(editor.text)")
        #expect(!editor.isSelected)
    }

    @Test("a selected old value goes with Backspace, Delete, Ctrl-D, Ctrl-U, Ctrl-K or Ctrl-W")
    func selectedDeleted() {
        for key in [Key.backspace, .delete, .controlD, .controlU, .controlK, .controlW] {
            let editor = LineEditor("Buy bread", selected: true).applying(key)
            #expect(shown(editor) == "|" && !editor.isSelected, "\(key): \(shown(editor)) selected \(editor.isSelected)")
        }
    }

    @Test("a movement key keeps the selected old value to edit, moving from its end")
    func selectedKeptByMoving() {
        let home = LineEditor("bread", selected: true).applying(.home)
        #expect(shown(home) == "|bread" && !home.isSelected, "\(shown(home)) selected \(home.isSelected)")
        let left = LineEditor("bread", selected: true).applying(.left)
        #expect(shown(left) == "brea|d" && !left.isSelected, "\(shown(left)) selected \(left.isSelected)")
        let end = LineEditor("bread", selected: true).applying(.end)
        #expect(shown(end.applying(.character("s"))) == "breads|")
    }

    @Test("Enter, Escape and Tab are the prompt's: the editor stays as it is, selection and all")
    func promptKeysLeaveIt() {
        let selected = LineEditor("bread", selected: true)
        for key in [Key.enter, .escape, .tab, .up, .down] {
            #expect(selected.applying(key) == selected, "\(key): \(shown(selected.applying(key)))")
        }
        #expect(LineEditor("", selected: true).isSelected == false)
    }

    @Test("a wide character (CJK, emoji, a ZWJ family) moves and goes as one")
    func wideCharacters() {
        let editor = LineEditor("東京🙂👩‍👩‍👧")
        #expect(shown(editor.applying(.left)) == "東京🙂|👩‍👩‍👧")
        #expect(editor.applying(.backspace).text == "東京🙂", "\(editor.applying(.backspace).text)")
        #expect(shown(edited(editor, [.home, .right, .delete])) == "東|🙂👩‍👩‍👧")
    }

    @Test("the scalars of an emoji typed one by one join into one character")
    func scalarsJoin() {
        let editor = edited(LineEditor(), "👩‍👩‍👧".unicodeScalars.map { Key.character(Character($0)) })
        #expect(editor.text == "👩‍👩‍👧" && editor.cursor == 1, "\(editor.text) cursor \(editor.cursor)")
    }
}
