import Foundation
import Testing
import TodoModel
import TodoViewModel

/// The field a validation error names, or nil when `body` passed.
private func refusedField<T>(_ body: () throws(TodoError) -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        #expect(error.code == .validation)
        #expect(error.message.hasPrefix("\(error.field ?? "?"): "))
        return error.field
    }
}

@Suite("TodoValidation")
struct TodoValidationTests {
    @Test("a title is required", arguments: ["", " ", "  \t ", "\n"])
    func emptyTitle(_ title: String) {
        #expect(refusedField { () throws(TodoError) in try TodoValidation.title(title) } == "title")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(NewTodo(title: title)) } == "title")
    }

    @Test("a title is trimmed")
    func trimmedTitle() throws {
        #expect(try TodoValidation.title("  Buy milk \n") == "Buy milk")
        #expect(try TodoValidation.validated(NewTodo(title: "\tx ")).title == "x")
    }

    @Test("a title is at most 500 characters")
    func longTitle() throws {
        #expect(try TodoValidation.title(String(repeating: "a", count: 500)).count == 500)
        #expect(try TodoValidation.title(String(repeating: "é", count: 500)).count == 500)
        #expect(refusedField { () throws(TodoError) in try TodoValidation.title(String(repeating: "a", count: 501)) } == "title")
    }

    @Test("a title is one line")
    func multiLineTitle() {
        #expect(refusedField { () throws(TodoError) in try TodoValidation.title("first\nsecond") } == "title")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.title("first\r\nsecond") } == "title")
    }

    @Test("notes are at most 64 KiB of UTF-8")
    func notes() throws {
        let limit = 64 * 1024
        #expect(try TodoValidation.notes(String(repeating: "n", count: limit)).utf8.count == limit)
        #expect(refusedField { () throws(TodoError) in try TodoValidation.notes(String(repeating: "n", count: limit + 1)) } == "notes")
        // Two bytes each: 32 Ki characters fit, one more does not.
        #expect(refusedField { () throws(TodoError) in try TodoValidation.notes(String(repeating: "é", count: limit / 2 + 1)) } == "notes")
        #expect(refusedField { () throws(TodoError) in
            try TodoValidation.validated(NewTodo(title: "x", notes: String(repeating: "n", count: limit + 1)))
        } == "notes")
    }

    @Test("at most 32 tags, counted after removing repeats")
    func tagCount() throws {
        let thirtyTwo = (1...32).map { "t\($0)" }
        #expect(try TodoValidation.tags(thirtyTwo) == thirtyTwo)
        #expect(try TodoValidation.tags(thirtyTwo + ["t1", "#t2"]) == thirtyTwo)
        #expect(refusedField { () throws(TodoError) in try TodoValidation.tags(thirtyTwo + ["t33"]) } == "tags")
    }

    @Test("a tag is one word", arguments: ["two words", "tab\there", "line\nbreak", "a,b", "", "#"])
    func badTag(_ tag: String) {
        #expect(refusedField { () throws(TodoError) in try TodoValidation.tags(["ok", tag]) } == "tags")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(NewTodo(title: "x", tags: [tag])) } == "tags")
    }

    @Test("a tag is at most 64 characters")
    func longTag() throws {
        #expect(try TodoValidation.tag(String(repeating: "t", count: 64)).count == 64)
        #expect(refusedField { () throws(TodoError) in try TodoValidation.tag(String(repeating: "t", count: 65)) } == "tags")
    }

    @Test("tags lose a leading # and their repeats, keeping first order")
    func tagNormalisation() throws {
        #expect(try TodoValidation.tag("#x") == "x")
        #expect(try TodoValidation.tags(["#x", "y", "x", "#y", "z"]) == ["x", "y", "z"])
        #expect(try TodoValidation.validated(NewTodo(title: "t", tags: ["#home", "home"])).tags == ["home"])
    }

    @Test("an edit is checked field by field, only where it has one")
    func editValidation() throws {
        #expect(try TodoValidation.validated(TodoEdit()) == TodoEdit())
        #expect(try TodoValidation.validated(TodoEdit(title: " t ", tags: ["#a", "a"], addTags: ["#b"], removeTags: ["#c"]))
            == TodoEdit(title: "t", tags: ["a"], addTags: ["b"], removeTags: ["c"]))
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(title: "  ")) } == "title")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(notes: String(repeating: "n", count: 65_537))) } == "notes")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(addTags: ["a b"])) } == "tags")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(removeTags: ["a b"])) } == "tags")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(tags: (0...32).map { "t\($0)" })) } == "tags")
    }

    @Test("control characters are refused in titles and tags, saying which", arguments: [
        "x \u{1B}]0;PWNED\u{07} \u{1B}[2J", "bell\u{07}", "tab\tinside", "del\u{7F}", "c1 \u{9B}2J", "nul\u{0}",
    ])
    func controlCharacters(_ text: String) throws {
        do {
            _ = try TodoValidation.title(text)
            Issue.record("\(text.debugDescription) was accepted as a title")
        } catch {
            #expect(error.field == "title")
            #expect(error.message.contains("control character U+00"))
            #expect(!error.message.unicodeScalars.contains { TodoValidation.isControl($0) })
        }
        let tag = text.replacingOccurrences(of: " ", with: "")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.tags([tag]) } == "tags")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(removeTags: [tag])) } == "tags")
    }

    @Test("notes keep line breaks and tabs, lose carriage returns before line breaks, refuse other control characters")
    func controlCharactersInNotes() throws {
        #expect(try TodoValidation.notes("a\n\tb\r\nc") == "a\n\tb\nc")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.notes("a\u{1B}[2J") } == "notes")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.notes("lone\rreturn") } == "notes")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(NewTodo(title: "x", notes: "\u{9D}52;c;")) } == "notes")
    }

    @Test("a hundred thousand tags are refused at once, repeated or not")
    func tagFlood() throws {
        let distinct = (0..<100_000).map { "t\($0)" }
        let repeated = Array(repeating: "home", count: 100_000)
        // Refused by counting, before any tag is checked (quadratic checks took 8.6 s here).
        #expect(refusedField { () throws(TodoError) in try TodoValidation.tags(distinct) } == "tags")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.tags(repeated) } == "tags")
        #expect(refusedField { () throws(TodoError) in try TodoValidation.validated(TodoEdit(removeTags: distinct)) } == "tags")
        #expect(throws: TodoError.validation("tags", "\(100_000) tags given; the most is \(TodoValidation.maximumTagsGiven) (\(TodoValidation.maximumTagCount) different ones)")) {
            try TodoValidation.tags(repeated)
        }
        #expect(try TodoValidation.tags(Array(repeating: "home", count: TodoValidation.maximumTagsGiven)) == ["home"])
    }

    @Test("model errors become view errors with the right code and the todo")
    func errorsFromModel() {
        let todo = Todo(number: 4, title: "x", createdAt: at(0), revision: 2)
        let conflict = TodoError(TodoModelError.conflict(current: todo))
        #expect(conflict.code == .conflict)
        #expect(conflict.todo?.todo == todo)
        #expect(conflict.message.contains("#4") && conflict.message.contains("revision 2"))
        #expect(TodoError(TodoModelError.notFound(.number(9))).code == .notFound)
        #expect(TodoError(TodoModelError.notFound(.number(9))).message.contains("#9"))
        #expect(TodoError(TodoModelError.ambiguous(.idPrefix("abcdef12"))).code == .ambiguous)
        #expect(TodoError(TodoModelError.deleted(todo)).code == .deleted)
        #expect(TodoError(TodoModelError.storage("disk full")).code == .storage)
        #expect(TodoError(TodoModelError.storage("disk full")).message.contains("disk full"))
    }

    @Test("a model error's message says what to do in words any View can follow, naming no program's command or flag")
    func errorsNameNoCommand() {
        let todo = Todo(number: 4, title: "x", createdAt: at(0), revision: 2)
        let errors: [TodoModelError] = [
            .notFound(.number(9)), .ambiguous(.idPrefix("abcdef12")), .conflict(current: todo), .deleted(todo),
            .undoConflict(field: "title", undoing: 2, later: 3, current: todo),
            .nothingToUndo("the journal is empty"), .nothingToRedo("nothing has been undone"),
        ]
        for error in errors {
            let message = TodoError(error).message
            #expect(!message.contains("todoctl") && !message.contains("--"), "\(message)")
        }
        #expect(TodoError(.notFound(.number(9))).message == "no todo #9: " + TodoError.Advice.listEveryTodo)
        #expect(TodoError(.deleted(todo)).message == "#4 is deleted: " + TodoError.Advice.restoreFirst)
        #expect(TodoError(.undoConflict(field: "title", undoing: 2, later: 3, current: todo)).message
            == "cannot undo change 2: #4's title was changed again by change 3; undo 3 first, or force the undo to put the old title back anyway")
    }

    @Test("fields kept from another program may hold line breaks and tabs, never a control character a terminal obeys")
    func foreignControls() throws {
        let clean = ImportedTodo(id: UUID(), title: "x", createdAt: at(0), foreign: ["ical": "X-A:1\nX-B:2", "todotxt": "h:1 zz:3"])
        #expect(try TodoValidation.validated(clean) == clean)
        for kept in ["X-EVIL:\u{1B}]0;pwned\u{07}", "zz:\u{1B}[31mred", "X-C1:\u{9B}2J"] {
            let hostile = ImportedTodo(id: UUID(), title: "x", createdAt: at(0), foreign: ["ical": kept])
            #expect(throws: TodoError.self) { try TodoValidation.validated(hostile) }
        }
        let error = try #require(throws: TodoError.self) {
            try TodoValidation.validated(ImportedTodo(id: UUID(), title: "x", createdAt: at(0), foreign: ["ical": "X-EVIL:\u{1B}"]))
        }
        #expect(error.message == "foreign: the ical fields kept with it contain the control character U+001B (terminals obey these); remove it")
    }

    @Test("a title or a tag of few characters but many bytes is refused by its bytes, saying so")
    func bytesBehindCharacters() throws {
        // One character: "Z" and 400,000 combining acute accents, 800 KB.
        let heavy = "Z" + String(repeating: "\u{301}", count: 400_000)
        #expect(heavy.count == 1)
        let title = try #require(throws: TodoError.self) { try TodoValidation.title(heavy) }
        #expect(title.message == "title: is 800001 bytes of UTF-8; the most is 4096 (combining marks and emoji take several bytes per character): shorten it", "\(title.message)")
        let tag = try #require(throws: TodoError.self) { try TodoValidation.tag("Z" + String(repeating: "\u{301}", count: 200)) }
        #expect(tag.message.contains("is longer than 64 characters (or 256 bytes of UTF-8)"), "\(tag.message)")
        // The message quotes the start of the tag by scalars, not characters: it stays short.
        #expect(tag.message.utf8.count < 200, "\(tag.message.utf8.count)")
        #expect(try TodoValidation.title(String(repeating: "語", count: 500)).utf8.count == 1500)
    }

    @Test("a replayed todo must leave room for a billion more numbers and revisions below the shared store's 32-bit limit")
    func replayedCountsLeaveRoom() throws {
        let todo = Todo(id: UUID(), number: 1_000_000_000, title: "x", createdAt: at(0), revision: 1_000_000_000)
        #expect(try TodoValidation.replayed([todo]) == [todo])
        for (number, revision) in [(1_000_000_001, 1), (Int(Int32.max), 1), (1, Int(Int32.max))] {
            let far = Todo(id: UUID(), number: number, title: "x", createdAt: at(0), revision: revision)
            let error = try #require(throws: TodoError.self) { try TodoValidation.replayed([far]) }
            #expect(error.message.contains("from 1 to 1000000000, which leaves room"), "\(error.message)")
            #expect(error.message.hasPrefix("todo: #\(number) revision \(revision) "), "\(error.message)")
        }
    }

    @Test("a replayed todo's annotations are lines as annotate stores them, at most 100, and the refusal names the todo")
    func replayedAnnotations() throws {
        var todo = Todo(id: UUID(), number: 3, title: "x", createdAt: at(0), revision: 2)
        todo.annotations = [Annotation(entry: at(1), description: "called the plumber")]
        #expect(try TodoValidation.replayed([todo]) == [todo])
        for bad in [[Annotation(entry: at(1), description: "two\nlines")], Array(repeating: todo.annotations[0], count: 101)] {
            todo.annotations = bad
            let error = try #require(throws: TodoError.self) { try TodoValidation.replayed([todo]) }
            #expect(error.message.contains("#3 revision 2 has annotations todod does not store"), "\(error.message)")
        }
    }

    @Test("an annotation is trimmed, one line, within a title's limits, and a refusal says what to do")
    func annotation() throws {
        #expect(try TodoValidation.annotation("  called the plumber \n") == "called the plumber")
        let empty = try #require(throws: TodoError.self) { try TodoValidation.annotation(" ") }
        #expect(empty.message.contains("is empty; give the text to add"), "\(empty.message)")
        let lines = try #require(throws: TodoError.self) { try TodoValidation.annotation("one\ntwo") }
        #expect(lines.message.contains("must be one line; add one annotation per line"), "\(lines.message)")
        let long = try #require(throws: TodoError.self) { try TodoValidation.annotation(String(repeating: "a", count: 501)) }
        #expect(long.message.contains("is 501 characters long; the most is 500"), "\(long.message)")
        let edit = try TodoValidation.validated(TodoEdit(annotate: " plumber comes friday ", denotate: " called "))
        #expect(edit.annotate == "plumber comes friday" && edit.denotate == "called", "\(edit)")
    }

    @Test("a replayed todo's fields kept from other programs are at most 64 KiB, as an import's, and the refusal names it")
    func replayedForeign() throws {
        var todo = Todo(id: UUID(), number: 3, title: "x", createdAt: at(0), revision: 2)
        todo.foreign = ["ical": String(repeating: "X", count: 70_000)]
        let error = try #require(throws: TodoError.self) { try TodoValidation.replayed([todo]) }
        #expect(error.message == "#3 revision 2: foreign: 70004 bytes of other programs' fields; the most is 65536 (64 KiB)", "\(error.message)")
        #expect(error.field == "foreign")
    }

    @Test("a name kept shortened is cut between characters, by characters and by bytes")
    func prefixByBytes() {
        #expect(TodoValidation.prefix(of: "todoctl", characters: 64, bytes: 256) == "todoctl")
        #expect(TodoValidation.prefix(of: String(repeating: "a", count: 100), characters: 64, bytes: 256).count == 64)
        let heavy = "Z" + String(repeating: "\u{301}", count: 400_000)
        #expect(TodoValidation.prefix(of: "ab" + heavy, characters: 64, bytes: 256) == "ab")
        #expect(TodoValidation.prefix(of: "éé", characters: 64, bytes: 3) == "é")
    }
}
