import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// The prompt's line as readline draws one: the old value selected, the cursor inside the
/// text on the right column, the line scrolled sideways to keep the cursor in view.
@Suite("watch's prompt line")
struct WatchPromptLineTests {
    private func screen(_ todos: [Todo], columns: Int = 80) -> WatchScreen {
        var screen = WatchScreen(rows: 12, columns: columns)
        screen.incorporate(list(todos))
        return screen
    }

    private func promptLine(_ screen: WatchScreen) -> WatchStatusLine? {
        screen.statusLines.first { $0.kind == .prompt }
    }

    private func type(_ text: String, into screen: inout WatchScreen) {
        for character in text { _ = screen.handle(.character(character)) }
    }

    @Test("e shows the old title reversed with the cursor after it; a character replaces it and the reverse goes")
    func selectedOldValue() throws {
        var screen = screen([todo(1, "Buy bread")])
        _ = screen.handle(.character("e"))
        let line = try #require(promptLine(screen))
        #expect(line.text == "#1 title: Buy bread▏", "\(line.text)")
        let reversed = try #require(line.reversed)
        #expect(line.text[reversed] == "Buy bread", "\(line.text[reversed])")
        let drawn = WatchRenderer(styler: TextStyler(colours: true)).render(screen).first { $0.hasPrefix("#1 title:") } ?? ""
        #expect(drawn == "#1 title: \u{1B}[7mBuy bread\u{1B}[0m▏", "\(drawn.debugDescription)")
        type("Buy sourdough bread", into: &screen)
        #expect(promptLine(screen) == WatchStatusLine(kind: .prompt, text: "#1 title: Buy sourdough bread▏"), "\(String(describing: promptLine(screen)))")
        let id = try #require(screen.selected?.id)
        let command = screen.handle(.enter)
        #expect(command == .edit(id, revision: 1, TodoEdit(title: "Buy sourdough bread"), typed: TypedText(.title(id, revision: 1), "Buy sourdough bread")), "\(String(describing: command))")
    }

    @Test("an Alt-key a prompt does not know keeps the prompt and its text and sends nothing; in the list it does nothing")
    func unknownAltKeys() throws {
        var screen = screen([todo(1, "Buy bread")])
        _ = screen.handle(.character("e"))
        _ = screen.handle(.end)
        type(" and more", into: &screen)
        for key in [Key.alt("d"), .alt("x"), .alt("u"), .alt("q")] {
            let command = screen.handle(key)
            #expect(command == nil, "\(key): \(String(describing: command))")
            #expect(promptLine(screen)?.text == "#1 title: Buy bread and more▏", "\(key): \(String(describing: promptLine(screen)))")
        }
        _ = screen.handle(.escape)
        let before = screen.statusLines
        for key in [Key.alt("d"), .alt("x"), .alt("u"), .alt("q"), .altBackspace] {
            let command = screen.handle(key)
            #expect(command == nil, "\(key): \(String(describing: command))")
            #expect(!screen.isPrompting && screen.statusLines == before, "\(key): \(screen.statusLines)")
        }
    }

    @Test("under NO_COLOR the selected old value is still drawn in reverse video, the one attribute the prompt needs")
    func selectedReversedWithoutColours() {
        var screen = screen([todo(1, "Buy bread")])
        _ = screen.handle(.character("e"))
        let drawn = WatchRenderer(styler: TextStyler(colours: false)).render(screen).first { $0.hasPrefix("#1 title:") } ?? ""
        #expect(drawn == "#1 title: \u{1B}[7mBuy bread\u{1B}[0m▏", "\(drawn.debugDescription)")
    }

    @Test("Enter on the selected old value sends it unchanged")
    func selectedAccepted() throws {
        var screen = screen([todo(1, "Buy bread", revision: 2)])
        let id = try #require(screen.selected?.id)
        _ = screen.handle(.character("e"))
        let command = screen.handle(.enter)
        #expect(command == .edit(id, revision: 2, TodoEdit(title: "Buy bread"), typed: TypedText(.title(id, revision: 2), "Buy bread")), "\(String(describing: command))")
    }

    @Test("the cursor stands after the columns of the wide characters before it")
    func cursorAfterWideCharacters() throws {
        var screen = screen([])
        _ = screen.handle(.character("a"))
        type("東京🙂 tea", into: &screen)
        for _ in 0..<4 { _ = screen.handle(.left) }
        let line = try #require(promptLine(screen)?.text)
        #expect(line == "add: 東京🙂▏ tea", "\(line)")
        let before = try #require(line.split(separator: "▏").first)
        #expect(TerminalText.width(before) == 11, "\(TerminalText.width(before))")
    }

    @Test("a line wider than the terminal scrolls sideways, keeping the cursor in view, wide characters whole")
    func scrollsSideways() throws {
        var screen = screen([], columns: 20)
        _ = screen.handle(.character("a"))
        type("abcdefghijklmnopqrstuvwxyz0123", into: &screen)
        #expect(promptLine(screen)?.text == "add: qrstuvwxyz0123▏", "\(String(describing: promptLine(screen)?.text))")
        _ = screen.handle(.home)
        #expect(promptLine(screen)?.text == "add: ▏abcdefghijklmn", "\(String(describing: promptLine(screen)?.text))")
        _ = screen.handle(.controlU)
        _ = screen.handle(.controlK)
        type("東京大阪名古屋札幌福岡", into: &screen)
        let wide = try #require(promptLine(screen)?.text)
        #expect(wide == "add: 名古屋札幌福岡▏", "\(wide)")
        #expect(TerminalText.width(wide) <= 20, "\(TerminalText.width(wide))")
        _ = screen.handle(.home)
        #expect(promptLine(screen)?.text == "add: ▏東京大阪名古屋", "\(String(describing: promptLine(screen)?.text))")
    }

    @Test("below 20 columns the prompt scrolls in the terminal's own columns: the cursor stays on screen at each end of a long line (outside probe: it went past the edge)", arguments: Array(4...19))
    func narrowTerminalKeepsCursor(columns: Int) throws {
        var screen = screen([todo(1, "Buy bread")], columns: columns)
        let renderer = WatchRenderer(styler: TextStyler(colours: false))
        func drawnPrompt() -> String? {
            renderer.render(screen).map { $0.replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "") }
                .first { $0.contains("▏") }
        }
        for key in ["a", "e"] {
            _ = screen.handle(.character(Character(key)))
            type("a long line typed into a narrow terminal", into: &screen)
            let end = try #require(drawnPrompt(), "\(key) at \(columns): \(renderer.render(screen))")
            #expect(end.hasSuffix("▏"), "\(end)")
            #expect(TerminalText.width(end) <= columns, "\(end)")
            _ = screen.handle(.home)
            let start = try #require(drawnPrompt(), "\(key) at \(columns) after Home: \(renderer.render(screen))")
            #expect(TerminalText.width(start) <= columns, "\(start)")
            _ = screen.handle(.escape)
        }
        // Where the label leaves the text 5 columns, it stays.
        _ = screen.handle(.character("a"))
        type("xyz", into: &screen)
        #expect(drawnPrompt() == (columns >= 11 ? "add: xyz▏" : columns >= 4 ? "xyz▏" : nil), "\(String(describing: drawnPrompt()))")
    }

    @Test("Ctrl-C leaves a prompt and keeps watch; while browsing it quits")
    func controlCInPrompt() {
        var screen = screen([todo(1, "Buy bread")])
        _ = screen.handle(.character("a"))
        #expect(screen.handle(.controlC) == nil)
        #expect(screen.mode == .browsing)
        #expect(screen.handle(.controlC) == .quit)
    }

    @Test("the search follows the text: a movement key asks for nothing, Ctrl-W asks again")
    func searchFollowsText() {
        var screen = screen([todo(1, "buy milk"), todo(2, "buy paint")])
        _ = screen.handle(.character("/"))
        type("buy milk", into: &screen)
        #expect(screen.handle(.left) == nil)
        #expect(screen.handle(.end) == nil)
        #expect(screen.handle(.controlW) == .reload(TodoFilter(search: "buy")))
    }

    @Test("under a prompt the help line lists its editing keys that fit, ending with Esc leave", arguments: [20, 40, 80, 200])
    func promptHelpLine(columns: Int) throws {
        var screen = screen([todo(1, "Buy bread")], columns: columns)
        _ = screen.handle(.character("e"))
        let lines = screen.statusLines
        #expect(lines.map(\.kind) == [.prompt, .help], "\(lines)")
        let help = try #require(lines.last?.text)
        #expect(help.hasSuffix("Esc leave") && TerminalText.width(help) <= columns, "\(help)")
        if columns >= 80 { #expect(help.hasPrefix("Ctrl-A start  Ctrl-E end"), "\(help)") }
    }

    @Test("? lists the prompt's keys too where the terminal is tall enough")
    func promptKeysOnPage() {
        var screen = WatchScreen(rows: 50, columns: 100)
        _ = screen.handle(.character("?"))
        let page = WatchRenderer(styler: TextStyler(colours: false)).render(screen).joined(separator: "\n")
        for entry in WatchKeys.prompt {
            #expect(page.contains(entry.keys) && page.contains(entry.action), "\(entry.keys) missing from\n\(page)")
        }
    }
}
