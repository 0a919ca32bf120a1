import Foundation

/// The repository's documentation as the tests read it: README.md and the pages under docs/,
/// by their paths from the repository's root.
enum Documentation {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    /// README.md and every Markdown page under docs/.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    static func text(of page: String) throws -> String {
        try String(contentsOfFile: root + "/" + page, encoding: .utf8)
    }
}
