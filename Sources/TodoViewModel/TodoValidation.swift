import Foundation
import TodoModel

/// The rules every write must pass before it reaches the Model. Each check normalises
/// what it accepts (trimmed titles, de-duplicated tags) and names the field it refuses.
///
/// Every check costs time linear in its input, and the tag lists stop at the first tag
/// past their limit: one request cannot stall the writers behind it.
public enum TodoValidation {
    public static let maximumTitleLength = 500
    public static let maximumNotesBytes = 64 * 1024
    public static let maximumTagCount = Todo.maximumTagCount
    public static let maximumTagLength = 64
    /// The most tags one list may name, repeats included: repeats are forgiven
    /// (`--tag a --tag a`), a flood of them is not.
    public static let maximumTagsGiven = 8 * Todo.maximumTagCount

    /// The trimmed title, or a validation error.
    public static func title(_ raw: String) throws(TodoError) -> String {
        let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw .validation("title", "a todo needs a title; it is empty") }
        guard title.count <= maximumTitleLength else {
            throw .validation("title", "is \(title.count) characters long; the most is \(maximumTitleLength)")
        }
        guard !title.contains(where: \.isNewline) else {
            throw .validation("title", "must be one line; put the rest in the notes")
        }
        if let control = firstControl(in: title, allowing: []) {
            throw .validation("title", "contains the control character \(control) (terminals obey these); remove it")
        }
        return title
    }

    /// The notes, line ends as `\n`; tabs and line breaks are their only control characters.
    public static func notes(_ raw: String) throws(TodoError) -> String {
        guard raw.utf8.count <= maximumNotesBytes else {
            throw .validation("notes", "are \(raw.utf8.count) bytes; the most is \(maximumNotesBytes) (64 KiB)")
        }
        let notes = raw.contains("\r") ? raw.replacingOccurrences(of: "\r\n", with: "\n") : raw
        if let control = firstControl(in: notes, allowing: ["\n", "\t"]) {
            throw .validation("notes", "contain the control character \(control) (terminals obey these); only line breaks and tabs may be in notes")
        }
        return notes
    }

    /// The tags, each checked, without repeats, in their first order.
    public static func tags(_ tags: [String]) throws(TodoError) -> [String] {
        try checkGivenCount(tags.count)
        var unique: [String] = []
        var seen = Set<String>()
        for raw in tags {
            let tag = try self.tag(raw)
            guard seen.insert(tag).inserted else { continue }
            unique.append(tag)
            guard unique.count <= maximumTagCount else {
                throw .validation("tags", "more than \(maximumTagCount) different tags; the most is \(maximumTagCount)")
            }
        }
        return unique
    }

    /// Tags to remove: each checked, at most `maximumTagsGiven` of them.
    public static func tagsToRemove(_ tags: [String]) throws(TodoError) -> [String] {
        try checkGivenCount(tags.count)
        return try tags.map { (tag: String) throws(TodoError) -> String in try self.tag(tag) }
    }

    public static func tag(_ raw: String) throws(TodoError) -> String {
        let tag = raw.hasPrefix("#") ? String(raw.dropFirst()) : raw
        guard !tag.isEmpty else { throw .validation("tags", "a tag is empty") }
        guard tag.count <= maximumTagLength else {
            throw .validation("tags", "\"\(visible(tag.prefix(20)))…\" is longer than \(maximumTagLength) characters")
        }
        guard !tag.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "," }) else {
            throw .validation("tags", "\"\(visible(tag))\" is not one word: a tag has no spaces or commas")
        }
        if let control = firstControl(in: tag, allowing: []) {
            throw .validation("tags", "\"\(visible(tag))\" contains the control character \(control); remove it")
        }
        return tag
    }

    /// A list filter, its tag read as a tag is written (`#home` is `home`).
    public static func normalised(_ filter: TodoFilter) -> TodoFilter {
        var normal = filter
        if let tag = filter.tag, tag.hasPrefix("#") { normal.tag = String(tag.dropFirst()) }
        if normal.search?.isEmpty == true { normal.search = nil }
        return normal
    }

    /// A new todo, normalised, or the first rule it breaks.
    public static func validated(_ new: NewTodo) throws(TodoError) -> NewTodo {
        var valid = new
        valid.title = try title(new.title)
        valid.notes = try notes(new.notes)
        valid.tags = try tags(new.tags)
        return valid
    }

    /// An edit, normalised, or the first rule it breaks.
    public static func validated(_ edit: TodoEdit) throws(TodoError) -> TodoEdit {
        var valid = edit
        if let title = edit.title { valid.title = try self.title(title) }
        if let notes = edit.notes { valid.notes = try self.notes(notes) }
        if let tags = edit.tags { valid.tags = try self.tags(tags) }
        valid.addTags = try tags(edit.addTags)
        valid.removeTags = try tagsToRemove(edit.removeTags)
        return valid
    }

    /// Whether a scalar is a C0 or C1 control character or DEL: the bytes a terminal
    /// obeys instead of showing (escape sequences, bell, backspace, …).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func checkGivenCount(_ count: Int) throws(TodoError) {
        guard count <= maximumTagsGiven else {
            throw .validation("tags", "\(count) tags given; the most is \(maximumTagsGiven) (\(maximumTagCount) different ones)")
        }
    }

    /// The first control character outside `allowing`, written as `U+001B`.
    private static func firstControl(in text: String, allowing: Set<Unicode.Scalar>) -> String? {
        text.unicodeScalars.first { isControl($0) && !allowing.contains($0) }.map(codePoint)
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Text quoted back in an error, its control characters as code points, so that the
    /// message itself is safe to print.
    private static func visible<S: StringProtocol>(_ text: S) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += "<\(codePoint(scalar))>" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
