import Foundation
import TodoModel

/// The rules every write must pass before it reaches the Model. Each check normalises
/// what it accepts (trimmed titles, de-duplicated tags) and names the field it refuses.
///
/// Every check costs time linear in its input, and the tag lists stop at the first tag
/// past their limit: one request cannot stall the writers behind it.
public enum TodoValidation {
    public static let maximumTitleLength = 500
    /// Characters are grapheme clusters, and one may be any number of scalars ("Z" and
    /// 400,000 combining accents is one character of 800 KB): bytes are capped as well.
    /// 4 KiB is 500 characters of any script at up to 8 bytes each (emoji sequences more).
    public static let maximumTitleBytes = 4 * 1024
    public static let maximumNotesBytes = 64 * 1024
    public static let maximumTagCount = Todo.maximumTagCount
    public static let maximumTagLength = 64
    /// A tag's bytes, for the same reason as `maximumTitleBytes`: 64 characters of 4 bytes.
    public static let maximumTagBytes = 256
    /// The most tags one list may name, repeats included: repeats are forgiven
    /// (`--tag a --tag a`), a flood of them is not.
    public static let maximumTagsGiven = 8 * Todo.maximumTagCount

    /// The trimmed title, or a validation error.
    public static func title(_ raw: String) throws(TodoError) -> String {
        try line(raw, field: "title", ifEmpty: "a todo needs a title; it is empty", ifLines: "must be one line; put the rest in the notes")
    }

    /// An annotation's text (`todoctl annotate`), trimmed: one line within a title's limits,
    /// as Taskwarrior's are one line; longer text belongs in the notes.
    public static func annotation(_ raw: String) throws(TodoError) -> String {
        try line(
            raw, field: "annotation", ifEmpty: "is empty; give the text to add, as in `todoctl annotate 3 called the plumber`",
            ifLines: "must be one line; add one annotation per line, or put longer text in the notes (`todoctl edit --notes`)")
    }

    /// `raw` trimmed, when it is one line of text within a title's limits; `field` names it
    /// in the error, which says `ifEmpty` or `ifLines` when it is empty or several lines.
    private static func line(_ raw: String, field: String, ifEmpty: String, ifLines: String) throws(TodoError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .validation(field, ifEmpty) }
        guard text.utf8.count <= maximumTitleBytes else {
            throw .validation(
                field, "is \(text.utf8.count) bytes of UTF-8; the most is \(maximumTitleBytes) (combining marks and emoji take several bytes per character): shorten it")
        }
        guard text.count <= maximumTitleLength else {
            throw .validation(field, "is \(text.count) characters long; the most is \(maximumTitleLength): shorten it")
        }
        guard !text.contains(where: \.isNewline) else { throw .validation(field, ifLines) }
        if let control = firstControl(in: text, allowing: []) {
            throw .validation(field, "contains the control character \(control) (terminals obey these); remove it")
        }
        return text
    }

    /// The notes, line ends as `\n`; tabs and line breaks are their only control characters.
    public static func notes(_ raw: String) throws(TodoError) -> String {
        guard raw.utf8.count <= maximumNotesBytes else {
            throw .validation("notes", "are \(raw.utf8.count) bytes; the most is \(maximumNotesBytes) (64 KiB): shorten them")
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
                throw .validation("tags", "more than \(maximumTagCount) different tags; the most is \(maximumTagCount): give fewer")
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
        guard !tag.isEmpty else { throw .validation("tags", "a tag is empty: give each tag a name (-t home, +home)") }
        try oneWord(tag, field: "tags", noun: "a tag", example: "")
        return tag
    }

    /// A tag's or a project's name: at most `maximumTagLength` characters, one word (no
    /// spaces, no commas), no control character.
    private static func oneWord(_ text: String, field: String, noun: String, example: String) throws(TodoError) {
        guard text.utf8.count <= maximumTagBytes, text.count <= maximumTagLength else {
            throw .validation(field, "\"\(visible(String(String.UnicodeScalarView(text.unicodeScalars.prefix(20)))))…\" is longer than \(maximumTagLength) characters (or \(maximumTagBytes) bytes of UTF-8): shorten it")
        }
        guard !text.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "," }) else {
            throw .validation(field, "\"\(visible(text))\" is not one word: \(noun) has no spaces or commas\(example)")
        }
        if let control = firstControl(in: text, allowing: []) {
            throw .validation(field, "\"\(visible(text))\" contains the control character \(control); remove it")
        }
    }

    /// A project's name: a tag's rules (one word, no commas, at most `maximumTagLength`
    /// characters), and dots only between names, as `home.garden`: each part names a project.
    public static func project(_ raw: String) throws(TodoError) -> String {
        guard !raw.isEmpty else { throw .validation("project", "is empty: give a name (project:home), or clear it in an edit (project: or --no-project)") }
        try oneWord(raw, field: "project", noun: "a project", example: " (home.garden)")
        guard !raw.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw .validation("project", "\"\(visible(raw))\" has a part with no name between its dots: join names with single dots (home.garden)")
        }
        return raw
    }

    /// `tags` without the last `project:NAME` tag, and that name, when `project` is not given:
    /// a client from before projects were a field names the project so (`TodoFilter.projectTagPrefix`).
    private static func projectFromTags(_ tags: [String], project: String?) -> (tags: [String], project: String?) {
        let prefix = TodoFilter.projectTagPrefix
        guard project == nil, let index = tags.lastIndex(where: { $0.hasPrefix(prefix) && $0.count > prefix.count }) else {
            return (tags, project)
        }
        var rest = tags
        rest.remove(at: index)
        return (rest, String(tags[index].dropFirst(prefix.count)))
    }

    /// A list filter, its tags read as tags are written (`#home` is `home`).
    public static func normalised(_ filter: TodoFilter) -> TodoFilter {
        func bare(_ tag: String) -> String { tag.hasPrefix("#") ? String(tag.dropFirst()) : tag }
        var normal = filter
        normal.tags = filter.tags.map(bare)
        normal.notTags = filter.notTags.map(bare)
        if normal.search?.isEmpty == true { normal.search = nil }
        return normal
    }

    /// A new todo, normalised, or the first rule it breaks.
    public static func validated(_ new: NewTodo) throws(TodoError) -> NewTodo {
        var valid = new
        valid.title = try title(new.title)
        valid.notes = try notes(new.notes)
        (valid.tags, valid.project) = projectFromTags(try tags(new.tags), project: new.project)
        if let project = valid.project { valid.project = try self.project(project) }
        if let parent = new.parent { try self.parent(parent) }
        // As Taskwarrior refuses `task add x recur:weekly`: the repeat counts from the due
        // date, and one without it was taken and fell due a period after its completion.
        if new.recurrence?.basis == .due && new.due == nil { throw .validation("due", Self.repeatWithoutDue) }
        return valid
    }

    /// Why a todo that repeats from its due date cannot be without one, and what to do.
    public static let repeatWithoutDue =
        "a todo that repeats from its due date needs one: give a due date too (due:fri, --due fri), or count the repeat from completion (--every-after 1w)"

    /// A parent is named by its number, 1 or more.
    public static func parent(_ number: Int) throws(TodoError) {
        guard number >= 1 else { throw .validation("parent", "#\(number) is not a todo number; numbers start at 1") }
    }

    /// The most bytes of fields another program keeps with one todo (`Todo.foreign`).
    public static let maximumForeignBytes = 64 * 1024

    /// An imported todo, normalised as a new one is, or the first rule it breaks.
    public static func validated(_ imported: ImportedTodo) throws(TodoError) -> ImportedTodo {
        var valid = imported
        valid.title = try title(imported.title)
        valid.notes = try notes(imported.notes)
        (valid.tags, valid.project) = projectFromTags(try tags(imported.tags), project: imported.project)
        if let project = valid.project { valid.project = try self.project(project) }
        try foreign(imported.foreign)
        // Refused as `depends:` naming itself is (outside probe P7-8: imported, it was blocked for good).
        if imported.depends?.contains(imported.id) == true {
            throw .validation("depends", "it waits for itself (its depends holds its own id): remove that id in the source first")
        }
        if let annotations = imported.annotations {
            guard annotations.count <= Annotation.maximumCount else {
                throw .validation("annotations", "\(annotations.count) annotations; a todo holds at most \(Annotation.maximumCount): remove some in the source first")
            }
            var checked: [Annotation] = []
            for given in annotations { checked.append(Annotation(entry: given.entry, description: try annotation(given.description))) }
            valid.annotations = checked
        }
        return valid
    }

    /// Other programs' fields kept with a todo: at most `maximumForeignBytes`, and no
    /// control character but line breaks and tabs (export writes them back, often to a terminal).
    public static func foreign(_ foreign: [String: String]) throws(TodoError) {
        let foreignBytes = foreign.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard foreignBytes <= maximumForeignBytes else {
            throw .validation("foreign", "\(foreignBytes) bytes of other programs' fields; the most is \(maximumForeignBytes) (64 KiB)")
        }
        for (format, kept) in foreign.sorted(by: { $0.key < $1.key }) {
            if let control = firstControl(in: format + kept, allowing: ["\n", "\t"]) {
                throw .validation("foreign", "the \(visible(format)) fields kept with it contain the control character \(control) (terminals obey these); remove it")
            }
        }
    }

    /// The position (from 0) of the first of `todos` that waits for itself through the
    /// others' dependencies: a cycle blocks every todo on it for good, and `depends:` refuses
    /// one (outside probe P7-8: an import took it). Nil when there is none.
    public static func dependencyCycle(in todos: [ImportedTodo]) -> Int? {
        let byID = Dictionary(todos.map { ($0.id, $0) }) { first, _ in first }
        for (index, todo) in todos.enumerated() where !(todo.depends ?? []).isEmpty {
            var seen: Set<UUID> = []
            var waiting = todo.depends ?? []
            while let id = waiting.popLast() {
                if id == todo.id { return index }
                guard seen.insert(id).inserted, let next = byID[id] else { continue }
                waiting += next.depends ?? []
            }
        }
        return nil
    }

    /// What to say of the todo at `index` that `dependencyCycle` found.
    public static func cycleRefusal(at index: Int, in todos: [ImportedTodo]) -> String {
        "todo \(index + 1) (\(todos[index].id.uuidString.lowercased())) waits for itself through the others' dependencies: a cycle "
            + "would block every todo on it for good; take one dependency away in the source first"
    }

    /// Imported todos, each validated; the error names the first bad one by its position
    /// (from 1) and id, so that the person can find it in the file.
    public static func validated(_ todos: [ImportedTodo]) throws(TodoError) -> [ImportedTodo] {
        var valid: [ImportedTodo] = []
        valid.reserveCapacity(todos.count)
        for (index, todo) in todos.enumerated() {
            do throws(TodoError) {
                valid.append(try validated(todo))
            } catch {
                throw TodoError(.validation, "todo \(index + 1) (\(todo.id.uuidString.lowercased())): \(error.message)", field: error.field)
            }
        }
        if let index = dependencyCycle(in: valid) { throw TodoError(.validation, cycleRefusal(at: index, in: valid), field: "depends") }
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
        if !edit.clearProject {
            (valid.addTags, valid.project) = projectFromTags(valid.addTags, project: edit.project)
            // An older client took the other project tags off as it added one: the field holds one project.
            if valid.project != nil { valid.removeTags.removeAll { $0.hasPrefix(TodoFilter.projectTagPrefix) } }
            if let project = valid.project { valid.project = try self.project(project) }
        }
        if let parent = edit.parent, !edit.clearParent { try self.parent(parent) }
        if let text = edit.annotate { valid.annotate = try annotation(text) }
        // Trimmed as the stored ones were; its length is not checked: it only has to match one.
        if let text = edit.denotate {
            valid.denotate = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard valid.denotate?.isEmpty == false else {
                throw .validation("annotation", "the text to remove is empty; give the annotation's text or its start (`todoctl show` lists them)")
            }
        }
        return valid
    }

    /// A program's name is kept to this many characters (and 256 bytes: one character may
    /// be a letter and 400,000 combining accents), so the journal holds no essays.
    public static let maximumProgramLength = 64

    /// A program's name as the journal keeps it (a client's, or a replayed change's).
    public static func programName(_ name: String) -> String {
        prefix(of: name, characters: maximumProgramLength, bytes: 256)
    }

    /// The longest start of `text` of at most `characters` characters and `bytes` bytes of
    /// UTF-8, cut between characters: for text that is kept shortened rather than refused.
    public static func prefix(of text: String, characters: Int, bytes: Int) -> String {
        var end = text.startIndex, size = 0
        for character in text.prefix(characters) {
            size += character.utf8.count
            guard size <= bytes else { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
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

extension TodoValidation {
    /// The largest number and revision a replayed todo may carry: far beyond any real list,
    /// and far enough below the shared store's 32-bit columns (`integer`, 2,147,483,647) and
    /// `--migrate-to` that more than a billion todos and edits still fit after it. At
    /// `Int32.max` itself the next add took #2147483648, which PostgreSQL refuses: every
    /// later add on every daemon of a shared store failed for good.
    public static let maximumReplayedCount = 1_000_000_000

    /// Todos to replay, refused unless each is as todod would have stored it; the error
    /// starts with the todo's number and revision, which the asker finds in its log.
    public static func replayed(_ todos: [Todo]) throws(TodoError) -> [Todo] {
        for todo in todos {
            do throws(TodoError) {
                try replayed(todo)
            } catch {
                let name = "#\(todo.number) revision \(todo.revision)"
                guard !error.message.contains(name + " ") else { throw error }
                throw TodoError(.validation, "\(name): \(error.message)", field: error.field)
            }
        }
        return todos
    }

    private static func replayed(_ todo: Todo) throws(TodoError) {
        let counts = 1...maximumReplayedCount
        // The tags as tags: a log from before projects were a field holds `project:` tags as they were.
        let stored = try validated(NewTodo(title: todo.title, notes: todo.notes, priority: todo.priority, due: todo.due))
        guard stored.title == todo.title, stored.notes == todo.notes, try tags(todo.tags) == todo.tags,
            counts.contains(todo.revision), counts.contains(todo.number),
            todo.parent.map(counts.contains) ?? true, todo.previous.map(counts.contains) ?? true
        else {
            throw .validation("todo", "#\(todo.number) revision \(todo.revision) is not as todod stores a todo (title, notes and tags trimmed and within their limits; revision, number, parent and previous from 1 to \(maximumReplayedCount), which leaves room for a billion more below the shared store's limit of 2147483647)")
        }
        guard todo.parent != todo.number else {
            throw .validation("parent", "#\(todo.number) names itself as its parent; a todo cannot be its own parent")
        }
        try foreign(todo.foreign)
        if let project = todo.project {
            guard (try? self.project(project)) == project else {
                throw .validation("project", "#\(todo.number) revision \(todo.revision) has a project todod does not store (\"\(visible(project))\"): one word of at most \(maximumTagLength) characters, names joined by single dots")
            }
        }
        let refusal = TodoError.validation(
            "annotations", "#\(todo.number) revision \(todo.revision) has annotations todod does not store (more than \(Annotation.maximumCount), or one that is not a trimmed line within a title's limits)")
        guard todo.annotations.count <= Annotation.maximumCount else { throw refusal }
        for annotation in todo.annotations {
            guard (try? self.annotation(annotation.description)) == annotation.description else { throw refusal }
        }
    }
}
