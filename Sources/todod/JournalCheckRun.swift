import ArgumentParser
import Foundation
import TodoServers

/// `todod --check`: the journal rebuilt and compared with the table, read-only.
enum JournalCheckRun {
    static func run(database: String) throws {
        let result: (differences: [String], todos: Int, changes: Int)
        do {
            result = try TodoStore.checkJournal(at: database)
        } catch {
            FileHandle.standardError.write(Data("todod: cannot check \(database): \(error)\n".utf8))
            throw ExitCode(2)
        }
        for difference in result.differences { print(difference) }
        let summary = "\(database): \(result.todos) todos, \(result.changes) changes"
        guard result.differences.isEmpty else {
            print("\(summary): \(result.differences.count) differences between the journal and the table")
            throw ExitCode(1)
        }
        print("\(summary): the journal rebuilds the table exactly")
    }
}
