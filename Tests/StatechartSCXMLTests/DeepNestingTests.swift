import Dispatch
import Foundation
import XCTest
@testable import StatechartSCXML

/// Documents nested deeper than libxml2's own limit of 256 (uSCXML's `LCCA.256` benchmark) load
/// and run, up to ``SCXMLParser/Limits/maxDepth`` (4,096); deeper ones are refused as soon as the
/// parser reaches the first element past it.
final class DeepNestingTests: XCTestCase {
    /// `<scxml>` (level 1) holding states s2 ... s`depth`, one inside the other, one per line,
    /// the deepest with a transition out to the top-level final `done`.
    private func chain(_ depth: Int) -> String {
        var text = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">"# + "\n"
        for level in 2...depth { text += String(repeating: " ", count: level - 1) + "<state id=\"s\(level)\">\n" }
        text += #"<transition event="out" target="done"/>"#
        for _ in 2...depth { text += "</state>" }
        return text + #"<final id="done"/></scxml>"#
    }

    func testA300DeepChartLoadsAndRuns() throws {
        // The transition inside s300 is level 301.
        let machine = try SCXMLMachine(string: chain(300))
        try machine.start()
        XCTAssertEqual(machine.configuration, ["s300"])
        XCTAssertTrue(machine.isActive("s2"))
        try machine.send("out")
        XCTAssertTrue(machine.isFinished)
        XCTAssertEqual(machine.configuration, ["done"])
    }

    func testADeepChartLoadsOnAThreadWithASmallStack() throws {
        // A dispatch thread may have a smaller stack than the main thread: the recursive passes
        // must not depend on the caller's stack.
        let text = chain(1_000)
        let loaded = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var configuration: [String] = []
        DispatchQueue.global().async {
            if let machine = try? SCXMLMachine(string: text), (try? machine.start()) != nil {
                configuration = machine.configuration
            }
            loaded.signal()
        }
        XCTAssertEqual(loaded.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(configuration, ["s1000"])
    }

    func testADeepDocumentBuiltInCodeLoadsOnAThreadWithASmallStack() throws {
        // No parser told the machine how deep it nests: it finds out from the states.
        var document = try SCXMLParser.parse(string: chain(2_000))
        document.nestingDepth = 0
        let built = document
        let loaded = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var configuration: [String] = []
        DispatchQueue.global().async {
            if let machine = try? SCXMLMachine(document: built), (try? machine.start()) != nil {
                configuration = machine.configuration
            }
            loaded.signal()
        }
        XCTAssertEqual(loaded.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(configuration, ["s2000"])
        XCTAssertEqual(SCXMLMachine.stateDepth(of: built), 2_000)
    }

    func testOneLevelPastTheLimitIsRefusedWithItsPosition() {
        // s4097 is on line 4097, after 4096 spaces.
        XCTAssertThrowsError(try SCXMLMachine(string: chain(4_097), fileName: "deep.scxml")) { error in
            XCTAssertEqual((error as? SCXMLLoadError)?.diagnostics.map(\.description), [
                "deep.scxml:4097:4097: error: <state> is nested 4097 elements deep, more than the limit of 4096 (SCXMLParser.Limits.maxDepth)"
            ])
        }
    }

    func testHostileDepthIsRefusedQuickly() {
        // 100,000 levels, all on one line: refused at the first element past the limit,
        // without reading the rest into a tree.
        let depth = 100_000
        var text = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">"#
        text += String(repeating: "<state>", count: depth - 1) + String(repeating: "</state>", count: depth - 1) + "</scxml>"
        let start = ContinuousClock.now
        XCTAssertThrowsError(try SCXMLParser.parse(string: text, fileName: "hostile.scxml")) { error in
            // Column: the root's 61 characters, then 4,095 <state> tags of 7 before the refused one.
            XCTAssertEqual((error as? SCXMLParseError)?.diagnostics.map(\.description), [
                "hostile.scxml:1:\(61 + 4_095 * 7 + 1): error: <state> is nested 4097 elements deep, more than the limit of 4096 (SCXMLParser.Limits.maxDepth)"
            ])
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }
}
