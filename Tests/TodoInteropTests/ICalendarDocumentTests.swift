import Foundation
import Testing
import TodoInterop
import TodoModel

@Suite("iCalendar files of several components")
struct ICalendarDocumentTests {
    let utc = TimeZone(identifier: "UTC")!
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// An appointment whose description folds inside a character (RFC 5545 folds at 75
    /// octets), a VTODO with an override of one occurrence, and a second VTODO; LF line ends.
    static let event = Data(
        "BEGIN:VEVENT\nUID:dentist-1\nSUMMARY:Dentist appointment\nDESCRIPTION:Zahnarzt in der Hauptstra".utf8)
        + Data([0xC3, 0x0A, 0x20, 0x9F]) + Data("e\nEND:VEVENT\n".utf8)
    static let override = "BEGIN:VTODO\nUID:water-1\nRECURRENCE-ID;VALUE=DATE:20261209\nSUMMARY:Water (moved)\nEND:VTODO\n"
    static let file = Data("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Phone//EN\n".utf8) + event
        + Data("BEGIN:VTODO\nUID:water-1\nSUMMARY:Water\nRRULE:FREQ=WEEKLY\nBEGIN:VALARM\nUID:alarm-1\nACTION:DISPLAY\nEND:VALARM\nEND:VTODO\n".utf8)
        + Data(override.utf8)
        + Data("BEGIN:VTODO\nUID:bins-1\nSUMMARY:Bins\nEND:VTODO\nEND:VCALENDAR\n".utf8)

    @Test("A file read and written again unchanged is the same to the byte, a character split by a fold included")
    func roundTrip() {
        let document = ICalendarDocument(Self.file)
        #expect(document.data == Self.file, "\(String(decoding: document.data, as: UTF8.self))")
        #expect(document.others(besides: "water-1") == ["VEVENT", "VTODO", "VTODO"])
        #expect(document.others(besides: "bins-1") == ["VEVENT", "VTODO", "VTODO"])
        #expect(document.others(besides: "nobody") == ["VEVENT", "VTODO", "VTODO", "VTODO"])
    }

    @Test("Replacing one VTODO changes only it: the event, the override and the other VTODO stay to the byte")
    func replacing() {
        let replaced = ICalendarDocument(Self.file).replacingTodo(uid: "water-1", with: "BEGIN:VTODO\r\nUID:water-1\r\nSUMMARY:Water the ferns\r\nEND:VTODO\r\n")
        let expected = Data("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Phone//EN\n".utf8) + Self.event
            + Data("BEGIN:VTODO\r\nUID:water-1\r\nSUMMARY:Water the ferns\r\nEND:VTODO\r\n".utf8) + Data(Self.override.utf8)
            + Data("BEGIN:VTODO\nUID:bins-1\nSUMMARY:Bins\nEND:VTODO\nEND:VCALENDAR\n".utf8)
        #expect(replaced.data == expected, "\(String(decoding: replaced.data, as: UTF8.self))")
    }

    @Test("A VTODO the file does not hold is added before END:VCALENDAR; removing one leaves the rest")
    func addingAndRemoving() {
        let added = ICalendarDocument(Self.file).replacingTodo(uid: "new-1", with: "BEGIN:VTODO\nUID:new-1\nEND:VTODO\n")
        let text = String(decoding: added.data, as: UTF8.self)
        #expect(text.hasSuffix("END:VTODO\nBEGIN:VTODO\nUID:new-1\nEND:VTODO\nEND:VCALENDAR\n"), "\(text)")
        let removed = ICalendarDocument(Self.file).removingTodo(uid: "bins-1")
        let rest = String(decoding: removed.data, as: UTF8.self)
        #expect(!rest.contains("Bins") && rest.contains(Self.override) && rest.hasSuffix("END:VTODO\nEND:VCALENDAR\n"), "\(rest)")
        #expect(removed.others(besides: "water-1") == ["VEVENT", "VTODO"])
    }

    @Test("A file cut short keeps its unfinished component as it was, and counts it as none")
    func unfinished() {
        let cut = Data("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nSUMMARY:A\n".utf8)
        let document = ICalendarDocument(cut)
        #expect(document.data == cut)
        #expect(document.others(besides: "x").isEmpty)
    }

    @Test("An override of one occurrence (RECURRENCE-ID) is no todo of its own, and its SEQUENCE is not the todo's")
    func overridesSkipped() throws {
        let text = String(decoding: Self.file, as: UTF8.self)
            .replacingOccurrences(of: "SUMMARY:Water (moved)", with: "SUMMARY:Water (moved)\nSEQUENCE:9")
            .replacingOccurrences(of: "SUMMARY:Water\n", with: "SUMMARY:Water\nSEQUENCE:2\n")
        let todos = try ICalendarFormat.decode(text, now: now, zone: utc)
        #expect(todos.map(\.title) == ["Water", "Bins"])
        let water = try #require(todos.first)
        #expect(ICalendarFormat.sequences(in: text)[water.id] == 2)
    }

    @Test("A file is whole when its last line ends the VCALENDAR")
    func whole() {
        #expect(ICalendarFormat.isWhole("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VTODO\r\nEND:VCALENDAR\r\n\r\n"))
        #expect(!ICalendarFormat.isWhole("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nEND:VTODO\r\n"))
        #expect(!ICalendarFormat.isWhole(""))
    }

    @Test("A todo's component is the VTODO the whole file would hold")
    func component() throws {
        let todo = ImportedTodo(id: UUID(), title: "Call mum", createdAt: now).todo(number: 1)
        let whole = ICalendarFormat.encode([todo], zone: utc)
        let component = ICalendarFormat.component(todo, zone: utc)
        #expect(component.hasPrefix("BEGIN:VTODO\r\n") && component.hasSuffix("END:VTODO\r\n"), "\(component)")
        #expect(whole.contains(component), "\(whole)")
    }
}
