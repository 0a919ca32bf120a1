import Foundation
import Testing

/// docs/ARCHITECTURE.md's module graph is Package.swift's: a target added, removed, or given
/// another dependency fails here until the drawing says so too.
@Suite("docs/ARCHITECTURE.md's module graph")
struct ArchitectureGraphTests {
    static let marker = "<!-- module graph: every target and what it may import, checked against Package.swift -->"

    @Test("the graph drawn in docs/ARCHITECTURE.md is the one Package.swift declares, target for target")
    func graphIsPackages() async throws {
        // A scratch directory of its own: the package's .build may be locked by a build.
        let scratch = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (status, output) = try await ChildProcess.run(
            "/usr/bin/env", ["swift", "package", "--package-path", Documentation.root, "--scratch-path", scratch, "dump-package"],
            environment: ProcessInfo.processInfo.environment, timeout: 300)
        try #require(status == 0, "swift package dump-package exited \(status):\n\(output)")
        // Its output is the JSON alone unless SwiftPM warns: the object starts at the first brace.
        let json = Data(output[(output.firstIndex(of: "{") ?? output.startIndex)...].utf8)
        let package = try ModuleGraph(dumpedPackage: json)
        let drawn = try ModuleGraph(markdown: Documentation.text(of: "docs/ARCHITECTURE.md"), after: Self.marker)
        #expect(package.dependencies.count > 20, "Package.swift's targets: \(package.dependencies.keys.sorted())")
        let differences = drawn.differences(from: package, ours: "docs/ARCHITECTURE.md", theirs: "Package.swift")
        #expect(differences.isEmpty, "the graphs differ:\n\(differences.joined(separator: "\n"))\nPackage.swift's, to paste:\n\(package)")
    }

    @Test("a dependency more or less, or a target missing, is a difference")
    func differencesAreFound() throws {
        let drawn = try ModuleGraph(markdown: "\(Self.marker)\n```\nA: B\nB:\n```\n", after: Self.marker)
        let declared = try ModuleGraph(markdown: "\(Self.marker)\n```\nA: B C\nC:\n```\n", after: Self.marker)
        let differences = drawn.differences(from: declared, ours: "doc", theirs: "package")
        #expect(differences == [#"A: doc has [] more, package has ["C"] more"#, "B: in doc, not in package", "C: in package, not in doc"], "differences: \(differences)")
    }
}
