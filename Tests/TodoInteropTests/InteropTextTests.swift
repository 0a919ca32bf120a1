import Foundation
import Testing
import TodoInterop

@Suite("Text that is not what it claims")
struct InteropTextTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("A line folded inside a character unfolds to that character, not two U+FFFD")
    func foldedInsideCharacter() throws {
        var bytes = Data("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u3\r\nSUMMARY:caf".utf8)
        bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xA9]
        bytes += Data(" au lait\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let todos = try InteropFormat.ical.decode(bytes, now: now)
        #expect(todos.map(\.title) == ["café au lait"])
    }

    @Test("A file that is not UTF-8 is refused with the line of its first bad byte")
    func notUTF8() {
        var bytes = Data("(A) Pay rent\nBuy ".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Data(" milk\n".utf8)
        #expect(throws: InteropError("line 2", "is not UTF-8 text: save the file as UTF-8 and import it again")) {
            try InteropFormat.todotxt.decode(bytes, now: now)
        }
        #expect(throws: InteropError("line 2", "is not UTF-8 text: save the file as UTF-8 and import it again")) {
            try InteropFormat.ical.decode(Data("BEGIN:VCALENDAR\r\n".utf8) + [0xFF] + Data("\r\n".utf8), now: now)
        }
    }

    @Test("Text with no BEGIN:VCALENDAR is refused as not iCalendar, not read as no todos")
    func notICalendar() throws {
        #expect(throws: InteropError("input", "is not iCalendar: it has no BEGIN:VCALENDAR line (expected a .ics file of VTODOs)")) {
            try InteropFormat.ical.decode(Data("hello\nworld\n".utf8), now: now)
        }
        #expect(try InteropFormat.ical.decode(Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8), now: now).isEmpty)
    }
}
