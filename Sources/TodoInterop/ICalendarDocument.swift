import Foundation

/// An iCalendar file as its lines, each kept byte for byte (folds and line ends as written),
/// grouped into the components of its VCALENDAR. A file another program wrote may hold more
/// than one todo: a VEVENT beside the VTODO, a second VTODO, an override of one occurrence
/// (a VTODO with RECURRENCE-ID), the VTIMEZONE they name. todod owns one VTODO of it, and
/// rewrites or removes only that one: the others are the user's, kept to the byte.
public struct ICalendarDocument: Sendable {
    /// A run of the file's text: lines outside any component (the VCALENDAR's own), or one
    /// whole component of the VCALENDAR (`BEGIN` to its `END`, nested ones inside).
    private enum Piece: Sendable {
        case calendar([UInt8])
        case component(name: String, uid: String?, isOverride: Bool, bytes: [UInt8])
    }

    private var pieces: [Piece]

    /// Reads a file's bytes; never fails: what is not a component is kept as it is. Bytes, not
    /// text: a fold may split a character (RFC 5545 folds at 75 octets).
    public init(_ data: Data) {
        pieces = []
        var component: (name: String, uid: String?, isOverride: Bool, bytes: [UInt8])?
        // Outside: 0, or 1 inside the VCALENDAR; inside a component, how deep in it.
        var calendarDepth = 0, nesting = 0
        for raw in Self.logicalLines([UInt8](data)) {
            let line = ContentLine(parsing: Substring(Self.unfolded(raw)))
            let begins = line?.name == "BEGIN", ends = line?.name == "END"
            let value = line?.value.uppercased() ?? ""
            guard var open = component else {
                // A component of the VCALENDAR (or of a file that has no VCALENDAR around it).
                if begins, calendarDepth == 1 || value != "VCALENDAR" {
                    component = (value, nil, false, raw)
                    nesting = 1
                    continue
                }
                if begins { calendarDepth += 1 }
                if ends { calendarDepth = max(0, calendarDepth - 1) }
                pieces.append(.calendar(raw))
                continue
            }
            open.bytes += raw
            if nesting == 1, let line {
                if line.name == "UID", open.uid == nil { open.uid = line.text }
                if line.name == "RECURRENCE-ID" { open.isOverride = true }
            }
            if begins { nesting += 1 }
            if ends {
                nesting -= 1
                if nesting == 0 {
                    pieces.append(.component(name: open.name, uid: open.uid, isOverride: open.isOverride, bytes: open.bytes))
                    component = nil
                    continue
                }
            }
            component = open
        }
        // A component without its END is kept as the file had it, and counts as none.
        if let open = component { pieces.append(.calendar(open.bytes)) }
    }

    /// The file's bytes again.
    public var data: Data {
        Data(pieces.flatMap { piece in
            switch piece {
            case .calendar(let bytes), .component(_, _, _, let bytes): bytes
            }
        })
    }

    /// The names of the components other than the VTODO with `uid` (its overrides are others), in order.
    public func others(besides uid: String) -> [String] {
        pieces.compactMap { piece in
            guard case .component(let name, let other, let isOverride, _) = piece else { return nil }
            return name == "VTODO" && other == uid && !isOverride ? nil : name
        }
    }

    /// The VTODO with `uid` (not an override of one occurrence) replaced by `component`, the
    /// others as they were; added before END:VCALENDAR when the file has none.
    public func replacingTodo(uid: String, with component: String) -> ICalendarDocument {
        var document = self
        let replacement = Piece.component(name: "VTODO", uid: uid, isOverride: false, bytes: Array(component.utf8))
        if let index = index(ofTodo: uid) {
            document.pieces[index] = replacement
        } else if let end = pieces.lastIndex(where: { if case .calendar(let bytes) = $0 { Self.isCalendarEnd(bytes) } else { false } }) {
            document.pieces.insert(replacement, at: end)
        } else {
            document.pieces.append(replacement)
        }
        return document
    }

    /// The file without the VTODO with `uid` (its overrides stay: they are the user's to remove).
    public func removingTodo(uid: String) -> ICalendarDocument {
        var document = self
        if let index = index(ofTodo: uid) { document.pieces.remove(at: index) }
        return document
    }

    private func index(ofTodo uid: String) -> Int? {
        pieces.firstIndex { piece in
            guard case .component(let name, let other, let isOverride, _) = piece else { return false }
            return name == "VTODO" && other == uid && !isOverride
        }
    }

    private static func isCalendarEnd(_ raw: [UInt8]) -> Bool {
        guard let line = ContentLine(parsing: Substring(unfolded(raw))) else { return false }
        return line.name == "END" && line.value.uppercased() == "VCALENDAR"
    }

    /// The file's content lines as written: each with its continuation lines and line ends.
    private static func logicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var atLineStart = true
        for byte in bytes {
            // A line break followed by a space or a tab is a fold: the line goes on.
            if atLineStart, byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), !current.isEmpty {
                lines.append(current)
                current = []
            }
            current.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// A logical line read as one: folds undone, line ends gone (empty when it is not UTF-8).
    private static func unfolded(_ raw: [UInt8]) -> String {
        let text = (try? InteropText.unfoldedUTF8(Data(raw))) ?? ""
        return String(text.prefix { $0 != "\r\n" && $0 != "\n" && $0 != "\r" })
    }
}
