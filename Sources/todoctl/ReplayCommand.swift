import ArgumentParser
import Foundation
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
            database: it then holds the same todos, numbers and revisions. `-` reads stdin.
            """)

    @Argument(help: "The file of JSON lines, or - for stdin.") var file: String
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let text: String
        do {
            text = file == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                : try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        var changes: [JournaledChange] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            do {
                var change = try WireCodec.decode(JournaledChange.self, from: String(line))
                change.before = nil  // the daemon writes the todo after; this keeps requests small
                changes.append(change)
            } catch {
                throw ValidationError("\(file), line \(index + 1) is not a change from `todoctl log --json` (\(error)); nothing was replayed")
            }
        }
        var replayed = 0
        try await Session.run(connection) { client in
            var start = changes.startIndex
            while start < changes.endIndex {
                let batch = try Self.batch(from: changes[start...])
                do {
                    let list = try client.ask(.requestReplay(ReplayRequest(changes: batch))) { if case .responseReplay(let list) = $0 { list } else { nil } }
                    replayed += list.changes.count
                } catch {
                    if replayed > 0 {
                        let seq = batch[0].sequence
                        Terminal.error("""
                            \(replayed) changes were replayed; the ones from seq \(seq) on were not: to go on, replay only those lines of \
                            \(file) (for instance jq -c 'select(.seq >= \(seq))' \(file) > rest.jsonl; todoctl replay rest.jsonl)
                            """)
                    }
                    throw error
                }
                start += batch.count
            }
        }
        Terminal.print("replayed \(replayed) change\(replayed == 1 ? "" : "s")")
    }

    /// The changes at the start of `changes` that fit one request: at most
    /// `maximumArrayLength`, and well under the request length limit (notes can be long).
    static func batch(from changes: ArraySlice<JournaledChange>) throws -> [JournaledChange] {
        var batch: [JournaledChange] = []
        var bytes = 0
        for change in changes.prefix(WireProtocol.maximumArrayLength) {
            let size = try WireCodec.json(change).utf8.count
            if !batch.isEmpty && bytes + size > WireProtocol.maximumRequestLength / 2 { break }
            batch.append(change)
            bytes += size
        }
        return batch
    }
}
