import Dispatch
import XCTest
@testable import StatechartSCXML

/// No network, no external entities, entity bombs refused, resource limits, thread safety.
final class SafetyAndLimitTests: XCTestCase {
    func testExternalEntityIsNeverLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID()).txt")
        try "TOP-SECRET".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE scxml [
              <!ENTITY xxe SYSTEM "\(secret.absoluteString)">
            ]>
            \(scxmlRoot)>
              <state id="a"><onentry><log expr="&xxe;"/></onentry></state>
            </scxml>
            """
        let found = diagnostics(text)
        XCTAssertEqual(
            found.map(\.description),
            [
                "test.scxml:3:3: error: the DOCTYPE declares the entity 'xxe'; entity declarations are not allowed in "
                    + "SCXML documents (they enable entity-expansion and external-entity attacks): write the text out "
                    + "instead"
            ])
        XCTAssertFalse(found.description.contains("TOP-SECRET"))
    }

    func testExternalDTDIsNotLoaded() throws {
        // The DTD would define the entity; since it is never read, the reference stays unresolved.
        let dtd = FileManager.default.temporaryDirectory.appendingPathComponent("ext-\(UUID()).dtd")
        try #"<!ENTITY leak "TOP-SECRET">"#.write(to: dtd, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: dtd) }
        let text = """
            <!DOCTYPE scxml SYSTEM "\(dtd.absoluteString)">
            \(scxmlRoot)>
              <state id="a"><onentry><log expr="x">&leak;</log></onentry></state>
            </scxml>
            """
        let found = diagnostics(text)
        XCTAssertEqual(found.map(\.description), ["test.scxml:3:46: error: malformed XML: Entity 'leak' not defined"])
    }

    func testBillionLaughsIsRejectedQuickly() {
        var declarations = #"<!ENTITY lol "lol">"# + "\n"
        declarations += #"<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">"# + "\n"
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            declarations += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE scxml [
            \(declarations)]>
            \(scxmlRoot)>
              <state id="a"><onentry><log expr="&lol9;"/></onentry></state>
            </scxml>
            """
        let start = ContinuousClock.now
        let found = diagnostics(text)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.location, at(3, 1))
        XCTAssertTrue(found.first?.message.hasPrefix("the DOCTYPE declares the entity 'lol';") ?? false)
    }

    func testParameterEntityDeclarationIsRejected() {
        let text = """
            <!DOCTYPE scxml [ <!ENTITY % p "<!ENTITY x 'y'>"> %p; ]>
            \(scxmlRoot)/>
            """
        XCTAssertEqual(diagnostics(text).first?.message.hasPrefix("the DOCTYPE declares the entity 'p';"), true)
        XCTAssertEqual(diagnostics(text).first?.location, at(1, 19))
    }

    func testNonFileURLsAreRefused() {
        let url = URL(string: "http://example.com/machine.scxml")!
        XCTAssertThrowsError(try SCXMLParser.parse(contentsOf: url)) { error in
            XCTAssertEqual(
                (error as? SCXMLParseError)?.description,
                "http://example.com/machine.scxml:1:1: error: only file URLs can be parsed (SCXMLParser never uses "
                    + "the network); 'http://example.com/machine.scxml' is not one")
        }
    }

    func testMissingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/machine.scxml")
        XCTAssertThrowsError(try SCXMLParser.parse(contentsOf: url)) { error in
            let diagnostic = (error as? SCXMLParseError)?.diagnostics.first
            XCTAssertEqual(diagnostic?.location, SCXMLSourceLocation(file: "/nonexistent/machine.scxml", line: 1, column: 1))
            XCTAssertEqual(diagnostic?.message.hasPrefix("cannot read the file: "), true)
        }
    }

    func testDocumentSizeLimit() {
        let text = "\(scxmlRoot)><final id=\"f\"/></scxml>"
        let limit = text.utf8.count - 1
        assertError(
            text, line: 1, column: 1, element: "",
            "the document is \(text.utf8.count) bytes, more than the limit of \(limit) bytes "
                + "(SCXMLParser.Limits.maxDocumentSize)",
            limits: SCXMLParser.Limits(maxDocumentSize: limit))
        XCTAssertEqual(SCXMLParser.Limits.default.maxDocumentSize, 16 * 1024 * 1024)
    }

    func testDocumentSizeLimitIsCheckedBeforeReadingAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID()).scxml")
        try Data(repeating: 0x20, count: 2048).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try SCXMLParser.parse(contentsOf: url, limits: SCXMLParser.Limits(maxDocumentSize: 1024))) {
            XCTAssertEqual(
                ($0 as? SCXMLParseError)?.diagnostics.map(\.message),
                ["the document is 2048 bytes, more than the limit of 1024 bytes (SCXMLParser.Limits.maxDocumentSize)"])
        }
    }

    func testDepthLimit() {
        func nested(_ depth: Int) -> String {
            // The root is level 1; each level below it is one <state>, one per line.
            var text = "\(scxmlRoot)>\n"
            for level in 2...depth { text += String(repeating: " ", count: level - 1) + "<state id=\"s\(level)\">\n" }
            for _ in 2...depth { text += "</state>" }
            return text + "</scxml>"
        }
        XCTAssertNoThrow(try SCXMLParser.parse(string: nested(4_096)))
        assertError(
            nested(4_097), line: 4_097, column: 4_097, element: "state",
            "<state> is nested 4097 elements deep, more than the limit of 4096 (SCXMLParser.Limits.maxDepth)")
        assertError(
            nested(11), line: 11, column: 11, element: "state",
            "<state> is nested 11 elements deep, more than the limit of 10 (SCXMLParser.Limits.maxDepth)",
            limits: SCXMLParser.Limits(maxDepth: 10))
    }

    func testStateLimitDefault() {
        XCTAssertEqual(SCXMLParser.Limits.default.maxStates, 100_000)
        XCTAssertEqual(SCXMLParser.Limits.default.maxDepth, 4_096)
    }

    func testManyStatesParseQuickly() throws {
        var text = "\(scxmlRoot)>\n"
        for index in 0..<20_000 { text += "<state id=\"s\(index)\"><transition event=\"e\" target=\"s\(index + 1)\"/></state>" }
        text += "<final id=\"s20000\"/></scxml>"
        let start = ContinuousClock.now
        let document = try SCXMLParser.parse(string: text)
        XCTAssertEqual(document.states.count, 20_001)
        let prefix = try XCTUnwrap(text.range(of: "<state id=\"s19999\""))
        let lineStart = try XCTUnwrap(text[..<prefix.lowerBound].lastIndex(of: "\n"))
        XCTAssertEqual(document.states[19_999].sourceLocation, SCXMLSourceLocation(
            file: "<string>", line: 2, column: text[lineStart..<prefix.lowerBound].count))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(20))
    }

    func testConcurrentParsesKeepTheirOwnErrors() {
        let iterations = 64
        let results = ResultBox(count: iterations)
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            let text: String
            if index % 2 == 0 {
                text = "\(scxmlRoot)>\n<state id=\"s\(index)\">\n</scxml>"  // malformed
            } else {
                text = "\(scxmlRoot)><state id=\"s\(index)\"><transition target=\"t\(index)\"/></state></scxml>"
            }
            do throws(SCXMLParseError) {
                _ = try SCXMLParser.parse(string: text, fileName: "f\(index).scxml")
                results.set(index, "no error")
            } catch {
                results.set(index, error.description)
            }
        }
        for index in 0..<iterations {
            if index % 2 == 0 {
                XCTAssertEqual(
                    results.get(index),
                    "f\(index).scxml:3:9: error: malformed XML: Opening and ending tag mismatch: state line 2 and scxml")
            } else {
                XCTAssertEqual(
                    results.get(index),
                    "f\(index).scxml:1:\(scxmlRoot.count + 2 + 14 + "\(index)".count): error: transition target "
                        + "'t\(index)' does not name a state; known ids include 's\(index)'")
            }
        }
    }
}

/// Thread-safe storage for the concurrent test.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: String) { lock.withLock { values[index] = value } }
    func get(_ index: Int) -> String? { lock.withLock { values[index] } }
}
