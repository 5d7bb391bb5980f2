// swift-tools-version:6.1
//
// Benchmarks of the Statechart library: a separate package, so the library itself never
// depends on the benchmark harness (as in swift-collections).
//
//   scripts/bench.sh                      the whole comparison, one table (see docs/PERFORMANCE.md)
//   swift package benchmark               the ordo-one suite (wall clock and mallocs per event)
//
// Charts come from ../scxml/bench, so every runner (the C program in C/, the comparison tool,
// the ordo-one suite) uses the same documents.
import PackageDescription

let package = Package(
    name: "StatechartBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Statechart", path: ".."),
        // The malloc interposer backs the suite's allocation counts on Swift 6.3.
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1",
                 traits: ["MallocInterposer"]),
    ],
    targets: [
        // MARK: - C

        // Host callbacks, the core's dispatch loop and the next[state][event] baseline; also
        // compiled by C/Makefile into the plain C benchmark, so both measure the same code.
        .target(
            name: "CBenchHost",
            dependencies: [.product(name: "CStateCore", package: "Statechart")]
        ),
        // Counts malloc calls and live bytes by interposing glibc's allocator (Linux only);
        // linked into the comparison tool, never into the ordo-one suite (which has its own).
        .target(name: "CAllocationCounter"),
        // libxml2 alone (xmlReadMemory), the baseline of the loading target: the same bytes the
        // SCXML importer parses, parsed in the same run with nothing built from them.
        .systemLibrary(
            name: "CLibXML2Baseline",
            path: "Sources/CLibXML2Baseline",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),

        // MARK: - Swift

        // The benchmark charts as typed DSL charts, SCXML machines and C tables, shared by
        // the comparison tool and the ordo-one suite.
        .target(
            name: "BenchCharts",
            dependencies: [
                "CBenchHost",
                .product(name: "Statechart", package: "Statechart"),
                .product(name: "StatechartSCXML", package: "Statechart"),
            ],
        ),
        // bench-compare: the whole comparison as one table; also writes the C tables for C/ with
        // the library's public generator (StatechartCodegen).
        .executableTarget(
            name: "bench-compare",
            dependencies: [
                "BenchCharts", "CAllocationCounter", "CLibXML2Baseline",
                .product(name: "StatechartCodegen", package: "Statechart"),
            ]
        ),

        // MARK: - ECMAScript datamodel against Qt SCXML

        // bench-ecmascript: one chart on the SCXML machine with the ECMAScript datamodel, in a
        // process of its own (ns per event, sessions per second, resident bytes per session);
        // scripts/bench.sh puts its figures beside Benchmarks/Qt's.
        .executableTarget(
            name: "bench-ecmascript",
            dependencies: [
                .product(name: "StatechartSCXML", package: "Statechart"),
                .product(name: "StatechartECMAScript", package: "Statechart"),
            ]
        ),

        // MARK: - ordo-one/benchmark suite

        .executableTarget(
            name: "ChartDispatch",
            dependencies: ["BenchCharts", .product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/ChartDispatch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ChartLoad",
            dependencies: ["BenchCharts", .product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/ChartLoad",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
