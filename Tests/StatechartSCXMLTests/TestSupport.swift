import XCTest
@testable import StatechartSCXML

/// The attributes every test document's root needs.
let scxmlRoot = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#

/// Parses `text` as `test.scxml`, expecting it to fail, and returns the diagnostics.
func diagnostics(
    _ text: String, limits: SCXMLParser.Limits = .default, strict: Bool = false, file: StaticString = #filePath,
    line: UInt = #line
) -> [SCXMLDiagnostic] {
    do throws(SCXMLParseError) {
        _ = try SCXMLParser.parse(string: text, fileName: "test.scxml", limits: limits, strict: strict)
        XCTFail("expected the document to be rejected", file: file, line: line)
        return []
    } catch {
        return error.diagnostics
    }
}

/// Asserts that `text` is rejected with exactly these diagnostics, each written as
/// `test.scxml:line:column: error: message`.
func assertErrors(
    _ text: String, _ expected: [String], limits: SCXMLParser.Limits = .default,
    file: StaticString = #filePath, line: UInt = #line
) {
    let found = diagnostics(text, limits: limits, file: file, line: line).map(\.description)
    XCTAssertEqual(found, expected, file: file, line: line)
}

/// Asserts that `text` is rejected with exactly one diagnostic, at `line:column` on `element`
/// (with `strict`, as a strict parse rejects it).
func assertError(
    _ text: String, line errorLine: Int, column: Int, element: String, _ message: String,
    limits: SCXMLParser.Limits = .default, strict: Bool = false, file: StaticString = #filePath, line: UInt = #line
) {
    let found = diagnostics(text, limits: limits, strict: strict, file: file, line: line)
    XCTAssertEqual(found.count, 1, "diagnostics: \(found.map(\.description))", file: file, line: line)
    guard let diagnostic = found.first else { return }
    XCTAssertEqual(diagnostic.description, "test.scxml:\(errorLine):\(column): error: \(message)", file: file, line: line)
    XCTAssertEqual(diagnostic.location, SCXMLSourceLocation(file: "test.scxml", line: errorLine, column: column), file: file, line: line)
    XCTAssertEqual(diagnostic.element, element, file: file, line: line)
    XCTAssertEqual(diagnostic.message, message, file: file, line: line)
}

/// Parses `text` as `test.scxml`, failing the test on any diagnostic.
func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> SCXMLDocument {
    do throws(SCXMLParseError) {
        return try SCXMLParser.parse(string: text, fileName: "test.scxml")
    } catch {
        XCTFail("unexpected diagnostics:\n\(error)", file: file, line: line)
        throw error
    }
}

/// A location in `test.scxml`.
func at(_ line: Int, _ column: Int) -> SCXMLSourceLocation {
    SCXMLSourceLocation(file: "test.scxml", line: line, column: column)
}
