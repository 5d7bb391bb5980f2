import Foundation
import XCTest

/// `--datamodel null|ecmascript` (the datamodel of documents that declare none) and `--strict`
/// (rule breaks other tools' charts load with become errors) on `validate`, `run` and `trace`;
/// load warnings on standard error (`validate`, `run` and `trace` alike).
final class DocumentOptionsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("document-options-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// ECMAScript without declaring it (as SCION charts are written).
    private func scionChart() throws -> String {
        try file("scion.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <datamodel><data id="n" expr="1"/></datamodel>
              <state id="a"><transition cond="n === 1" target="b"/></state>
              <final id="b"/>
            </scxml>
            """)
    }

    /// A Qt-style `<log>` of plain text under the null datamodel.
    private func qtChart() throws -> String {
        try file("qt.scxml", """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <final id="done"><onentry><log label="door" expr="Door opened"/></onentry></final>
            </scxml>
            """)
    }

    private let remedy = "declare datamodel=\"ecmascript\" on <scxml>, or load it with --datamodel ecmascript "
        + "(SCXMLMachine.Options.defaultDatamodel): the document declares no datamodel, so it got the null one"
    private let logWarning = "<log expr=\"Door opened\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)"

    func testValidateWithoutTheOptionSaysItExists() throws {
        let path = try scionChart()
        let result = try CLI.run(["validate", path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.errorLines, [
            "\(path):2:14: error: <data> is not supported by the null datamodel; \(remedy)",
            "\(path):3:17: error: cond=\"n === 1\" is not a null-datamodel expression; use In('state') (combined with !, &&, ||, parentheses, true, false), a host function call or a literal, or \(remedy)",
        ])
    }

    func testDatamodelECMAScriptOnValidateRunAndTrace() throws {
        let path = try scionChart()
        let validate = try CLI.run(["validate", "--datamodel", "ecmascript", path])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, "")
        let run = try CLI.run(["run", path, "--datamodel", "ecmascript", "--timeout", "5"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.lines, ["{\"finished\": true, \"configuration\": [\"b\"]}"])
        let trace = try CLI.run(["trace", path, "--datamodel", "ecmascript"])
        XCTAssertEqual(trace.status, 0, trace.stderr)
        XCTAssertEqual(trace.lines, ["{\"event\": null, \"configuration\": [\"b\"]}"])
    }

    func testDatamodelNullIsTheDefault() throws {
        let result = try CLI.run(["run", try scionChart(), "--datamodel", "null"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 2, result.stderr)
    }

    func testAnUnknownDatamodelIsRefused() throws {
        let result = try CLI.run(["validate", "--datamodel", "lua", try scionChart()])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("'lua' is invalid for '--datamodel"), result.stderr)
    }

    func testWarningsAreReportedAndStrictMakesThemErrors() throws {
        let path = try qtChart()
        let validate = try CLI.run(["validate", path])
        XCTAssertEqual(validate.status, 0)
        XCTAssertEqual(validate.errorLines, ["\(path):2:29: warning: \(logWarning)"])
        XCTAssertEqual(validate.stdout, "")

        let run = try CLI.run(["run", path, "--timeout", "5"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines, ["{\"finished\": true, \"configuration\": [\"done\"]}"])
        XCTAssertEqual(run.stderr, "\(path):2:29: warning: \(logWarning)\nlog: door: Door opened\n")

        let strict = try CLI.run(["validate", "--strict", path])
        XCTAssertEqual(strict.status, 2)
        XCTAssertEqual(strict.errorLines, ["\(path):2:29: error: \(logWarning)"])
        let strictRun = try CLI.run(["run", "--strict", path])
        XCTAssertEqual(strictRun.status, 2)
        XCTAssertEqual(strictRun.stderr, "\(path):2:29: error: \(logWarning)\n")
    }

    func testGenerateCPrintsWarningsAndStrictRefuses() throws {
        let path = try qtChart()
        let output = folder.appendingPathComponent("c").path
        let generate = try CLI.run(["generate", "c", path, "-o", output, "--name", "qt"])
        XCTAssertEqual(generate.status, 0, generate.stderr)
        XCTAssertEqual(generate.stderr, "\(path):2:29: warning: \(logWarning)\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/qt.c"))
        let strict = try CLI.run(["generate", "c", path, "-o", output + "-strict", "--strict"])
        XCTAssertEqual(strict.status, 2)
        XCTAssertEqual(strict.stderr, "\(path):2:29: error: \(logWarning)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output + "-strict"))
    }
}

/// `statechart validate` prints every error and warning of a document in one run.
final class ValidateOnePassTests: XCTestCase {
    func testValidatePrintsEveryClassOfErrorAtOnce() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("one-pass-\(UUID()).scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="2go" colour="red">
                <transition event="go." target="nowhere"/>
                <onentry><assign location="x" expr="1"/><log expr="Going"/></onentry>
              </state>
            </scxml>
            """.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try CLI.run(["validate", url.path])
        XCTAssertEqual(result.status, 2)
        let file = url.path
        XCTAssertEqual(result.errorLines, [
            "\(file):2:3: error: <state> has no attribute 'colour'; its attributes are 'id', 'initial'",
            "\(file):2:3: error: <state> has the id '2go', which is not an XML ID; a state id starts with a letter or '_', followed by letters, digits, '.', '-' or '_' (such as 's1')",
            "\(file):3:5: error: <transition> has the event descriptor 'go.'; a descriptor is an event name (tokens of letters, digits, '_', '-' or ':' joined by single dots, such as 'door.open'), optionally ending in '.*', or '*'",
            "\(file):3:5: error: transition target 'nowhere' does not name a state; known ids include '2go'",
            "\(file):4:14: error: <assign> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>",
            "\(file):4:45: warning: <log expr=\"Going\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)",
        ])
    }
}
