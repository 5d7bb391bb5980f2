// swift-tools-version:6.0
//
// Statechart: W3C SCXML statecharts for Swift and C.
//
// Layers, bottom up (see ARCHITECTURE.md):
//   CStateCore         C11 table-driven dispatch core (no dependencies, usable from plain C)
//   CMachineLock       the Swift runtime's per-machine lock (C, so its fast path inlines)
//   CCallbackFrame     which machine's callback a thread runs: what an ActionContext checks (C)
//   Statechart         Swift chart definitions, the compiler to CStateCore tables, typed DSL, runtime
//   StatechartSCXML    SCXML 1.0 importer (libxml2), null datamodel, executable content
//   StatechartECMAScript  the ECMAScript datamodel on Duktape (separate, so others need no Duktape)
//   StatechartLogging  machines' errors, transitions and SCXML <log> to a swift-log Logger
//   statechart         the command-line tool
//   StatechartStore    durable sessions (snapshots, event ids, outbox, timers) over a storage
//                      protocol; StatechartStoreSQLite (GRDB) and StatechartStorePostgres
//                      (postgres-nio) implement it, so only their users link a database client
import PackageDescription

let package = Package(
    name: "Statechart",
    products: [
        .library(name: "CStateCore", targets: ["CStateCore"]),
        .library(name: "Statechart", targets: ["Statechart"]),
        .library(name: "StatechartSCXML", targets: ["StatechartSCXML"]),
        .library(name: "StatechartECMAScript", targets: ["StatechartECMAScript"]),
        .library(name: "StatechartCodegen", targets: ["StatechartCodegen"]),
        .library(name: "StatechartLogging", targets: ["StatechartLogging"]),
        .executable(name: "statechart", targets: ["StatechartCLI"]),
        .library(name: "StatechartStore", targets: ["StatechartStore"]),
        .library(name: "StatechartStoreSQLite", targets: ["StatechartStoreSQLite"]),
        .library(name: "StatechartStorePostgres", targets: ["StatechartStorePostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Only StatechartLogging uses it: the other libraries stay free of dependencies.
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Only the durable-session stores use them (StatechartStoreSQLite, StatechartStorePostgres).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // MARK: - C core

        .target(
            name: "CStateCore",
            path: "CStateCore",
            exclude: ["tests", "fuzz", "Makefile", "README.md"],
            publicHeadersPath: "include"
        ),

        // MARK: - Swift library

        // The per-machine lock of the Swift runtime: an inline fast path (plain stores while
        // the process has one thread), futex slow path. Not part of the core, which never locks.
        .target(name: "CMachineLock"),
        // The thread-local callback frames an ActionContext is checked against (callback_frame.h).
        .target(name: "CCallbackFrame"),
        .target(
            name: "Statechart",
            dependencies: ["CStateCore", "CMachineLock", "CCallbackFrame"]
        ),

        // Example charts written with the typed DSL: built, tested, and shown in the docs.
        .target(
            name: "StatechartExamples",
            dependencies: ["Statechart"],
            path: "Examples",
            // Examples/C is the plain C firmware example, built with make, not SwiftPM;
            // Examples/OrderWorkflow is the durable-session example's own executable.
            exclude: ["C", "OrderWorkflow"]
        ),

        // MARK: - SCXML importer

        // libxml2 through pkg-config; its types never appear in StatechartSCXML's public API.
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "StatechartSCXML",
            dependencies: ["Statechart", "CLibXML2"]
        ),

        // MARK: - ECMAScript datamodel

        // Duktape built by scripts/build-duktape.sh (run by scripts/setup.sh) from Debian's source
        // package with its execution-timeout hook on: Debian's libduktape cannot stop a script.
        .systemLibrary(
            name: "CDuktape",
            path: "Sources/CDuktape",
            pkgConfig: "statechart-duktape3"
        ),
        // Duktape's API is mostly macros Swift cannot import: the shim turns them into functions.
        .target(
            name: "CDuktapeShim",
            dependencies: ["CDuktape"]
        ),
        .target(
            name: "StatechartECMAScript",
            dependencies: ["StatechartSCXML", "CDuktapeShim"]
        ),

        // MARK: - Logging

        // Sends what machines report (errors, unhandled events, transitions, SCXML <log>) to a
        // swift-log Logger the app provides; a separate target so only its users link swift-log.
        .target(
            name: "StatechartLogging",
            dependencies: ["Statechart", "StatechartSCXML", .product(name: "Logging", package: "swift-log")]
        ),

        // MARK: - C code generation

        // Charts (SCXML of the null datamodel, or Swift charts without closures) as C source
        // for CStateCore: `statechart generate c`, and the benchmarks' C tables.
        .target(
            name: "StatechartCodegen",
            dependencies: ["Statechart", "StatechartSCXML"]
        ),

        // MARK: - Command-line tool

        .executableTarget(
            name: "StatechartCLI",
            dependencies: [
                "StatechartSCXML",
                "StatechartECMAScript",
                "StatechartCodegen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: - Fuzzing

        // The SCXML loader's libFuzzer harness. scripts/fuzz.sh builds it with -sanitize=fuzzer
        // (and -DFUZZING_LIBFUZZER) in .build-fuzz; built normally it replays the input files
        // given as arguments. See docs/FUZZING.md.
        .executableTarget(
            name: "StatechartFuzzSCXML",
            dependencies: ["StatechartSCXML", "StatechartECMAScript"],
            path: "Tests/Fuzz/SCXMLLoader"
        ),

        // MARK: - Durable sessions

        // The durable-session engine and the storage protocol: no database client.
        .target(name: "StatechartStore", dependencies: ["Statechart", "StatechartSCXML"]),
        // The embedded store: SQLite through GRDB (libsqlite3).
        .target(
            name: "StatechartStoreSQLite",
            dependencies: ["StatechartStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The server store: PostgreSQL through postgres-nio, for many worker processes.
        .target(
            name: "StatechartStorePostgres",
            dependencies: [
                "StatechartStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The durable order workflow of the StatechartStore article, runnable.
        .executableTarget(
            name: "OrderWorkflowExample",
            dependencies: ["StatechartStoreSQLite", "StatechartStorePostgres"],
            path: "Examples/OrderWorkflow"
        ),
        // The worker process the crash tests start, kill and restart.
        .executableTarget(
            name: "StatechartStoreWorker",
            dependencies: ["StatechartStoreSQLite", "StatechartStorePostgres"],
            path: "Tests/StoreWorker"
        ),
        // Needs the worker built beside it (swift build --build-tests builds both) and, for the
        // PostgreSQL tests, STATECHART_POSTGRES_URL (scripts/suites/90-store.sh sets it).
        .testTarget(name: "StatechartStoreTests",
                    dependencies: ["StatechartStoreSQLite", "StatechartStorePostgres", "StatechartECMAScript",
                                   .product(name: "GRDB", package: "GRDB.swift")]),

        // MARK: - Tests

        .testTarget(name: "StatechartTests", dependencies: ["Statechart"]),
        .testTarget(name: "StatechartExamplesTests", dependencies: ["StatechartExamples"]),
        .testTarget(name: "StatechartSCXMLTests", dependencies: ["StatechartSCXML"]),
        .testTarget(name: "StatechartECMAScriptTests", dependencies: ["StatechartECMAScript"]),
        .testTarget(name: "StatechartCodegenTests", dependencies: ["StatechartCodegen"]),
        .testTarget(name: "StatechartCLITests", dependencies: ["StatechartCLI"]),
        .testTarget(name: "StatechartLoggingTests", dependencies: ["StatechartLogging"]),
    ],
    swiftLanguageModes: [.v6]
)
