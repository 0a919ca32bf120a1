import Foundation

/// The tour of a page (README.md, docs/TOUR.md, …), in the sections between `<!-- tour -->` and `<!-- /tour -->` (run
/// in order, one world): each fenced block's `$ ` lines are commands, the lines under one
/// its expected output (stdout and stderr as a terminal shows them, then `[exit N]` when N
/// is not 0). The block after `<!-- tour: events -->` is what a `todoctl events` started
/// before the first command prints meanwhile.
struct ReadmeTour {
    struct Step: Equatable {
        var command: String
        var output: [String]
    }

    var steps: [Step] = []
    var events: [String] = []

    static let start = "<!-- tour -->"
    static let end = "<!-- /tour -->"
    static let eventsMarker = "<!-- tour: events -->"

    init(markdown: String) throws {
        var inTour = false
        var inBlock = false
        var eventsNext = false
        var isEvents = false
        for line in markdown.components(separatedBy: "\n") {
            if line == Self.start || line == Self.end {
                inTour = line == Self.start
            } else if !inTour {
                continue
            } else if line.hasPrefix("```") {
                inBlock.toggle()
                isEvents = inBlock && eventsNext
                if !inBlock { eventsNext = false }
            } else if !inBlock {
                if line == Self.eventsMarker { eventsNext = true }
            } else if isEvents {
                events.append(line)
            } else if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), output: []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output.append(line)
            } else {
                throw TestFailure("the tour's block has output before any `$ ` command: \(line)")
            }
        }
        if steps.isEmpty { throw TestFailure("the page has no \(Self.start) … \(Self.end) section with commands") }
    }

    static let tryMarker = "<!-- try -->"

    /// The lines of the fenced blocks that follow `<!-- try -->` (README's "Try it"): what
    /// the first terminal types, then what the second one does.
    static func tryBlocks(markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var started = false
        var inBlock = false
        for line in markdown.components(separatedBy: "\n") {
            if line == tryMarker {
                started = true
            } else if started, line.hasPrefix("```") {
                inBlock.toggle()
                if inBlock { blocks.append([]) } else if blocks.count == 2 { break }
            } else if inBlock {
                blocks[blocks.count - 1].append(line)
            }
        }
        return blocks
    }

    /// Ids differ from run to run: every UUID reads as the one in the README would.
    static func normalised(_ lines: [String]) -> [String] {
        let uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
        return lines.map { $0.replacing(uuid, with: "00000000-0000-0000-0000-000000000000") }
    }
}
