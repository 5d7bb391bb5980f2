import XCTest
@testable import StatechartSCXML

/// Every W3C IRP test document (ECMAScript and null datamodel versions) parses without a diagnostic.
final class W3CConformanceCorpusTests: XCTestCase {
    private let corpus = Conformance.suite

    // No document is expected to be rejected *by the parser*, so every one must parse: per the
    // manifest, test 301 must be rejected because its `<script src>` cannot be loaded, which is a
    // load-time error of the datamodel, not a static one (testTest301IsAcceptedByTheParser); the
    // other manual tests (178, 230, 250, 307, 313, 314, 415) are valid documents.

    private func documents(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: corpus.appendingPathComponent(folder), includingPropertiesForKeys: nil
        )
        .filter { $0.pathExtension == "scxml" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private func assertAllParse(_ folder: String, expectedCount: Int) throws {
        let files = try documents(in: folder)
        XCTAssertEqual(files.count, expectedCount, "number of .scxml files in \(folder)/")
        for file in files {
            do {
                let document = try SCXMLParser.parse(contentsOf: file)
                XCTAssertEqual(document.version, "1.0")
                XCTAssertEqual(document.sourceLocation.file, file.path)
            } catch {
                XCTFail("\(file.lastPathComponent):\n\(error)")
            }
        }
    }

    func testManifestListsNoDocumentThatIsStaticallyInvalid() throws {
        let manifest = try String(contentsOf: corpus.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        let row301 = try XCTUnwrap(manifest.split(separator: "\n").first { $0.hasPrefix("301\t") })
        XCTAssertTrue(row301.contains("script-src"), "301 is rejected for its script src, at load time")
    }

    func testAllECMAScriptDocumentsParse() throws {
        // 200 state machines plus 5 sub-machines loaded by <invoke src>.
        try assertAllParse("ecma", expectedCount: 205)
    }

    func testAllNullDatamodelDocumentsParse() throws {
        try assertAllParse("null", expectedCount: 30)
    }

    func testInlineInvokedDocumentsAreParsedAsNestedDocuments() throws {
        let document = try SCXMLParser.parse(contentsOf: corpus.appendingPathComponent("ecma/test207.scxml"))
        let invokes = document.allStates.flatMap(\.invokes)
        guard case .inline(.document(let nested, let markup))? = invokes.first?.content?.value else {
            return XCTFail("expected an inline <scxml> in test207's <invoke>")
        }
        XCTAssertEqual(nested.initial, ["sub0"])
        XCTAssertTrue(markup.contains(#"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="#), markup)
        XCTAssertGreaterThan(nested.sourceLocation.line, document.sourceLocation.line)
    }

    func testTest301IsAcceptedByTheParser() throws {
        let document = try SCXMLParser.parse(contentsOf: corpus.appendingPathComponent("ecma/test301.scxml"))
        XCTAssertEqual(document.script?.source, .src("D:\\foo"))
    }
}
