import XCTest
@testable import StatechartSCXML

/// Lines and columns point at the `<` of each element, whatever surrounds it.
final class SourceLocationTests: XCTestCase {
    func testMultiLineStartTagsReportTheLineOfTheirStart() throws {
        // libxml2 alone would report the line where the start tag ends.
        let text = """
            <scxml
                xmlns="http://www.w3.org/2005/07/scxml"
                version="1.0">
              <state
                  id="a"
                  initial="b"><state id="b"/></state>
            </scxml>
            """
        let document = try parse(text)
        XCTAssertEqual(document.sourceLocation, at(1, 1))
        XCTAssertEqual(document.states[0].sourceLocation, at(4, 3))
        XCTAssertEqual(document.states[0].children[0].sourceLocation, at(6, 19))
    }

    func testMarkupLookalikesInCommentsCDATAAndInstructionsAreSkipped() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE scxml [ <!ELEMENT scxml ANY> <!-- <state id="no"> --> <!ATTLIST scxml version CDATA "1.0"> ]>
            \(scxmlRoot)><!-- <state id="fake"/> --><?pi <state?><state id="a">
              <onentry><script><![CDATA[ if (a <b) {} // <state id="x"> ]]></script></onentry></state><state
            id="b"/>
            </scxml>
            """
        let document = try parse(text)
        XCTAssertEqual(document.sourceLocation, at(3, 1))
        XCTAssertEqual(document.states.map(\.sourceLocation), [at(3, 102), at(4, 91)])
        XCTAssertEqual(document.states[0].onEntry.first?.actions.first?.sourceLocation, at(4, 12))
    }

    func testColumnsCountCharactersNotBytesAndTabsAsOne() throws {
        let text = "\(scxmlRoot)><!-- ☃ 日本 --><state id=\"ü\"/>\n\t<state id=\"😀\"/>\r\n\t\t<final id=\"f\"/>\r\n</scxml>"
        let document = try parse(text)
        let rootLength = scxmlRoot.count + 1
        XCTAssertEqual(document.states.map(\.sourceLocation), [at(1, rootLength + 14), at(2, 2), at(3, 3)])
    }

    func testTheReaderAndTheScannerFallbackGiveTheSamePositions() throws {
        // The same body read while libxml2 parses (plain UTF-8), and through SourceScanner (a
        // DOCTYPE sends it there): one line lower, the same columns.
        let body = "\(scxmlRoot)>\n  <state id=\"é\"><!-- 日本 --><state id=\"a\"/></state>\n\t<final id=\"f\"/></scxml>"
        let plain = try parse(body)
        let scanned = try parse("<!DOCTYPE scxml>\n" + body)
        let states = [plain.states[0], plain.states[0].children[0], plain.states[1]].map(\.sourceLocation)
        XCTAssertEqual(states, [at(2, 3), at(2, 28), at(3, 2)])
        XCTAssertEqual(
            [scanned.states[0], scanned.states[0].children[0], scanned.states[1]].map(\.sourceLocation),
            [at(3, 3), at(3, 28), at(4, 2)])
    }

    func testTheLineCounterCountsCharactersAndLines() {
        let bytes = Array("ab☃\nx😀y\n\nz".utf8)   // ☃ is 3 bytes, 😀 4
        bytes.withUnsafeBufferPointer { buffer in
            var counter = LineCounter(isSingleByte: false)
            let base = buffer.baseAddress!
            XCTAssertTrue(counter.position(of: 0, in: base) == (1, 1))
            XCTAssertTrue(counter.position(of: 2, in: base) == (1, 3))     // ☃
            XCTAssertTrue(counter.position(of: 5, in: base) == (1, 4))     // the newline
            XCTAssertTrue(counter.position(of: 11, in: base) == (2, 3))    // y
            XCTAssertTrue(counter.position(of: 14, in: base) == (4, 1))    // z
            // Single-byte text: every byte is a character.
            var latin1 = LineCounter(isSingleByte: true)
            XCTAssertTrue(latin1.position(of: 5, in: base) == (1, 6))
            XCTAssertTrue(latin1.position(of: 11, in: base) == (2, 6))
        }
    }

    func testPrefixedSCXMLElements() throws {
        let text = """
            <sc:scxml xmlns:sc="http://www.w3.org/2005/07/scxml" version="1.0">
              <sc:state id="a"><sc:transition event="e" target="a"/></sc:state>
            </sc:scxml>
            """
        let document = try parse(text)
        XCTAssertEqual(document.states[0].sourceLocation, at(2, 3))
        XCTAssertEqual(document.states[0].transitions[0].sourceLocation, at(2, 20))
    }

    func testUTF16DocumentsGetCharacterColumns() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n\(scxmlRoot)>\n  <state id=\"é\"/><final id=\"f\"/>\n</scxml>\n"
        var data = Data([0xFF, 0xFE])
        data.append(text.data(using: .utf16LittleEndian)!)
        let document = try SCXMLParser.parse(data: data, fileName: "test.scxml")
        XCTAssertEqual(document.states.map(\.id), ["é", "f"])
        XCTAssertEqual(document.states.map(\.sourceLocation), [at(3, 3), at(3, 18)])
    }

    func testLatin1DocumentsGetCharacterColumns() throws {
        let text = """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:\u{E9}="urn:e" version="1.0">
              <state id="\u{E9}\u{E9}"/><final id="f"/><\u{E9}:x/><state id="g"/>
            </scxml>
            """
        let data = try XCTUnwrap(text.data(using: .isoLatin1))
        let document = try SCXMLParser.parse(data: data, fileName: "test.scxml")
        XCTAssertEqual(document.states.map(\.id), ["\u{E9}\u{E9}", "f", "g"])
        XCTAssertEqual(document.states.map(\.sourceLocation), [at(3, 3), at(3, 19), at(3, 40)])
    }

    func testFileNameOfParseContentsOfIsThePath() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("location-\(UUID()).scxml")
        try "\(scxmlRoot)>\n  <state id=\"a\">\n    <transition target=\"zz\"/>\n  </state>\n</scxml>\n"
            .write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try SCXMLParser.parse(contentsOf: url)) { error in
            XCTAssertEqual(
                (error as? SCXMLParseError)?.description,
                "\(url.path):3:5: error: transition target 'zz' does not name a state; known ids include 'a'")
        }
    }

    func testDiagnosticDescriptionFormat() {
        let diagnostic = SCXMLDiagnostic(
            location: SCXMLSourceLocation(file: "m.scxml", line: 7, column: 12), element: "send", message: "bad")
        XCTAssertEqual(diagnostic.description, "m.scxml:7:12: error: bad")
        XCTAssertEqual(diagnostic.location.description, "m.scxml:7:12")
        let error = SCXMLParseError(diagnostics: [diagnostic, diagnostic])
        XCTAssertEqual(error.description, "m.scxml:7:12: error: bad\nm.scxml:7:12: error: bad")
        XCTAssertEqual(error.errorDescription, error.description)
    }
}
