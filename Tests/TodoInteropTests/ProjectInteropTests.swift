import Foundation
import Testing
import TodoInterop
import TodoModel

/// A todo's project in the formats: iCalendar's X-TODOD-PROJECT with a `project:NAME`
/// category beside it, todo.txt's `+project:NAME`, todod's JSON; each read back as the
/// project and never as a tag too.
@Suite("Projects in the interop formats")
struct ProjectInteropTests {
    let utc = TimeZone(identifier: "UTC")!
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    var todo: Todo {
        Todo(number: 1, title: "Dig beds", tags: ["outside"], createdAt: now, project: "home.garden")
    }

    @Test("iCalendar writes X-TODOD-PROJECT and a project:NAME category, and reads them back as the project alone")
    func iCalendar() throws {
        let text = ICalendarFormat.encode([todo], zone: utc)
        let lines = Set(ContentLine.unfold(text).map(String.init))
        #expect(lines.isSuperset(of: ["X-TODOD-PROJECT:home.garden", "CATEGORIES:outside,project:home.garden"]), "\(lines)")
        let back = try #require(try ICalendarFormat.decode(text, now: now, zone: utc).first)
        #expect(back.project == "home.garden" && back.tags == ["outside"], "\(back)")
        #expect(back.foreign["ical"]?.contains("X-TODOD-PROJECT") != true, "not kept twice")
        // Written again, the same lines: no second category, no second property.
        #expect(ICalendarFormat.encode([back.todo(number: 1)], zone: utc) == text)
    }

    @Test("An iCalendar file whose only trace of the project is its category (a phone kept CATEGORIES alone) has that project")
    func iCalendarCategoryAlone() throws {
        let text = ICalendarFormat.encode([todo], zone: utc).replacingOccurrences(of: "X-TODOD-PROJECT:home.garden\r\n", with: "")
        let back = try #require(try ICalendarFormat.decode(text, now: now, zone: utc).first)
        #expect(back.project == "home.garden" && back.tags == ["outside"], "\(back)")
        var none = todo
        none.project = nil
        #expect(try ICalendarFormat.decode(ICalendarFormat.encode([none], zone: utc), now: now, zone: utc).first?.project == nil)
    }

    @Test("todo.txt writes the project as +project:NAME, read back as the project, other +words staying tags")
    func todoTxt() throws {
        let line = TodoTxtFormat.encode([todo], zone: utc)
        #expect(line.contains(" Dig beds +project:home.garden +outside "), "\(line)")
        let back = try #require(try TodoTxtFormat.decode(line, now: now, zone: utc).first)
        #expect(back.project == "home.garden" && back.tags == ["outside"], "\(back)")
        let plain = try #require(try TodoTxtFormat.decode("Call mum +family", now: now, zone: utc).first)
        #expect(plain.project == nil && plain.tags == ["family"])
    }
}
