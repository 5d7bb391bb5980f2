import Foundation
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// The Swift examples of the StatechartECMAScript DocC catalog (StatechartECMAScript.md,
/// TheECMAScriptDatamodel.md) as written there, with each result comment checked.
final class ArticleExampleTests: XCTestCase {
    func testTheOverviewCountsDown() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.functions["double"] = { arguments in
            guard case .number(let n)? = arguments.first else { return .null }
            return .number(2 * n)
        }
        options.values["limits"] = .object(["maximum": .number(3)])
        let machine = try SCXMLMachine(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="count" expr="double(limits.maximum)"/></datamodel>
              <state id="counting">
                <transition event="tick" cond="count > 1"><assign location="count" expr="count - 1"/></transition>
                <transition event="tick" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """, options: options)
        try machine.start()
        XCTAssertEqual(try machine.snapshot().variables.first { $0.name == "count" }?.value, .number(6))
        for tick in 1...6 {
            XCTAssertFalse(machine.isFinished, "finished after \(tick - 1) ticks")
            try machine.send("tick")
        }
        XCTAssertTrue(machine.isFinished)
    }

    func testTheLimitsExample() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.scriptLimits.timePerEvaluation = .milliseconds(250)
        options.scriptLimits.memoryPerDocumentTree = 64 << 20
        XCTAssertEqual(options.scriptLimits.timePerEvaluation, .milliseconds(250))
        XCTAssertEqual(options.scriptLimits.memoryPerDocumentTree, 67_108_864)
    }
}
