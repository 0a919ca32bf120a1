import ArgumentParser
import Foundation
import TodoClient
import TodoModel
import TodoEvents
import TodoViewModel
import TodoWire

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Apply another database's log (`todoctl log --json`) to this one.",
        discussion: """
            Each change's todo is written as it is (id, number, times, revision), in order, \
            in batches of \(WireProtocol.maximumArrayLength), each batch all or nothing. A change \
            must follow its todo's current revision, so replay a whole log into an empty \
            database: it then holds the same todos, numbers, revisions and seqs (a purge's \
            gap too). A new todo whose number another todo holds here (a replica's log \
            replayed into its store) gets the next free one, said as `#4 is now #5`. A change \
            the database already holds, the same, is skipped: after an \
            interruption, replay the same log again. A log with changes left out (a line cut \
            out, or the part `log --json --since` or `--limit` prints) is refused before \
            anything is written, naming the missing seqs (exit 65): replay the whole log, or \
            its rest onto the database that holds its beginning. `-` reads stdin.
            """)

    @Argument(help: "The file of JSON lines, or - for stdin.") var file: String
    @OptionGroup var connection: ConnectionOptions

    /// A change to replay and the line of the input it came from (for messages).
    struct Line {
        var change: JournaledChange
        var number: Int
    }

    func run() async throws {
        let text = try read()
        var lines: [Line] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            do {
                var change = try WireCodec.decode(JournaledChange.self, from: String(line))
                change.before = nil  // the daemon writes the todo after; this keeps requests small
                // A request's arrays hold at most 64 elements, and a change names its step and
                // the change it undid besides: an undo of more steps than fit is replayed with
                // `undoes` alone, from which todod works the steps out (as for a journal from before redo).
                if (change.undoneSteps?.count ?? 0) > WireProtocol.maximumArrayLength - 2 { change.undoneSteps = nil }
                lines.append(Line(change: change, number: index + 1))
            } catch {
                throw ValidationError("\(file), line \(index + 1) is not a change from `todoctl log --json` (\(error)); nothing was replayed")
            }
        }
        var replayed = 0
        var skipped = 0
        var stored: Line?
        let log = Self.sources(lines)
        try Session.run(connection) { client in
            // The whole log is checked before the first batch: a log with changes left out writes nothing.
            let refusal = try ReplayContinuity.refusal(lines, file: file == "-" ? "standard input" : file) { id -> Int? in
                do throws(TodoClientError) { return try client.detail(.id(id)).todo.revision } catch {
                    if case .refused = error { return nil }
                    throw error
                }
            }
            if let refusal {
                Terminal.error(refusal)
                throw ExitStatus.dataError
            }
            var numbers = ReplayRenumbering(lines.map(\.change))
            var start = lines.startIndex
            while start < lines.endIndex {
                let batch = try Self.batch(from: lines[start...], log: log)
                do throws(TodoClientError) {
                    let changes = try numbers.numbered(batch.map(\.change)) { (id: UUID) throws(TodoClientError) -> Int? in
                        do throws(TodoClientError) { return try client.detail(.id(id)).todo.number } catch {
                            if case .refused = error { return nil }
                            throw error
                        }
                    }
                    let request = ReplayRequest(changes: changes, sources: numbers.numbered(Self.named(by: batch, in: log)))
                    let list = try client.ask(.requestReplay(request)) {
                        if case .responseReplay(let list) = $0 { list } else { nil }
                    }
                    for (was, now) in numbers.learn(list.changes, sent: batch.map(\.change)) {
                        Terminal.print("#\(was) is now #\(now): another todo had that number here")
                    }
                    replayed += list.changes.count
                    skipped += batch.count - list.changes.count
                    stored = batch.last
                } catch {
                    Terminal.error(interruption(error, batch: batch, storedBefore: stored))
                    throw error
                }
                start += batch.count
            }
        }
        let skips = skipped == 0 ? "" : "; \(skipped) already here, the same, skipped"
        Terminal.print("replayed \(replayed) change\(replayed == 1 ? "" : "s")\(skips)")
    }

    /// The log, from the file or stdin; one that cannot be read is bad input, as for `import`.
    private func read() throws -> String {
        guard file != "-" else { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            // FileHandle does not say why; open(2) does.
            let descriptor = open(file, O_RDONLY)
            let reason = descriptor < 0 ? String(cString: strerror(errno)) : "it cannot be opened for reading"
            if descriptor >= 0 { close(descriptor) }
            Terminal.error("cannot read \(file): \(reason); give the file `todoctl log --json` wrote, or - to read standard input; nothing was replayed")
            throw ExitStatus.dataError
        }
        defer { try? handle.close() }
        do {
            return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        } catch {
            Terminal.error("cannot read \(file): \(error.localizedDescription); nothing was replayed")
            throw ExitStatus.dataError
        }
    }

    /// What is known when `batch` failed with `error`, and how to go on. A refused batch
    /// wrote nothing (each is all or nothing); a lost connection leaves the batch unknown
    /// until todod is asked again, so this asks, on a new connection, when it can.
    private func interruption(_ error: TodoClientError, batch: [Line], storedBefore: Line?) -> String {
        let first = batch[0], last = batch[batch.count - 1]
        let through = storedBefore.map { "changes through line \($0.number) (seq \($0.change.sequence)) are stored" } ?? "no change was replayed"
        let again = file == "-" ? "replay the same input again" : "run `todoctl replay \(file)` again"
        if case .refused(let refusal) = error {
            // The daemon names a refused change by its number and revision (`#3 revision 2`).
            let culprit = batch.first(where: { line in
                let name = "#\(line.change.todo.number) revision \(line.change.todo.todo.revision)"
                return refusal.message.contains(name + " ") || refusal.message.contains(name + ":")
            })
            let place = culprit.map { "line \($0.number) (seq \($0.change.sequence))" } ?? "lines \(first.number)–\(last.number) (seq \(first.change.sequence)–\(last.change.sequence))"
            return "\(through); \(place) \(culprit == nil ? "were" : "was") refused, and nothing from line \(first.number) on was replayed:"
        }
        // Read back: the batch is stored if its last todo is here at that revision or later.
        let readBack = try? TodoConnection(path: connection.socketPath, program: ClientProgram.todoctl).detail(.id(last.change.todo.id))
        switch readBack {
        case .some(let detail) where detail.todo.revision >= last.change.todo.todo.revision:
            return """
                the connection was lost, but changes through line \(last.number) (seq \(last.change.sequence)) are stored \
                (read back from todod): to go on, \(again); the changes already stored are skipped.
                """
        case .some:
            return """
                the connection was lost; \(through), and the ones from line \(first.number) (seq \(first.change.sequence)) on \
                are not (read back from todod): to go on, \(again); the changes already stored are skipped.
                """
        case nil:
            return """
                the connection was lost; \(through); lines \(first.number)–\(last.number) (seq \(first.change.sequence)–\
                \(last.change.sequence)) were being written and may be stored or not. Once todod runs again, \(again): \
                the changes already stored are skipped.
                """
        }
    }

    /// Each change of the log by its seq, as a request names it when it does not carry it.
    static func sources(_ lines: [Line]) -> [UInt64: ReplaySource] {
        var sources: [UInt64: ReplaySource] = [:]
        for line in lines {
            sources[line.change.sequence] = ReplaySource(seq: line.change.sequence, number: line.change.todo.number, revision: line.change.todo.todo.revision)
        }
        return sources
    }

    /// The changes of the log that `batch` names (a step begun before it, what an undo
    /// took back) but does not carry: todod finds them in its journal by their todo's revision.
    static func named(by batch: [Line], in log: [UInt64: ReplaySource]) -> [ReplaySource] {
        let carried = Set(batch.map(\.change.sequence))
        let named = Set(batch.flatMap { line in [line.change.step] + (line.change.undoes.map { [$0] } ?? []) + (line.change.undoneSteps ?? []) })
        return named.subtracting(carried).sorted().compactMap { log[$0] }
    }

    /// The changes at the start of `lines` that fit one request: at most
    /// `maximumArrayLength`, naming at most as many others (`sources`), and well under the
    /// request length limit (notes can be long).
    static func batch(from lines: ArraySlice<Line>, log: [UInt64: ReplaySource]) throws -> [Line] {
        var batch: [Line] = []
        var bytes = 0
        for line in lines.prefix(WireProtocol.maximumArrayLength) {
            let size = try WireCodec.json(line.change).utf8.count
            if !batch.isEmpty && bytes + size > WireProtocol.maximumRequestLength / 2 { break }
            batch.append(line)
            bytes += size
        }
        while batch.count > 1 && named(by: batch, in: log).count > WireProtocol.maximumArrayLength { batch.removeLast() }
        return batch
    }
}
