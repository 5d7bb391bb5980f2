import XCTest

/// `statechart run` and `statechart validate`: output lines and exit statuses.
final class RunAndValidateCommandTests: XCTestCase {
    func testRunFinishesThroughADelayedEvent() throws {
        let result = try CLI.run(["run", "scxml/fixtures/delayed-finish.scxml", "--timeout", "5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, ["{\"finished\": true, \"configuration\": [\"done\"]}"])
    }

    func testRunTimesOutWithTheActiveAtomicStates() throws {
        let result = try CLI.run(["run", "scxml/fixtures/never-finishes.scxml", "--timeout", "0.2"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, ["{\"finished\": false, \"configuration\": [\"a\",\"b\"]}"])
    }

    func testRunRejectsAnInvalidDocument() throws {
        let result = try CLI.run(["run", "scxml/fixtures/invalid.scxml"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
    }

    func testValidateAcceptsTheExamples() throws {
        let result = try CLI.run(["validate", "scxml/examples/traffic-light.scxml", "scxml/examples/microwave.scxml",
                                  "scxml/examples/media-player.scxml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
    }

    func testValidatePrintsEveryErrorWithFileLineAndColumn() throws {
        let result = try CLI.run(["validate", "scxml/examples/microwave.scxml", "scxml/fixtures/invalid.scxml"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "", "diagnostics go to standard error")
        XCTAssertEqual(result.errorLines.count, 2)
        XCTAssertTrue(result.errorLines[0].hasPrefix("scxml/fixtures/invalid.scxml:4:5: error: transition target 'nowhere'"), result.stderr)
        XCTAssertTrue(result.errorLines[1].hasPrefix("scxml/fixtures/invalid.scxml:6:3: error: duplicate state id 'a'"), result.stderr)
    }

    func testValidateReportsAMissingFile() throws {
        let result = try CLI.run(["validate", "scxml/none.scxml"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("scxml/none.scxml:1:1: error: cannot read the file"), result.stderr)
    }

    func testValidateReportsUnsupportedNullDatamodelContentAtLoadTime() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("assign-\(UUID()).scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><onentry><assign location="x" expr="1"/></onentry></state>
        </scxml>
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["validate", file.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.errorLines, ["\(file.path):2:26: error: <assign> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>"])
    }
}
