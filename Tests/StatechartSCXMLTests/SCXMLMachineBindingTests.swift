import Foundation
import Statechart
import StatechartSCXML
import XCTest

/// The Swift bindings of a loaded document: loading, observing, events out and in, host functions.
final class SCXMLMachineBindingTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    static let toggle = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="off">
      <state id="off"><transition event="flip" target="on"/></state>
      <state id="on">
        <state id="low"><transition event="up" target="high"/></state>
        <state id="high"/>
        <transition event="flip" target="off"/>
      </state>
    </scxml>
    """

    func testLoadsFromAStringDataAndAFile() throws {
        let fromString = try SCXMLMachine(string: Self.toggle)
        let fromData = try SCXMLMachine(data: Data(Self.toggle.utf8))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("toggle-\(UUID()).scxml")
        try Self.toggle.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try SCXMLMachine(contentsOf: file)
        for machine in [fromString, fromData, fromFile] {
            try machine.start()
            try machine.send("flip")
            XCTAssertEqual(machine.configuration, ["low"])
            XCTAssertTrue(machine.isActive("on"))
        }
    }

    func testObservesEnteringAndExitingStatesByID() throws {
        let machine = try SCXMLMachine(string: Self.toggle)
        let seen = Recorder()
        machine.onStateChange { state, entered in seen.add("\(entered ? "enter" : "exit") \(state)") }
        try machine.start()
        try machine.send("flip")
        try machine.send("up")
        try machine.send("flip")
        XCTAssertEqual(seen.all, ["enter off", "exit off", "enter on", "enter low", "exit low", "enter high",
                                  "exit high", "exit on", "enter off"])
    }

    func testEventsSentOutOfTheMachineReachTheHost() throws {
        let machine = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a">
            <onentry>
              <send event="status.ready" target="#_parent"/>
              <send event="notify" target="app:notifications"/>
              <send event="lost" target="app:nowhere"/>
            </onentry>
            <transition event="error.communication" target="b"/>
          </state>
          <state id="b"/>
        </scxml>
        """)
        let sent = Recorder()
        machine.onSend { event, target, _ in
            sent.add("\(event.name) -> \(target)")
            return target != "app:nowhere"
        }
        try machine.start()
        XCTAssertEqual(sent.all, ["status.ready -> #_parent", "notify -> app:notifications", "lost -> app:nowhere"])
        XCTAssertEqual(machine.configuration, ["b"], "an unreachable target raises error.communication")
    }

    func testEventsSentInCarryTheirData() throws {
        let machine = try SCXMLMachine(string: Self.toggle)
        let payloads = Recorder()
        machine.machine.onTransition { record in
            let data = (record.event?.payload as? SCXMLEvent)?.data
            payloads.add("\(record.event?.name ?? "-") \(data?.jsonText ?? "none")")
        }
        try machine.start()
        XCTAssertEqual(try machine.send("flip", data: .object(["by": .string("ann"), "n": .number(2)])), .handled)
        XCTAssertEqual(try machine.send("nothing"), .unhandled)
        XCTAssertEqual(payloads.all, [#"flip {"by":"ann","n":2}"#])
    }

    func testHostFunctionsInConditions() throws {
        final class Flag: @unchecked Sendable { var open = false }
        let flag = Flag()
        var options = SCXMLMachine.Options()
        options.functions["doorOpen"] = { _ in .bool(flag.open) }
        options.functions["atLeast"] = { args in
            guard case .string(let name)? = args.first, case .number(let n)? = args.last else { return .bool(false) }
            return .bool(name == "disk" && n >= 3)
        }
        options.functions["broken"] = { _ in throw SCXMLExecutionError("sensor offline") }
        let machine = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="idle">
            <transition event="go" cond="doorOpen()" target="open"/>
            <transition event="go" cond="atLeast('disk', 3)" target="full"/>
            <transition event="check" cond="broken()" target="open"/>
            <transition event="error.execution" target="failed"/>
          </state>
          <state id="open"/><state id="full"/><state id="failed"/>
        </scxml>
        """, options: options)
        try machine.start()
        flag.open = true
        try machine.send("go")
        XCTAssertEqual(machine.configuration, ["open"])

        let second = try SCXMLMachine(document: machine.document, options: options)
        try second.start()
        flag.open = false
        try second.send("go")
        XCTAssertEqual(second.configuration, ["full"])

        let third = try SCXMLMachine(document: machine.document, options: options)
        try third.start()
        try third.send("check")       // the guard's error is error.execution, and the guard is false
        XCTAssertEqual(third.configuration, ["failed"])
    }

    func testLogsReachTheHost() throws {
        let machine = try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><onentry><log label="hello" expr="'world'"/><log expr="42"/></onentry></state>
        </scxml>
        """)
        let logs = Recorder()
        machine.onLog { label, message in logs.add("\(label ?? "-"): \(message)") }
        try machine.start()
        XCTAssertEqual(logs.all, ["hello: world", "-: 42"])
    }

    func testLoadErrorsListEveryProblemWithLineAndColumn() {
        XCTAssertThrowsError(try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><transition event="e" target="zz"/></state>
          <state id="b"><onentry><assign location="x" expr="1"/></onentry></state>
        </scxml>
        """, fileName: "doc.scxml")) { error in
            // The parser's error and the datamodel's, in one run.
            let lines = (error as? SCXMLLoadError)?.diagnostics.map(\.description) ?? ["\(error)"]
            XCTAssertEqual(lines.count, 2)
            XCTAssertTrue(lines[0].hasPrefix("doc.scxml:2:17: error: transition target 'zz' does not name a state"), lines[0])
            XCTAssertEqual(lines.last, "doc.scxml:3:26: error: <assign> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>")
        }
        XCTAssertThrowsError(try SCXMLMachine(string: """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="b"><onentry><assign location="x" expr="1"/><script>x = 2</script></onentry></state>
        </scxml>
        """, fileName: "doc.scxml")) { error in
            XCTAssertEqual((error as? SCXMLLoadError)?.diagnostics.map(\.description), [
                "doc.scxml:2:26: error: <assign> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>",
                "doc.scxml:2:57: error: <script> is not supported by the null datamodel; declare datamodel=\"ecmascript\" on <scxml>",
            ])
        }
    }
}
