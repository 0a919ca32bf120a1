import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// Exit codes that scripts can rely on (sysexits.h where one fits).
enum ExitStatus {
    static let refused = ExitCode(1)
    static let unavailable = ExitCode(69)
}

/// Connects, runs a command's requests, and turns every failure into a message on
/// stderr and its exit code.
enum Session {
    static func run<T>(_ options: ConnectionOptions, _ body: (TodoClient) async throws -> T) async throws -> T {
        let client: TodoClient
        do {
            client = try await TodoClient.connect(to: options.socketPath)
        } catch {
            throw fail(error)
        }
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch let error as TodoClientError {
            await client.close()
            throw fail(error)
        }
    }

    /// Prints the error and gives the exit code for it.
    static func fail(_ error: TodoClientError) -> ExitCode {
        Terminal.error(error.description)
        switch error {
        case .refused: return ExitStatus.refused
        case .cannotConnect, .disconnected, .protocolViolation: return ExitStatus.unavailable
        }
    }
}

extension TodoClient {
    /// The answer to `event`, which must be of the kind `extract` takes.
    func ask<T>(_ event: Event, _ extract: (Event) -> T?) async throws(TodoClientError) -> T {
        let answer = try await request(event)
        guard let value = extract(answer) else {
            throw .protocolViolation("expected an answer to \(event.kind.rawValue), got \(answer.kind.rawValue)")
        }
        return value
    }

    func change(_ event: Event) async throws(TodoClientError) -> TodoChange {
        try await ask(event) { if case .responseTodoViewModel(let change) = $0 { change } else { nil } }
    }

    func detail(_ ref: TodoRef) async throws(TodoClientError) -> TodoDetailViewModel {
        try await ask(.requestTodoDetail(ref)) { if case .responseTodoDetail(let detail) = $0 { detail } else { nil } }
    }
}

extension TodoRef: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}

extension Priority: ExpressibleByArgument {}

/// A due date as typed; read against today when the command runs.
struct DueDateArgument: ExpressibleByArgument {
    let date: LocalDate

    init?(argument: String) {
        guard let date = DueDateParser.parse(argument, today: LocalDate(Date())) else { return nil }
        self.date = date
    }

    static var defaultValueDescription: String { DueDateParser.accepted }
}
