import Foundation

/// Which targets each target of the package may import: as Package.swift declares it
/// (`swift package dump-package`), or as docs/ARCHITECTURE.md draws it, so the two can be
/// compared. A product of another package counts by its name (`GRDB`, `NIOCore`).
struct ModuleGraph: Equatable, CustomStringConvertible {
    var dependencies: [String: Set<String>] = [:]

    /// The graph in `swift package dump-package`'s JSON.
    init(dumpedPackage json: Data) throws {
        struct Package: Decodable {
            struct Target: Decodable {
                var name: String
                var dependencies: [[String: [String?]]]
            }
            var targets: [Target]
        }
        for target in try JSONDecoder().decode(Package.self, from: json).targets {
            // Each dependency is {"byName": [name, condition]}, {"target": […]} or {"product": [name, package, …]}: the name comes first.
            let names = try target.dependencies.map { dependency -> String in
                guard let name = dependency.values.first?.first ?? nil else {
                    throw TestFailure("a dependency of \(target.name) in dump-package's JSON has no name: \(dependency)")
                }
                return name
            }
            dependencies[target.name] = Set(names)
        }
    }

    /// The graph in the fenced block after `marker`: one line per target, `Target: dependency dependency …`.
    init(markdown: String, after marker: String) throws {
        let lines = markdown.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: marker), lines.count > start + 1, lines[start + 1].hasPrefix("```") else {
            throw TestFailure("no fenced block right after \(marker)")
        }
        for line in lines[(start + 2)...].prefix(while: { !$0.hasPrefix("```") }) where !line.isEmpty {
            let parts = line.split(separator: ":", maxSplits: 1)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard dependencies[name] == nil else { throw TestFailure("\(name) is drawn twice") }
            dependencies[name] = Set((parts.count > 1 ? parts[1] : "").split(separator: " ").map(String.init))
        }
    }

    /// What differs from `other`, a line per target.
    func differences(from other: ModuleGraph, ours: String, theirs: String) -> [String] {
        Set(dependencies.keys).union(other.dependencies.keys).sorted().compactMap { name -> String? in
            switch (dependencies[name], other.dependencies[name]) {
            case (nil, _): "\(name): in \(theirs), not in \(ours)"
            case (_, nil): "\(name): in \(ours), not in \(theirs)"
            case (let mine?, let their?) where mine != their:
                "\(name): \(ours) has \(mine.subtracting(their).sorted()) more, \(theirs) has \(their.subtracting(mine).sorted()) more"
            default: nil
            }
        }
    }

    var description: String {
        dependencies.keys.sorted().map { "\($0): \(dependencies[$0]!.sorted().joined(separator: " "))" }.joined(separator: "\n")
    }
}
