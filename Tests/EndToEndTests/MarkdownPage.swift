import Foundation

/// What a Markdown page offers and points to, read as GitHub renders it: its headings' anchors,
/// and the targets of its inline links `[text](target)`, outside code (fenced blocks and
/// `code spans`, where a link is only text).
struct MarkdownPage {
    struct Link: Equatable {
        var line: Int
        var target: String
    }

    var anchors: Set<String> = []
    var links: [Link] = []

    init(markdown: String) {
        var inFence = false
        var seen: [String: Int] = [:]
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            let prose = line.replacing(/`[^`]*`/) { match in
                // A code span's text counts in a heading's anchor, but never as a link.
                String(match.output.dropFirst().dropLast()).replacingOccurrences(of: "](", with: "] (")
            }
            if let heading = prose.firstMatch(of: /^#{1,6}\s+(.*?)\s*#*\s*$/) {
                // GitHub numbers a repeated heading's anchor: x, x-1, x-2.
                let slug = Self.slug(String(heading.output.1))
                let count = seen[slug, default: 0]
                seen[slug] = count + 1
                anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
            }
            for match in prose.matches(of: /\]\(([^)\s]+)\)/) {
                links.append(Link(line: index + 1, target: String(match.output.1)))
            }
        }
    }

    /// GitHub's anchor of a heading: lower case, every character but letters, digits, spaces,
    /// `-` and `_` dropped, spaces made `-`.
    static func slug(_ heading: String) -> String {
        let kept = heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }
}
