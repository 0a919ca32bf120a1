import Foundation
import Testing
import TodoModel
import TodoViewModel

/// A project's name is checked as a tag is, with dots only between names; a client from
/// before projects were a field, which sent the project as the tag `project:NAME`, still
/// gets the project it meant.
@Suite("TodoValidation of projects")
struct ProjectValidationTests {
    private func refusal(_ body: () throws(TodoError) -> Void) -> TodoError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a project is one word of names joined by single dots", arguments: ["", "home garden", "a,b", "a..b", ".a", "a.", "x\u{1B}y", String(repeating: "p", count: 65)])
    func refused(_ name: String) throws {
        let error = try #require(refusal { () throws(TodoError) in _ = try TodoValidation.validated(NewTodo(title: "t", project: name)) })
        #expect(error.field == "project")
        #expect(error.message.hasPrefix("project: "))
    }

    @Test("a good project is kept as given", arguments: ["home", "home.garden", "Work.Q4-reports", String(repeating: "p", count: 64)])
    func kept(_ name: String) throws {
        #expect(try TodoValidation.validated(NewTodo(title: "t", project: name)).project == name)
        #expect(try TodoValidation.validated(TodoEdit(project: name)).project == name)
    }

    @Test("an older client's project:NAME tag becomes the project, in an add, an import and an edit, and leaves the other tags")
    func olderClientsTag() throws {
        let new = try TodoValidation.validated(NewTodo(title: "t", tags: ["shop", "project:home.garden"]))
        #expect(new.project == "home.garden" && new.tags == ["shop"])
        let imported = try TodoValidation.validated(ImportedTodo(id: UUID(), title: "t", tags: ["project:work"], createdAt: Date()))
        #expect(imported.project == "work" && imported.tags.isEmpty)
        // Old todoctl's edit to another project: the new tag added, the other project tags removed.
        let edit = try TodoValidation.validated(TodoEdit(addTags: ["project:work", "x"], removeTags: ["project:home", "y"]))
        #expect(edit.project == "work" && edit.addTags == ["x"] && edit.removeTags == ["y"])
        // A project given as the field wins; the tag is then a tag.
        #expect(try TodoValidation.validated(NewTodo(title: "t", tags: ["project:a"], project: "b")).tags == ["project:a"])
    }
}
