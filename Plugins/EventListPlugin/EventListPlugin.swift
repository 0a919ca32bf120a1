import Foundation
import PackagePlugin

/// Runs event-list-generator on TodoEvents' list of events (the cases of `Event` and
/// `ModelEvent`) before TodoEvents compiles, into this plugin's work directory: what it writes
/// is compiled with the target and never kept in Sources. SwiftPM runs it again only when
/// either file changed.
@main
struct EventListPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let lists = ["Event.swift", "ModelEvent.swift"].map { target.directoryURL.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EventLists.swift")
        return [
            .buildCommand(
                displayName: "Deriving EventKind, ModelEvent.Kind and Event's coding from \(target.name)'s events",
                executable: try context.tool(named: "event-list-generator").url,
                arguments: lists.map(\.path) + [output.path],
                inputFiles: lists,
                outputFiles: [output])
        ]
    }
}
