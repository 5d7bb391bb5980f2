import XCTest
@testable import StatechartSCXML

/// The "known ids include ..." suggestion for an unknown target is bounded per document
/// (issue 28): edit distances cost names × ids × lengths, so once the document's budget is
/// spent the message lists the first ids instead of the nearest.
final class SuggestionBudgetTests: XCTestCase {
    func testNearestWithinTheBudget() {
        var budget = 100
        XCTAssertEqual(Suggestions.nearest(to: "lock", in: ["open", "locked", "unlocked"], count: 2, budget: &budget),
                       ["locked", "open"])
        XCTAssertEqual(budget, 100 - 4 * 4 - 4 * 6 - 4 * 8)
    }

    func testPastTheBudgetTheFirstIdsAndNoMoreWork() {
        var budget = 60
        XCTAssertEqual(Suggestions.nearest(to: "lock", in: ["open", "locked", "unlocked"], count: 2, budget: &budget),
                       ["open", "locked"])
        XCTAssertEqual(budget, 0, "spent: the next names are not compared at all")
        XCTAssertEqual(Suggestions.nearest(to: "x", in: ["a", "x"], count: 1, budget: &budget), ["a"])
    }

    /// 1,000 ids of 18 scalars and 40 unknown targets of 20: each suggestion costs 360,000
    /// cells, so the 2 million of a document pay for the first 5; the 6th and later list the
    /// document's first five ids.
    func testADocumentWithManyUnknownTargetsGetsBoundedSuggestions() throws {
        let states = (0..<1000).map { index in
            let target = index < 40 ? "<transition event=\"e\" target=\"missing_target_\(String(format: "%05d", index))\"/>" : ""
            return "<state id=\"state_number_\(String(format: "%05d", index))\">\(target)</state>"
        }.joined(separator: "\n")
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n\(states)\n</scxml>"
        do {
            _ = try SCXMLMachine(data: Data(text.utf8), fileName: "many.scxml")
            XCTFail("loaded")
        } catch let error as SCXMLLoadError {
            let messages = error.diagnostics.map(\.message)
            XCTAssertEqual(messages.count, 40)
            // Within the budget the nearest id comes first: the one with the same number.
            XCTAssertTrue(messages[0].hasPrefix("transition target 'missing_target_00000' does not name a state; known ids include 'state_number_00000', "), messages[0])
            XCTAssertTrue(messages[4].hasPrefix("transition target 'missing_target_00004' does not name a state; known ids include 'state_number_00004', "), messages[4])
            XCTAssertEqual(messages[5], "transition target 'missing_target_00005' does not name a state; known ids include 'state_number_00000', 'state_number_00001', 'state_number_00002', 'state_number_00003', 'state_number_00004'")
            XCTAssertEqual(messages[39], messages[5].replacingOccurrences(of: "00005'", with: "00039'"))
        }
    }
}
