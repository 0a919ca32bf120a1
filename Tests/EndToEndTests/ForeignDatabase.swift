import Foundation
import TestHarness
import Testing

/// A shared store with a history (a, b, c through one daemon, stopped), and a database used
/// alone with one of its own (x, y, its daemon stopped): no replica of that store.
func storeBesideAForeignDatabase() async throws -> (server: PostgresServer, alone: DaemonProcess) {
    let server = try await PostgresServer.start()
    let shared = try await DaemonProcess.start(arguments: ["--store", server.uri])
    for title in ["a", "b", "c"] { _ = try await shared.todoctl("add", title) }
    try await shared.stop()
    let alone = try await DaemonProcess.start()
    for title in ["x", "y"] { _ = try await alone.todoctl("add", title) }
    try await alone.stop()
    return (server, alone)
}
