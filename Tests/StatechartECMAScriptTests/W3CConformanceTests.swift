import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// The W3C SCXML IRP suite converted to the ECMAScript datamodel (`Tests/W3C/ecma`),
/// every automatic test, mandatory and optional (BasicHTTP included); the manual tests of
/// `manifest.tsv` are skipped, except those whose outcome is the state `final`. Test 436 (null
/// datamodel only) runs in StatechartSCXMLTests' NullConformanceTests.
final class W3CConformanceTests: XCTestCase {
    /// Tests known to fail, by file name, with the reason (also in docs/CONFORMANCE.md). The
    /// test fails when any other test fails, and when one of these starts passing, so the list
    /// stays honest.
    static let knownFailures: [String: String] = [:]

    func testEveryAutomaticTestPasses() throws {
        let suite = W3CSuite.folder
        let manifest = try Manifest(contentsOf: suite.appendingPathComponent("manifest.tsv"))
        XCTAssertFalse(manifest.manualTests.isEmpty, "Tests/W3C/manifest.tsv not found")
        var options = SCXMLMachine.Options.withECMAScript
        options.acceptsBasicHTTP = true
        let runner = ConformanceRunner(options: options, timeout: .seconds(20), manifest: manifest)
        let files = try runner.testFiles(in: suite.appendingPathComponent("ecma"))
            .filter { !manifest.isSkippedManualTest($0.deletingPathExtension().lastPathComponent) }
        XCTAssertEqual(files.count, 197, "190 automatic test ids (403 has three files) and 5 manual tests ending in 'final'")

        let results = runner.run(files)
        XCTAssertEqual(results.count, files.count)
        for result in results {
            let known = Self.knownFailures[result.test]
            if !result.passed && known == nil {
                XCTFail("\(result.test) failed (expected [\(result.expected)]): \(result.detail)")
            } else if result.passed, let known {
                XCTFail("\(result.test) passes now; remove it from knownFailures (\(known)) and docs/CONFORMANCE.md")
            }
        }

        let levels = try W3CSuite.conformanceLevels()
        var summary: [String: (passed: Int, total: Int)] = [:]
        for result in results where !manifest.manualTests.contains(W3CSuite.id(result.test)) {
            let level = levels[W3CSuite.id(result.test)] ?? "?"
            summary[level, default: (0, 0)].total += 1
            if result.passed { summary[level, default: (0, 0)].passed += 1 }
        }
        print("ecmascript conformance:", summary.keys.sorted().map { "\($0) \(summary[$0]!.passed)/\(summary[$0]!.total)" }
            .joined(separator: ", "), "(files; 403 counts three times)")
    }
}

/// The W3C suite at `Tests/W3C` in the repository (see its README.md), as in every test target.
enum W3CSuite {
    /// The repository root: three folders up from this file (`Tests/StatechartECMAScriptTests/`).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = repository.appendingPathComponent("Tests/W3C")

    /// `"403"` for `test403b`.
    static func id(_ test: String) -> String { String(test.dropFirst(4).prefix { $0.isNumber }) }

    /// `mandatory` or `optional`, by test id (manifest.tsv's second column).
    static func conformanceLevels() throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        var levels: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count > 1 { levels[String(columns[0])] = String(columns[1]) }
        }
        return levels
    }
}
