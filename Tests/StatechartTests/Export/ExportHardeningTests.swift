import Foundation
import Statechart
import XCTest

/// Exports under hostile input (issue 28): Mermaid ids and labels its grammar would read as
/// statements, and indentation on deep charts.
final class ExportHardeningTests: XCTestCase {
    /// Mermaid's state diagram lexer (`stateDiagram.jison`, case-insensitive) reads `style`,
    /// `click` and `href` as statement keywords where an id stands: such ids are written as
    /// `state "ID" as sN` and named by the alias, like the other keywords.
    func testMermaidKeywordIdsGetAliases() {
        let chart = ChartDefinition(name: "k", states: [
            StateDefinition("style", transitions: [TransitionDefinition(on: "go", to: "click")]),
            StateDefinition("click", transitions: [TransitionDefinition(on: "go", to: "HREF")]),
            StateDefinition("HREF"),
        ])
        XCTAssertEqual(chart.mermaid(), """
            stateDiagram-v2
                [*] --> s1
                state "style" as s1
                state "click" as s2
                state "HREF" as s3
                s1 --> s2 : go
                s2 --> s3 : go

            """)
    }

    /// The lexer reads any line containing `direction` followed by white space and `TB`, `BT`,
    /// `RL` or `LR` (any case) as a direction statement, whatever comes before it on the line,
    /// which would drop the arrow: the `o` of `direction` in a label is an entity code.
    func testMermaidLabelsCannotBecomeDirectionStatements() {
        let chart = ChartDefinition(name: "d", states: [
            StateDefinition("a", transitions: [TransitionDefinition(on: ["set.direction", "LR", "DIRECTION", "tb"], to: ["b"])]),
            StateDefinition("b"),
        ])
        let text = chart.mermaid()
        XCTAssertTrue(text.contains("    a --> b : set.directi#111;n LR DIRECTI#79;N tb\n"), text)
        let directionRule = try! NSRegularExpression(pattern: "direction\\s+(tb|bt|rl|lr)", options: [.caseInsensitive])
        for line in text.components(separatedBy: "\n") {
            XCTAssertNil(directionRule.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        }
    }

    /// A chart nested 40 deep: Mermaid, DOT and SCXML indent at most 16 levels, so a deep
    /// chart's text grows linearly with its size (the deepest lines keep 16 levels' indent).
    func testIndentationStopsGrowingPastSixteenLevels() {
        var state = StateDefinition("d39", transitions: [TransitionDefinition(on: "go", to: "d0")])
        for level in stride(from: 38, through: 0, by: -1) {
            state = StateDefinition("d\(level)", children: [state])
        }
        let chart = ChartDefinition(name: "deep", states: [state])
        func longestIndent(_ text: String) -> Int {
            text.components(separatedBy: "\n").map { $0.prefix { $0 == " " }.count }.max() ?? 0
        }
        XCTAssertEqual(longestIndent(chart.scxml()), 2 * 16)
        XCTAssertTrue(chart.scxml().contains("\n" + String(repeating: "  ", count: 16) + "<state id=\"d39\">"))
        XCTAssertEqual(longestIndent(chart.mermaid()), 4 * 16)
        XCTAssertEqual(longestIndent(chart.dot()), 2 * 16)
        // The arrow from the innermost state to the outermost is filed in the block of d0's
        // parent: the diagram itself, at depth 1.
        XCTAssertTrue(chart.mermaid().hasSuffix("    d39 --> d0 : go\n"), chart.mermaid())
    }
}
