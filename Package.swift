// swift-tools-version:6.1
// The module graph is the architecture: each layer is a target, and a target can only
// import what it lists here. Model knows nothing of ours; ViewModel knows Model; the
// clients (todoctl, TodoClient) never see the servers or the store.
import PackageDescription

// todoctl is linked whole, glibc included (static, not position-independent): a command is a
// process start and one round trip, and the dynamic loader was most of the start.
// As a PIE, todoctl was 90,000 relative relocations to apply before main; without PIE
// but linked to glibc and libstdc++ it still bound 460 symbols on load and the runtime
// asked dladdr (a walk of 11,784 exported symbols) for its own path: 60% of `todoctl
// --version`'s instructions (callgrind), whose CPU went from 3.3 ms to 0.9 ms static
// (docs/PERFORMANCE.md, "Start-up"). With lld, which also leaves out glibc's link-time
// notes that getpwuid and dlopen in a static program load the system's NSS modules at
// run time: todoctl reads no user database itself (its paths come from the
// environment and getuid), and Debian's libc6, always installed, provides them.
// The daemon stays dynamic and PIE: it starts once.
let oneShot: [LinkerSetting] = [.unsafeFlags(["-static-executable", "-use-ld=lld"], .when(configuration: .release))]
// The daemon and the bench, dynamic, also with lld: gold printed, for every release link,
// glibc's note on `mktemp` in the static FoundationEssentials (a function they never call).
let longRunning: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"], .when(configuration: .release))]

let package = Package(
    name: "todod",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "todod", targets: ["todod"]),
        .executable(name: "todoctl", targets: ["todoctl"]),
        .library(name: "TodoClient", targets: ["TodoClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Layers
        .target(name: "TodoModel"),
        // Where todod lives on this machine: default paths, the socket directory's rule, the
        // version. Neither the wire nor the layers know of paths.
        .target(name: "TodoPaths"),
        // What time it is: the real clock, or for tests only the instant TODOD_TEST_NOW gives.
        // Only the programs' edges read it (todod's daemon, todoctl's commands): the ViewModels
        // and the wire are given the day, so neither may import it.
        .target(name: "TodoClock", dependencies: ["TodoModel"]),
        .target(name: "TodoViewModel", dependencies: ["TodoModel"]),
        // The events, listed once: the cases of `Event` and `ModelEvent`; EventListPlugin derives their kinds and coding.
        .target(
            name: "TodoEvents",
            dependencies: [
                "TodoModel", "TodoViewModel",
                // The bus is bound to the core's event loop (`NIOLoopBoundBox`), as the servers' state is.
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            plugins: ["EventListPlugin"]),
        // What a shared store (`todod --store`) promises the daemon that writes through it: the
        // `SharedStore` protocol, the changes it carries and its errors. TodoServers writes through
        // it and TodoPostgres keeps it, so neither imports the other.
        .target(name: "SharedStoreContract", dependencies: ["TodoModel", "TodoEvents"]),
        .target(
            name: "TodoServers",
            dependencies: [
                "TodoModel", "TodoViewModel", "TodoEvents", "TodoPaths", "SharedStoreContract",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // The core's state is bound to its event loop (`NIOLoopBoundBox`), as a handler's is.
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // PostgreSQL as the shared truth behind each daemon's SQLite replica (`todod --store`).
        .target(
            name: "TodoPostgres",
            dependencies: [
                "SharedStoreContract", "TodoModel", "TodoEvents",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "TodoWire",
            dependencies: [
                "TodoEvents",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "TodoSystemd",
            dependencies: [
                "CSystemd", "UnixSocket",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "TodoDaemon",
            dependencies: [
                "TodoServers", "SharedStoreContract", "TodoWire", "TodoSystemd", "TodoPaths", "TodoClock", "TodoInterop", "UnixSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .target(
            name: "TodoClient",
            dependencies: [
                "TodoWire", "TodoEvents", "TodoViewModel", "TodoPaths", "UnixSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),

        // Other programs' formats (Taskwarrior, todo.txt, iCalendar, todod's JSON) to and from
        // todos: pure text in, values out, so it knows neither the daemon nor the socket.
        .target(name: "TodoInterop", dependencies: ["TodoModel"]),

        // The terminal View of `todoctl watch`: screen model and renderer, no I/O of the daemon.
        .target(name: "TodoTerminal", dependencies: ["TodoViewModel", "TodoModel", "CWidth"]),
        // glibc's wcwidth(3), which Swift's Glibc module leaves out: columns of wide text.
        .target(name: "CWidth"),
        .target(name: "CMalloc"),
        // A Unix socket's address and its peer's credentials: the one place that fills a
        // sockaddr_un or a ucred, for every socket opened by hand.
        .target(name: "UnixSocket"),
        // What the tests and the bench run todod among, shared so there is one of each: programs
        // started with posix_spawn and reaped by pid (Sources/TestHarness/Spawn.swift says why not
        // Foundation's Process), a private PostgreSQL, a stand-in for systemd's notify socket, a
        // raw connection that speaks the wire by hand. No product lists it: it never ships.
        .target(name: "TestHarness", dependencies: ["UnixSocket"]),

        // Derives TodoEvents' kinds and coding from its cases at build time (Sources/event-list-generator says why not a macro).
        .plugin(name: "EventListPlugin", capability: .buildTool(), dependencies: ["event-list-generator"]),

        // Executables
        // The generator the plugin runs: case lines in, Swift out; no dependencies, so it builds first and fast.
        .executableTarget(name: "event-list-generator"),
        .executableTarget(
            name: "todod",
            dependencies: [
                "TodoDaemon", "TodoServers", "SharedStoreContract", "TodoSystemd", "TodoWire", "TodoPaths", "TodoPostgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: longRunning),
        .executableTarget(
            name: "todobench",
            dependencies: [
                "TodoClient", "TodoWire", "TodoEvents", "TodoViewModel", "TodoModel", "TodoPaths",
                // PostgreSQL, systemd's notify socket and the raw connection, as the tests have them.
                "TestHarness",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: longRunning),
        .executableTarget(
            name: "todoctl",
            dependencies: [
                "TodoClient", "TodoWire", "TodoEvents", "TodoViewModel", "TodoModel", "TodoTerminal", "TodoPaths", "TodoClock",
                "TodoInterop", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: oneShot),

        // A static hello world linked as todoctl is: the floor `todobench` sets todoctl's start-up
        // beside (`make bench` builds it; it never ships).
        .executableTarget(name: "hello-static", linkerSettings: oneShot),

        // libFuzzer's target for the frame decoder (`make fuzz`); built plainly, it replays files.
        .executableTarget(
            name: "todowire-fuzz",
            dependencies: ["TodoWire", .product(name: "NIOCore", package: "swift-nio")]),

        // Tests: one target per layer, plus end-to-end tests that spawn real processes.
        .testTarget(name: "TodoModelTests", dependencies: ["TodoModel"]),
        .testTarget(name: "TodoViewModelTests", dependencies: ["TodoViewModel"]),
        .testTarget(name: "TodoClockTests", dependencies: ["TodoClock"]),
        .target(name: "EventTestSupport", dependencies: ["TodoEvents"], path: "Tests/EventTestSupport"),
        .testTarget(
            name: "TodoEventsTests",
            dependencies: [
                "TodoEvents", "EventTestSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(
            name: "TodoServersTests",
            dependencies: [
                "TodoServers", "TodoEvents", "EventTestSupport", "TestHarness", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(name: "TodoWireTests", dependencies: ["TodoWire"]),
        // The network code's bounds on NIO's EmbeddedChannel (no socket, no process, no clock), and the lock files' holder.
        .testTarget(
            name: "TodoDaemonTests",
            dependencies: [
                "TodoDaemon", "TodoEvents", "TodoWire", "TodoViewModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "TodoClientTests",
            dependencies: [
                "TodoClient", "TodoEvents", "TodoWire", "TodoViewModel", "TodoModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(
            name: "TodoPostgresTests",
            dependencies: [
                "TodoPostgres",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(name: "TodoSystemdTests", dependencies: ["TodoSystemd", "TestHarness"]),
        .testTarget(name: "UnixSocketTests", dependencies: ["UnixSocket"]),
        .testTarget(name: "TodoTerminalTests", dependencies: ["TodoTerminal", "TodoViewModel", "TodoModel"]),
        // The real Taskwarrior in a temporary directory, for the interop and end-to-end tests.
        .target(name: "InteropTestSupport", dependencies: ["TestHarness"], path: "Tests/InteropTestSupport"),
        .testTarget(name: "TodoInteropTests", dependencies: ["TodoInterop", "TodoModel", "InteropTestSupport", "TestHarness"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["TodoClient", "TodoEvents", "TodoModel", "InteropTestSupport", "TestHarness"]),
    ],
    swiftLanguageModes: [.v6]
)
