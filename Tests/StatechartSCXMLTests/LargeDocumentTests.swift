import Foundation
import XCTest
@testable import StatechartSCXML

/// Large generated documents: they load completely, and positions stay exact however far into
/// the document, whichever way the parser finds them (from libxml2's progress through plain
/// UTF-8, or from the full pre-scan for other encodings and documents with a DOCTYPE).
final class LargeDocumentTests: XCTestCase {
    /// A document with `zones` x `areas` x `rooms` nested states, four transitions each, written
    /// line by line while noting where each element starts.
    struct Generated {
        var text = ""
        var line = 1
        var stateCount = 0
        var transitionCount = 0
        var compoundCount = 0
        /// Where each state's and transition's `<` is, by id ("t:<state id>:<n>" for transitions).
        var positions: [String: (line: Int, column: Int)] = [:]

        mutating func append(_ indent: String, _ tag: String, key: String? = nil) {
            if let key { positions[key] = (line, indent.count + 1) }
            text += indent + tag + "\n"
            line += 1
        }
    }

    static func generate(zones: Int, areas: Int, rooms: Int, extra: (inout Generated) -> Void = { _ in }) -> Generated {
        var g = Generated()
        g.append("", #"<?xml version="1.0" encoding="UTF-8"?>"#)
        g.append("", #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="z0">"#)
        var ids: [String] = []
        for z in 0..<zones {
            for a in 0..<areas {
                for r in 0..<rooms { ids.append("z\(z)_a\(a)_r\(r)") }
            }
        }
        var next = 0
        func transitions(_ g: inout Generated, _ indent: String, _ source: String) {
            for n in 0..<4 {
                let target = ids[(next * 7 + n * 13) % ids.count]
                next += 1
                g.append(indent, #"<transition event="ev\#(next % 50).\#(n)" target="\#(target)"/>"#, key: "t:\(source):\(n)")
                g.transitionCount += 1
            }
        }
        for z in 0..<zones {
            let zone = "z\(z)"
            g.append("  ", #"<state id="\#(zone)">"#, key: zone)
            g.stateCount += 1
            g.compoundCount += 1
            transitions(&g, "    ", zone)
            for a in 0..<areas {
                let area = "\(zone)_a\(a)"
                g.append("    ", #"<state id="\#(area)">"#, key: area)
                g.stateCount += 1
                g.compoundCount += 1
                transitions(&g, "      ", area)
                for r in 0..<rooms {
                    let room = "\(area)_r\(r)"
                    g.append("      ", #"<state id="\#(room)">"#, key: room)
                    g.stateCount += 1
                    transitions(&g, "        ", room)
                    g.append("      ", "</state>")
                }
                g.append("    ", "</state>")
            }
            g.append("  ", "</state>")
        }
        extra(&g)
        g.append("", "</scxml>")
        return g
    }

    func testAGeneratedLargeDocumentLoadsCompletely() throws {
        let g = Self.generate(zones: 6, areas: 6, rooms: 30)
        let document = try SCXMLParser.parse(string: g.text, fileName: "large.scxml")
        XCTAssertEqual(document.allStates.count, g.stateCount)
        XCTAssertEqual(document.allStates.reduce(0) { $0 + $1.transitions.count }, g.transitionCount)
        for state in document.allStates {
            let expected = try XCTUnwrap(g.positions[state.id])
            XCTAssertEqual(state.sourceLocation, SCXMLSourceLocation(file: "large.scxml", line: expected.line, column: expected.column))
            for (n, transition) in state.transitions.enumerated() {
                let position = try XCTUnwrap(g.positions["t:\(state.id):\(n)"])
                XCTAssertEqual(transition.sourceLocation.line, position.line)
                XCTAssertEqual(transition.sourceLocation.column, position.column)
            }
        }
        // Compiled: every state plus the root; every transition plus the default-entry ones of
        // the root and of the compound states.
        let machine = try SCXMLMachine(document: document)
        XCTAssertEqual(machine.machine.chart.stateCount, g.stateCount + 1)
        XCTAssertEqual(machine.machine.chart.transitionCount, g.transitionCount + g.compoundCount + 1)
        try machine.start()
        XCTAssertTrue(machine.machine.isActive("z0_a0_r0"))
    }

    func testAnErrorDeepInALargeDocumentHasItsLineAndColumn() throws {
        var errorLine = 0
        let g = Self.generate(zones: 4, areas: 5, rooms: 40) { g in
            g.append("  ", #"<state id="late">"#)
            errorLine = g.line
            g.append("\t    ", #"<transition event="e" target="nowhere"/>"#)
            g.append("  ", "</state>")
        }
        XCTAssertGreaterThan(errorLine, 4_000)
        let found = diagnostics(g.text)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.location, at(errorLine, 6))
        XCTAssertEqual(found.first?.element, "transition")
        XCTAssertEqual(found.first?.message.hasPrefix("transition target 'nowhere' does not name a state; known ids include "), true)
    }

    /// The same document, written so that positions come from the pre-scan (a DOCTYPE, an
    /// ISO-8859-1 declaration, a byte-order mark) or from libxml2's progress (plain UTF-8),
    /// gives the same positions.
    func testPositionsAreTheSameWhicheverWayTheyAreFound() throws {
        let body = """
            \(scxmlRoot)
                name="a>b
            c"><!-- <state id="no"> --><state id="s1"><?pi <x?>
            \t<transition event="e"
              target="s2"/><datamodel><data id="d"><![CDATA[ <state> ]]></data></datamodel></state>
              <state id="s2" ><onentry><log label="&lt;&amp;>" expr="'x'"/></onentry></state>   <final
            id="f"/></scxml>
            """
        func locations(_ data: Data) throws -> [SCXMLSourceLocation] {
            let document = try SCXMLParser.parse(data: data, fileName: "test.scxml")
            var result = [document.sourceLocation]
            for state in document.allStates {
                result.append(state.sourceLocation)
                result += state.transitions.map(\.sourceLocation)
                result += state.onEntry.flatMap { [$0.sourceLocation] + $0.actions.map(\.sourceLocation) }
            }
            return result
        }
        let expected = [at(1, 1), at(3, 28), at(4, 2), at(6, 3), at(6, 19), at(6, 28), at(6, 85)]
        XCTAssertEqual(try locations(Data(body.utf8)), expected)
        // CRLF line ends: a line is counted at each line feed.
        XCTAssertEqual(try locations(Data(body.replacingOccurrences(of: "\n", with: "\r\n").utf8)), expected)
        XCTAssertEqual(try locations(Data([0xEF, 0xBB, 0xBF]) + Data(body.utf8)), expected)
        for prefix in [
            #"<?xml version="1.0" encoding="UTF-8"?>"#, #"<?xml version="1.0" encoding="ISO-8859-1"?>"#,
            "<!DOCTYPE scxml>", "<!-- <state> -->",
        ] {
            let found = try locations(Data((prefix + body).utf8))
            XCTAssertEqual(found.first, at(1, prefix.count + 1), prefix)
            XCTAssertEqual(Array(found.dropFirst()), Array(expected.dropFirst()), prefix)
        }
    }

    func testNonASCIICharactersBeforeATagCountOneColumnEach() throws {
        let text = "\(scxmlRoot)>\n  é日本😀<state id=\"a\"/>é<final id=\"f\"/></scxml>"
        // Text inside <scxml> is an error, reported at <scxml>; the states still have positions.
        XCTAssertEqual(diagnostics(text).map(\.location), [at(1, 1)])
        let wrapped = "\(scxmlRoot)>\n  <!--é日本😀--><state id=\"a\"/><!--é--><final id=\"f\"/></scxml>"
        let document = try parse(wrapped)
        XCTAssertEqual(document.states.map(\.sourceLocation), [at(2, 14), at(2, 37)])
    }

    func testAttributeValuesAndTextAreThoseOfLibxml2sTree() throws {
        // Literal tabs and newlines in attribute values become spaces; references do not.
        let text = """
            \(scxmlRoot) name="a&amp;b&#38;c&lt;d&#9;e\tf
            g" datamodel="ecmascript">
              <datamodel><data id="d">a&amp;b<![CDATA[c]]><![CDATA[d]]>e</data></datamodel>
              <state id="s"/>
            </scxml>
            """
        let document = try parse(text)
        XCTAssertEqual(document.name, "a&b&c<d\te f g")
        XCTAssertEqual(document.datamodelElement?.data.first?.value, .inline(.text("a&bcde")))
        // The text quoted in a message is the first text node, up to a CDATA section.
        assertError(
            "\(scxmlRoot)><state id=\"s\">hello <![CDATA[world]]></state></scxml>", line: 1, column: scxmlRoot.count + 2,
            element: "state", "unexpected text 'hello' inside <state>; only elements are allowed here")
    }
}
