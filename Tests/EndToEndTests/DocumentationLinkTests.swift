import Foundation
import Testing

/// The pages hold together: a reader who follows any relative link of README.md or docs/
/// lands on a file that exists and, when the link names a heading, on that heading.
@Suite("The documentation's links")
struct DocumentationLinkTests {
    @Test("every relative link of README.md and docs/ leads to a file that exists and a heading it has")
    func everyLinkLands() throws {
        var broken: [String] = []
        var followed = 0
        for page in try Documentation.pages() {
            let directory = URL(fileURLWithPath: Documentation.root + "/" + page).deletingLastPathComponent()
            for link in MarkdownPage(markdown: try Documentation.text(of: page)).links {
                if link.target.contains("://") || link.target.hasPrefix("mailto:") { continue }
                followed += 1
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]), anchor = parts.count > 1 ? String(parts[1]) : nil
                let file = path.isEmpty ? Documentation.root + "/" + page : directory.appendingPathComponent(path).standardized.path
                guard FileManager.default.fileExists(atPath: file) else {
                    broken.append("\(page):\(link.line): \(link.target): no file \(file)")
                    continue
                }
                guard let anchor else { continue }
                let anchors = MarkdownPage(markdown: try String(contentsOfFile: file, encoding: .utf8)).anchors
                if !anchors.contains(anchor) {
                    broken.append("\(page):\(link.line): \(link.target): no heading #\(anchor) there (it has \(anchors.sorted().joined(separator: ", ")))")
                }
            }
        }
        #expect(followed > 20, "the pages had \(followed) relative links")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test("a heading's anchor is GitHub's: lower case, punctuation and code marks gone, spaces made hyphens")
    func anchors() {
        let page = MarkdownPage(markdown: "# Your data: backup, restore, and the lock\n## The live list: `todoctl watch`\n```\n# not a heading\n```\n## Frames\n## Frames\n")
        #expect(page.anchors == ["your-data-backup-restore-and-the-lock", "the-live-list-todoctl-watch", "frames", "frames-1"], "anchors: \(page.anchors.sorted())")
    }

    @Test("a link inside code is text, not a link")
    func codeIsNotALink() {
        let page = MarkdownPage(markdown: "see [the tour](TOUR.md#the-tour) and `[x](nowhere.md)`\n```\n[y](nowhere.md)\n```\n")
        #expect(page.links == [MarkdownPage.Link(line: 1, target: "TOUR.md#the-tour")], "links: \(page.links)")
    }
}
