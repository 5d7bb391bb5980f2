import Foundation
import StatechartSCXML
import XCTest

/// Every W3C test in `../shared/w3c-scxml/null/` must reach `pass`.
final class NullConformanceTests: XCTestCase {
    func testEveryNullDatamodelTestPasses() throws {
        let folder = Conformance.suite.appendingPathComponent("null")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "scxml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertEqual(files.count, 30, "the null suite should hold 30 tests (is ../shared beside the repository?)")
        let outcomes = Conformance.runAll(files)
        for outcome in outcomes where !outcome.passed {
            XCTFail("\(outcome.test) failed: \(outcome.detail)")
        }
        print("null datamodel conformance: \(outcomes.filter(\.passed).count) passed, \(outcomes.filter { !$0.passed }.count) failed")
    }
}
