import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// Swift functions and values exposed to documents through ``SCXMLMachine/Options``.
final class HostBindingTests: XCTestCase {
    func testHostFunctionsAndValuesAreGlobals() throws {
        let calls = LogLines()
        var options = SCXMLMachine.Options.withECMAScript
        options.functions["price"] = { arguments in
            calls.append("price(\(arguments.map(\.jsonText).joined(separator: ",")))")
            guard case .string(let item)? = arguments.first else { throw SCXMLExecutionError("price(item)") }
            return item == "tea" ? .number(3) : .null
        }
        options.values["config"] = .object(["currency": .string("EUR"), "limits": .array([.number(1), .number(5)])])
        let session = try TestSession("""
            <datamodel><data id="total" expr="price('tea') * config.limits[1]"/></datamodel>
            <state id="s">
              <onentry>
                <log expr="total + ' ' + config.currency + ' ' + price('cake')"/>
                <assign location="config" expr="1"/>
              </onentry>
              <transition event="error.execution" target="t"/>
            </state>
            <state id="t">
              <onentry>
                <assign location="config.currency" expr="'USD'"/>
              </onentry>
              <transition event="error.execution" target="done"><log expr="config.currency"/></transition>
            </state>
            <final id="done"/>
            """, options: options)
        XCTAssertEqual(try session.run(), ["15 EUR null", "EUR"])
        XCTAssertEqual(calls.all, [#"price("tea")"#, #"price("cake")"#])
    }

    func testHostFunctionsAreCalledWithTheMachineHeldAndMayReadIt() throws {
        let box = MachineBox()
        var options = SCXMLMachine.Options.withECMAScript
        options.functions["where"] = { _ in .string(box.machine?.machine.activeStates.joined(separator: ",") ?? "?") }
        let session = try TestSession("""
            <state id="outer"><state id="inner"><onentry><log expr="where()"/></onentry>
              <transition target="done"/></state></state>
            <final id="done"/>
            """, options: options)
        box.machine = session.machine
        XCTAssertEqual(try session.run(), ["outer,inner"])
    }

    func testOptionsWithECMAScriptServeBothDatamodels() throws {
        let null = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null"><final id="f"/></scxml>"#
        let none = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><final id="f"/></scxml>"#
        for text in [null, none] {
            let machine = try SCXMLMachine(string: text, options: .withECMAScript)
            try machine.start()
            XCTAssertEqual(machine.configuration, ["f"])
        }
        XCTAssertEqual(ECMAScriptDatamodel.names, ["ecmascript"])
    }
}

final class MachineBox: @unchecked Sendable {
    weak var machine: SCXMLMachine?
}
