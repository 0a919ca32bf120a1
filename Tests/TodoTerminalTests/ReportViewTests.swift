import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("The reports todoctl tags, projects and summary draw")
struct ReportViewTests {
    private let plain = TextStyler(colours: false)
    private let todos = [
        todo(1, "Dig beds", tags: ["outside"], project: "home.garden"),
        todo(2, "Fix tap", tags: ["diy"], project: "home"),
        todo(3, "Paint fence", tags: ["outside"], completed: true, project: "home"),
        todo(4, "Write report", tags: ["outside", "desk"], project: "work"),
        todo(5, "Call Ann", tags: ["phone"]),
    ]

    @Test("tags: open todos only, projects are no tags, most used first, then by name")
    func tags() {
        let tallies = TagTally.tallies(of: todos)
        #expect(tallies.map { "\($0.tag) \($0.open)" } == ["outside 2", "desk 1", "diy 1", "phone 1"])
        #expect(ReportView.tags(tallies, styler: plain) == ["#outside  2", "#desk     1", "#diy      1", "#phone    1"])
    }

    @Test("tags that tie on count are in sort -f's order, any case, upper case first where only case differs (Zeta came before alpha; outside probe)")
    func tagsTieByNameInAnyCase() {
        let tallies = TagTally.tallies(of: [todo(1, "a", tags: ["zeta", "Zeta", "alpha", "Beta", "beta", "_x", "Delta"]), todo(2, "b", tags: ["Work"])])
        #expect(tallies.map(\.tag) == ["alpha", "Beta", "beta", "Delta", "Work", "Zeta", "zeta", "_x"], "\(tallies.map(\.tag))")
    }

    @Test("projects: a parent counts its sub-projects' todos, sub-projects indented under it")
    func projects() {
        let tallies = ProjectTally.tallies(of: todos + [todo(6, "Gone", project: "gone")].map {
            var deleted = $0
            deleted.deletedAt = base
            return deleted
        })
        #expect(tallies.map { "\($0.project) \($0.open)/\($0.done) \($0.percentDone)%" } == ["home 2/1 33%", "home.garden 1/0 0%", "work 1/0 0%"])
        #expect(ReportView.projects(tallies, styler: plain) == [
            "Project   Open  Done  Done%",
            "home         2     1    33%",
            "  garden     1     0     0%",
            "work         1     0     0%",
        ])
    }

    @Test("projects and summary widen a count column to its widest count, so that 12345 open todos stay under Open (a fixed 4 digits pushed the line past the heading; outside probe)")
    func countsWiderThanTheirHeading() {
        let tallies = [ProjectTally(project: "home", open: 12345, done: 123456), ProjectTally(project: "work", open: 7, done: 0)]
        #expect(ReportView.projects(tallies, styler: plain) == [
            "Project   Open    Done  Done%",
            "home     12345  123456    90%",
            "work         7       0     0%",
        ])
        let summary = ReportView.summary(tallies, width: 40, styler: plain)
        #expect(summary.map { String($0.prefix(23)) } == ["Project    Open  Done%", "home      12345    90% ", "work          7     0% "], "\(summary)")
    }

    @Test("a project with only a sub-project's todos is still listed, sub-projects sort under their parent, and an empty name is none")
    func parentsFromSubProjects() {
        let tallies = ProjectTally.tallies(of: [
            todo(1, "a", project: "home-office"), todo(2, "b", completed: true, project: "home.garden.beds"),
            todo(3, "c", project: "."), todo(4, "d", project: ""),
        ])
        #expect(tallies.map(\.project) == ["home", "home.garden", "home.garden.beds", "home-office"])
        #expect(tallies.first?.percentDone == 100)
    }

    @Test("summary fills the width given with each project's bar, at 80 and 40 columns, names cut before the counts")
    func summaryWidths() {
        let tallies = ProjectTally.tallies(of: todos)
        for width in [80, 40] {
            let lines = ReportView.summary(tallies, width: width, styler: plain)
            #expect(lines.map { TerminalText.width($0) } == [13 + 8, width, width, width], "\(width): \(lines)")
            #expect(lines[1].hasPrefix("home         2    33%  █"), "\(lines[1])")
        }
        let bar = ReportView.bar(percent: 33, width: 10, styler: plain)
        #expect(bar == "███░░░░░░░", "\(bar)")
        let wide = ProjectTally.tallies(of: [todo(1, "x", project: "東京の家の庭とその他のとても長い名前")])
        let narrow = ReportView.summary(wide, width: 40, styler: plain)
        #expect(narrow.dropFirst().allSatisfy { TerminalText.width($0) == 40 } && narrow[1].contains("…"), "\(narrow)")
    }
}
