import Foundation
import TodoClient
import TodoTerminal
import TodoViewModel

/// The edit form in a private temporary file, opened in the person's editor, kept when
/// an edit does not go through so that nothing typed is lost.
struct FormFile {
    let path: String

    init(text: String, number: Int) throws {
        path = NSTemporaryDirectory() + "todoctl-edit-\(number)-\(UUID().uuidString.prefix(8)).txt"
        try write(text)
    }

    /// One round in the editor; an editor that fails leaves the form where it is.
    func edit() async throws {
        let editor = ForegroundEditor.command
        let status = try await ForegroundEditor.run(editor, file: path)
        guard status == 0 else {
            throw TodoClientError.refused(TodoError(.validation, "the editor (\(editor)) failed with status \(status); nothing changed. Your form is kept in \(path)"))
        }
    }

    func read() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// After a form that did not validate: on a terminal, shows the problem and asks
    /// whether to edit again, and if so puts the problem at the top of the form and
    /// returns; otherwise throws the problem, saying where the form is kept.
    func retry(after problem: any Error, number: Int) throws {
        let message = (problem as? TodoError)?.message ?? "\(problem)"
        let kept = "\(message); nothing changed. Your form is kept in \(path): run `todoctl edit \(number)` again and copy your changes over."
        guard isatty(STDIN_FILENO) == 1 else { throw TodoClientError.refused(TodoError(.validation, kept)) }
        Terminal.error(message)
        FileHandle.standardError.write(Data("Edit the form again? [Y/n] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard let answer, answer.isEmpty || answer.hasPrefix("y") else {
            throw TodoClientError.refused(TodoError(.validation, kept))
        }
        try write(TodoDetailViewModel.form(try read(), withProblem: message))
    }

    private func write(_ text: String) throws {
        // Private to the person: the form can hold notes they would not share.
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw TodoClientError.refused(TodoError(.validation, "cannot write the edit form to \(path)"))
        }
    }
}
