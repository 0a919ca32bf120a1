// Writes what follows from the list of events, so that the list is written once: the case lines
// of `enum Event` (Event.swift) and `enum ModelEvent` (ModelEvent.swift) become `EventKind`,
// `Event.kind`, Event's `Codable` conformance, `ModelEvent.Kind` and `ModelEvent.kind`.
// Plugins/EventListPlugin runs it at every build that changes either file, into the plugin's
// work directory; nothing it writes is kept in Sources.
//
// Why a build-tool plugin and not a macro: a macro is a compiler plugin built on swift-syntax,
// which would then be compiled before everything else in every clean build (CI, `make deb`,
// a fresh clone): swift-syntax 603.0.1's SwiftSyntaxMacros alone took 4 min 40 s to build on
// the 2-core machine todod is built on (2 min 50 s of CPU; debug, `time swift build --target
// SwiftSyntaxMacros` in an empty package, other builds sharing the machine), where this file
// builds in seconds. The price is that it reads lines, not Swift: each case is `case name` or
// `case name(OneType)`, one a line, and any other shape stops the build with the line it could
// not read.
//
// Usage: event-list-generator Event.swift ModelEvent.swift Output.swift
import Foundation

struct EventCase {
    var name: String
    /// The type of its one value, as written (`TodoRef`, `[TodoMutation]`); nil for none.
    var payload: String?
}

/// A line it cannot read, as `file:line: error: …` so that the build points at it.
struct Refusal: Error, CustomStringConvertible {
    var description: String
}

/// The cases of `enum name` in the file at `path`, and the file's imports (the payloads' modules).
func read(enum name: String, in path: String) throws -> (cases: [EventCase], imports: [String]) {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw Refusal(description: "\(path):1: error: event-list-generator cannot read this file as UTF-8")
    }
    let lines = text.components(separatedBy: "\n")
    let imports = lines.filter { $0.hasPrefix("import ") }
    guard let start = lines.firstIndex(where: { declares(enum: name, $0) }) else {
        throw Refusal(description: "\(path):1: error: event-list-generator expected `enum \(name)` in this file")
    }
    var cases: [EventCase] = []
    var depth = 0
    for (index, line) in lines.enumerated().dropFirst(start) {
        // Comments may hold braces (`{"event":…}`); no case line holds a string.
        let code = line.components(separatedBy: "//")[0].trimmingCharacters(in: .whitespaces)
        if depth == 1, code.hasPrefix("case ") || code.hasPrefix("indirect ") {
            guard code.hasPrefix("case "), let eventCase = parse(String(code.dropFirst("case ".count))) else {
                throw Refusal(description: """
                    \(path):\(index + 1): error: event-list-generator expected `case name` or `case name(OneType)` \
                    in enum \(name), one case a line, found `\(code)`: put several values, or labelled ones, in a \
                    struct of their own
                    """)
            }
            cases.append(eventCase)
        }
        depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
        if depth == 0 && code.contains("}") { break }
    }
    guard !cases.isEmpty else {
        throw Refusal(description: "\(path):\(start + 1): error: event-list-generator found no case in enum \(name)")
    }
    return (cases, imports)
}

func declares(enum name: String, _ line: String) -> Bool {
    let words = line.split(whereSeparator: { " :{<".contains($0) })
    return zip(words, words.dropFirst()).contains { $0 == "enum" && $1 == name }
}

/// `name` or `name(OneType)`: a type may hold brackets (`[TodoMutation]`, `Result<A, B>`), but
/// no comma or colon outside them (several values, labels), nor a raw value.
func parse(_ text: String) -> EventCase? {
    let name = String(text.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" }))
    let rest = text.dropFirst(name.count)
    guard let first = name.first, !first.isNumber else { return nil }
    if rest.isEmpty { return EventCase(name: name, payload: nil) }
    guard rest.hasPrefix("("), rest.hasSuffix(")"), rest.count > 2 else { return nil }
    var depth = 0
    for character in rest.dropFirst().dropLast() {
        if "([<".contains(character) { depth += 1 }
        if ")]>".contains(character) { depth -= 1 }
        if depth < 0 || (depth == 0 && ",:=".contains(character)) { return nil }
    }
    return depth == 0 ? EventCase(name: name, payload: String(rest.dropFirst().dropLast())) : nil
}

/// `public var kind`: each case's name as the kind of the same name.
func kindSwitch(_ cases: [EventCase], type: String, indent: String) -> String {
    """
    \(indent)public var kind: \(type) {
    \(indent)    switch self {
    \(cases.map { "\(indent)    case .\($0.name): .\($0.name)" }.joined(separator: "\n"))
    \(indent)    }
    \(indent)}
    """
}

/// `init(from:)`'s line for a case: its value from `data`, read by the overload of
/// `eventData` its type picks (EmptyPayloadDecodable.swift).
func decoding(_ event: EventCase) -> String {
    guard let payload = event.payload else { return "        case .\(event.name): self = .\(event.name)" }
    return "        case .\(event.name): self = .\(event.name)(try c.eventData(\(payload).self, forKey: .data))"
}

/// `encode(to:)`'s line for a case: its value as `data`, or no `data`.
func encoding(_ event: EventCase) -> String {
    guard event.payload != nil else { return "        case .\(event.name): break" }
    return "        case .\(event.name)(let data): try c.encode(data, forKey: .data)"
}

func generate(view: [EventCase], model: [EventCase], imports: [String]) -> String {
    """
    // Generated by event-list-generator (Plugins/EventListPlugin) from the cases of `Event` in
    // Event.swift and `ModelEvent` in ModelEvent.swift: edit those, not this.
    \(imports.joined(separator: "\n"))

    /// The name of a view event's case: the `"event"` field on the wire, and with
    /// `ModelEvent.Kind` what subscriptions are made of.
    public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    \(view.map { "    case \($0.name)" }.joined(separator: "\n"))
    }

    extension Event {
    \(kindSwitch(view, type: "EventKind", indent: "    "))
    }

    /// An event is coded as `{"event": "<kind>", "data": <its value>}`; an event without a
    /// value has no `data`. A payload that is `EmptyPayloadDecodable` may be left out.
    extension Event: Codable {
        private enum CodingKeys: String, CodingKey {
            case event, data
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            switch try c.decode(EventKind.self, forKey: .event) {
    \(view.map(decoding).joined(separator: "\n"))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .event)
            switch self {
    \(view.map(encoding).joined(separator: "\n"))
            }
        }
    }

    extension ModelEvent {
        /// A model event's name: what the ModelServer's participants and the ViewModelServer subscribe to.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
    \(model.map { "        case \($0.name)" }.joined(separator: "\n"))
        }

    \(kindSwitch(model, type: "Kind", indent: "    "))
    }

    """
}

#if FUZZING
// `make fuzz` builds with libFuzzer, and SwiftPM passes its -Xswiftc flags to a plugin's tool
// too; the fuzzer's runtime needs this symbol to link. The generator's own main still runs.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzNothing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { 0 }
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: event-list-generator Event.swift ModelEvent.swift Output.swift\n".utf8))
    exit(64)
}
do {
    let view = try read(enum: "Event", in: arguments[1])
    let model = try read(enum: "ModelEvent", in: arguments[2])
    let imports = Array(Set(view.imports + model.imports)).sorted()
    try generate(view: view.cases, model: model.cases, imports: imports).write(toFile: arguments[3], atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
