#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest
@testable import StatechartSCXML

/// libxml2's errors come back as diagnostics and are never printed.
final class ErrorReportingTests: XCTestCase {
    /// Runs `body` with the process's standard error redirected to a file, and returns what was written.
    private func capturingStandardError(_ body: () -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        fflush(nil)
        let saved = dup(2)
        let file = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        dup2(file, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(file)
        close(saved)
        return try String(contentsOf: url, encoding: .utf8)
    }

    func testLibxml2PrintsNothing() throws {
        var found: [SCXMLDiagnostic] = []
        let printed = try capturingStandardError {
            found += diagnostics("\(scxmlRoot)><state id=\"a\"></scxml>")
            found += diagnostics("\(scxmlRoot)><state id=\"a\" xmlns:p=\"\" p:x=\"1\"/></scxml>")
            found += diagnostics("<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><scxml/>")
            found += diagnostics("\(scxmlRoot)>&#0;</scxml>")
        }
        XCTAssertEqual(printed, "")
        XCTAssertEqual(found.count, 5, "\(found)")  // the empty prefix gives two errors
        XCTAssertTrue(found.allSatisfy { $0.message.hasPrefix("malformed XML: ") }, "\(found)")
    }

    func testEncodingErrorIsReported() {
        let found = diagnostics("<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><scxml/>")
        XCTAssertEqual(found.map(\.description), ["test.scxml:1:48: error: malformed XML: Unsupported encoding no-such-encoding"])
    }
}
