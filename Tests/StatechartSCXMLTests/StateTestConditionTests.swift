import Foundation
import Statechart
@testable import StatechartSCXML
import XCTest

/// Null-datamodel `In()` conditions compiled to state tests (StateTestCondition) give what the
/// datamodel gives for the same text: checked condition by condition against
/// `NullCondition.evaluate`, and machine by machine with the compilation switched off
/// (`Options.compilesStateTests`), including the W3C tests that use `In()`.
final class StateTestConditionTests: XCTestCase {
    /// States a, b, c at indices 0, 1, 2; `zz` names no state.
    private let indices = ["a": 0, "b": 1, "c": 2]

    private func compiled(_ text: String) throws -> StateTestCondition {
        let condition = try XCTUnwrap(NullExpression(text)?.staticCondition, text)
        let test = try XCTUnwrap(StateTestCondition(condition), text)
        test.resolve { self.indices[$0] }
        return test
    }

    func testHandWorkedValues() throws {
        let test = try compiled("In('a') || In(b) && !In(\"c\")")       // a || (b && !c)
        XCTAssertFalse(test.evaluate { _ in false })
        XCTAssertTrue(test.evaluate { $0 == 1 })                         // b only
        XCTAssertFalse(test.evaluate { $0 == 1 || $0 == 2 })             // b and c
        XCTAssertTrue(test.evaluate { $0 == 0 || $0 == 2 })              // a and c
        let unknown = try compiled("In('zz')")
        XCTAssertFalse(unknown.evaluate { _ in true })                   // no state, never active
        XCTAssertTrue(try compiled("!In('zz') && true").evaluate { _ in true })
        XCTAssertTrue(try compiled("In('c')").evaluate { $0 == 2 })
        XCTAssertFalse(try compiled("In('c')").evaluate { $0 != 2 })
        XCTAssertFalse(try compiled("false || !true").evaluate { _ in true })
        XCTAssertFalse(try compiled("0").evaluate { _ in true })          // a literal, by its truth
        XCTAssertTrue(try compiled("'x'").evaluate { _ in false })
    }

    func testEveryConditionAgreesWithTheDatamodelsEvaluationInEveryConfiguration() throws {
        let texts = ["In('a')", "In(b)", "!In('a')", "In('a') && In('b')", "In('a') || In('b')",
                     "!(In('a') || In('b')) && In('c')", "In('a') && !In('b') || In('c') && !In('a')",
                     "((In('a')))", "!!In('c')", "In('zz') || In('b')", "In('a') && In('zz')",
                     "true && In('a')", "false || In('c')", "!(In(a) && (In(b) || !In(c)))"]
        for text in texts {
            let condition = try XCTUnwrap(NullExpression(text)?.staticCondition, text)
            let test = try compiled(text)
            for active in 0..<8 {
                let expected = condition.evaluate { id in self.indices[id].map { active & (1 << $0) != 0 } ?? false }
                XCTAssertEqual(test.evaluate { active & (1 << $0) != 0 }, expected, "\(text) with states \(active)")
            }
        }
    }

    func testAConditionNeedingMoreThan64StackValuesIsLeftToTheDatamodel() throws {
        // In(a) && (In(a) && (...)): every In() is on the stack before the first && runs.
        func chain(_ count: Int) -> NullCondition {
            let text = (0..<count).map { _ in "In('a')" }.joined(separator: " && (") + String(repeating: ")", count: count - 1)
            return NullCondition(text)!
        }
        XCTAssertNotNil(StateTestCondition(chain(64)))
        XCTAssertNil(StateTestCondition(chain(65)))
        let test = try XCTUnwrap(StateTestCondition(chain(64)))
        test.resolve { self.indices[$0] }
        XCTAssertTrue(test.evaluate { $0 == 0 })
        XCTAssertFalse(test.evaluate { _ in false })
    }

    private func options(compiled: Bool) -> SCXMLMachine.Options {
        var options = SCXMLMachine.Options()
        options.compilesStateTests = compiled
        options.functions["isReady"] = { _ in .bool(true) }   // a host call: the datamodel's either way
        return options
    }

    func testAMachineTakesTheSameTransitionsWithAndWithoutStateTests() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="run">
              <parallel id="run">
                <state id="mode" initial="slow">
                  <state id="slow"><transition event="toggle" target="fast"/></state>
                  <state id="fast"><transition event="toggle" target="slow"/></state>
                </state>
                <state id="work" initial="w0">
                  <state id="w0">
                    <transition event="step" cond="In('fast')" target="w2"><log label="w0 jump"/></transition>
                    <transition event="step" cond="In('slow')" target="w1"><log label="w0 step"/></transition>
                  </state>
                  <state id="w1">
                    <transition event="step" cond="false || !In('slow') &amp;&amp; !In('w0')" target="w0"><log label="w1 back"/></transition>
                    <transition event="step" cond="In(slow) &amp;&amp; (In('w1') || false)" target="w2"><log label="w1 step"/></transition>
                  </state>
                  <state id="w2">
                    <transition event="step" cond="In('run') &amp;&amp; In('fast')" target="w1"><log label="w2 back"/></transition>
                    <transition event="step" cond="isReady()" target="w0"><log label="w2 wrap"/></transition>
                  </state>
                </state>
              </parallel>
            </scxml>
            """
        var runs: [[String]] = []
        for compiled in [true, false] {
            let machine = try SCXMLMachine(string: text, fileName: "modes.scxml", options: options(compiled: compiled))
            let logs = EventHandleTests.Recorder()
            machine.onLog { label, _ in logs.add(label ?? "-") }
            try machine.start()
            for event in ["step", "step", "step", "toggle", "step", "step", "step", "toggle", "step"] {
                try machine.send(event)
                logs.add(machine.configuration.joined(separator: " "))
            }
            runs.append(logs.all)
        }
        XCTAssertEqual(runs[0], [
            "w0 step", "slow w1", "w1 step", "slow w2", "w2 wrap", "slow w0", "fast w0", "w0 jump", "fast w2",
            "w2 back", "fast w1", "w1 back", "fast w0", "slow w0", "w0 step", "slow w1",
        ])
        XCTAssertEqual(runs[1], runs[0])
    }

    func testTheW3CInTestsPassWithAndWithoutStateTests() throws {
        // 310, 413 and 436 test In() in transition conditions; 409 and 411 in <if> (which the
        // datamodel evaluates either way).
        for compiled in [true, false] {
            let runner = ConformanceRunner(options: options(compiled: compiled), timeout: .seconds(5), manifest: Conformance.manifest)
            let files = try runner.testFiles(in: Conformance.suite.appendingPathComponent("null"))
                .filter { ["test310", "test409", "test411", "test413", "test436"].contains($0.deletingPathExtension().lastPathComponent) }
            XCTAssertEqual(files.count, 5)
            let results = runner.run(files)
            XCTAssertEqual(results.filter(\.passed).count, 5, "compiled: \(compiled)")
            for result in results where !result.passed {
                XCTFail("\(result.test) failed with compiled state tests \(compiled): \(result.detail)")
            }
        }
    }
}
