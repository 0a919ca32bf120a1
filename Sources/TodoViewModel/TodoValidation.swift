import Foundation
import TodoModel

/// The rules every write must pass before it reaches the Model. Each check normalises
/// what it accepts (trimmed titles, de-duplicated tags) and names the field it refuses.
public enum TodoValidation {
    public static let maximumTitleLength = 500
    public static let maximumNotesBytes = 64 * 1024
    public static let maximumTagCount = Todo.maximumTagCount
    public static let maximumTagLength = 64

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
        return title
    }

    public static func notes(_ notes: String) throws(TodoError) -> String {
        guard notes.utf8.count <= maximumNotesBytes else {
            throw .validation("notes", "are \(notes.utf8.count) bytes; the most is \(maximumNotesBytes) (64 KiB)")
        }
        return notes
    }

    /// The tags, each checked, without repeats, in their first order.
    public static func tags(_ tags: [String]) throws(TodoError) -> [String] {
        var unique: [String] = []
        for raw in tags {
            let tag = try self.tag(raw)
            if !unique.contains(tag) { unique.append(tag) }
        }
        guard unique.count <= maximumTagCount else {
            throw .validation("tags", "\(unique.count) tags; the most is \(maximumTagCount)")
        }
        return unique
    }

    public static func tag(_ raw: String) throws(TodoError) -> String {
        let tag = raw.hasPrefix("#") ? String(raw.dropFirst()) : raw
        guard !tag.isEmpty else { throw .validation("tags", "a tag is empty") }
        guard !tag.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "," }) else {
            throw .validation("tags", "\"\(tag)\" is not one word: a tag has no spaces or commas")
        }
        guard tag.count <= maximumTagLength else {
            throw .validation("tags", "\"\(tag.prefix(20))…\" is longer than \(maximumTagLength) characters")
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
        valid.removeTags = try edit.removeTags.map { (tag: String) throws(TodoError) -> String in try self.tag(tag) }
        return valid
    }
}
