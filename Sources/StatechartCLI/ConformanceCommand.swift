import ArgumentParser
import Foundation
import StatechartSCXML

/// `statechart conformance DIR`: runs a directory of W3C IRP tests concurrently, one line per
/// test, then `N passed, M failed`. Exit 0 when none failed, 1 otherwise.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run a directory of W3C SCXML IRP tests (pass = reaching the final state 'pass').",
        discussion: """
            Prints one line per test ("PASS test144" or "FAIL test145: <reason>"), in test order, then a \
            last line "N passed, M failed". Tests run concurrently; file: references resolve against each \
            test's folder. Manual tests listed in the manifest are skipped, except those whose outcome is \
            the state 'final' (178, 230, 250, 307, 415). Exit status: 0 when no test failed, 1 otherwise.
            """
    )

    @Argument(help: "Folder of testNNN.scxml files (e.g. Tests/W3C/ecma).")
    var directory: String

    @Option(help: "The suite's manifest.tsv (default: the folder's parent's manifest.tsv).")
    var manifest: String?

    @Option(help: "Seconds each test may run.")
    var timeout: Double = 10

    @Option(help: "How many tests run at once.")
    var jobs: Int = 64

    @Option(help: "Only tests whose name contains this text (e.g. 'test403').")
    var filter: String?

    func run() throws {
        let folder = URL(fileURLWithPath: directory)
        let manifestURL = manifest.map { URL(fileURLWithPath: $0) }
            ?? folder.deletingLastPathComponent().appendingPathComponent("manifest.tsv")
        let parsedManifest = (try? Manifest(contentsOf: manifestURL)) ?? Manifest()
        if parsedManifest.manualTests.isEmpty {
            Loading.printError("conformance: no manual tests read from \(manifestURL.path); running every test")
        }
        var options = Loading.options
        options.acceptsBasicHTTP = true     // the optional C.2 tests; the server listens on 127.0.0.1 only
        let runner = ConformanceRunner(options: options, timeout: .milliseconds(Int64(timeout * 1000)),
                                       jobs: jobs, manifest: parsedManifest)
        var files = try runner.testFiles(in: folder).filter { !parsedManifest.isSkippedManualTest($0.deletingPathExtension().lastPathComponent) }
        if let filter { files = files.filter { $0.lastPathComponent.contains(filter) } }
        let results = runner.run(files)
        for result in results {
            emit(result.passed ? "PASS \(result.test)" : "FAIL \(result.test): expected [\(result.expected)], \(result.detail)")
        }
        let failed = results.filter { !$0.passed }.count
        emit("\(results.count - failed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(1) }
    }
}
