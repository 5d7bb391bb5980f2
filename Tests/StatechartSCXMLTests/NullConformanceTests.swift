import Foundation
import StatechartSCXML
import XCTest

/// Every W3C test in `Tests/W3C/null/` must reach `pass` (test415, manual, must halt
/// at once in `final`).
final class NullConformanceTests: XCTestCase {
    func testEveryNullDatamodelTestPasses() throws {
        let runner = ConformanceRunner(options: SCXMLMachine.Options(), timeout: .seconds(5), manifest: Conformance.manifest)
        XCTAssertFalse(runner.manifest.manualTests.isEmpty, "Tests/W3C/manifest.tsv not found")
        let files = try runner.testFiles(in: Conformance.suite.appendingPathComponent("null"))
        XCTAssertEqual(files.count, 30)
        let results = runner.run(files)
        XCTAssertEqual(results.count, 30)
        for result in results where !result.passed {
            XCTFail("\(result.test) failed (expected \(result.expected)): \(result.detail)")
        }
        XCTAssertEqual(results.first { $0.test == "test415" }?.expected, "final")
        print("null datamodel conformance: \(results.filter(\.passed).count) passed, \(results.filter { !$0.passed }.count) failed")
    }
}
