import Foundation
import XCTest
@testable import StatechartSCXML

/// What Qt Creator and uSCXML write that breaks a MUST of SCXML but has one obvious meaning:
/// loaded with that meaning and a `file:line:column: warning:`, refused as an error when
/// strict (docs/COMPATIBILITY.md lists each case).
final class CompatibilityWarningTests: XCTestCase {
    private final class Logs: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    private func strict() -> SCXMLMachine.Options {
        var options = SCXMLMachine.Options()
        options.strict = true
        return options
    }

    private func loadErrors(_ text: String, options: SCXMLMachine.Options) -> [String] {
        do {
            _ = try SCXMLMachine(string: text, fileName: "test.scxml", options: options)
            XCTFail("expected the document to be refused")
            return []
        } catch {
            return (error as? SCXMLLoadError)?.diagnostics.map(\.description) ?? ["\(error)"]
        }
    }

    // MARK: - <log expr> text under the null datamodel

    private let logText = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <state id="door">
            <onentry><log label="door" expr="Door opened"/><log expr="'quoted'"/></onentry>
          </state>
        </scxml>
        """
    private let logWarning = "<log expr=\"Door opened\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)"

    func testLogTextThatIsNoExpressionIsLoggedAsItIsWithAWarning() throws {
        let machine = try SCXMLMachine(string: logText, fileName: "test.scxml")
        XCTAssertEqual(machine.warnings.map(\.description), ["test.scxml:3:14: warning: \(logWarning)"])
        XCTAssertEqual(machine.warnings.first?.severity, .warning)
        XCTAssertEqual(machine.warnings.first?.element, "log")
        let logs = Logs()
        machine.onLog { label, message in logs.add("\(label ?? "-"): \(message)") }
        try machine.start()
        XCTAssertEqual(logs.all, ["door: Door opened", "-: quoted"])
    }

    func testLogTextThatIsNoExpressionIsAnErrorWhenStrict() {
        XCTAssertEqual(loadErrors(logText, options: strict()), ["test.scxml:3:14: error: \(logWarning)"])
    }
}

/// `<history>` as Qt Creator and uSCXML write it.
final class HistoryCompatibilityTests: XCTestCase {
    /// A player whose history has no default transition (Qt Creator writes these).
    private let playerText = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="standby">
          <state id="player" initial="paused">
            <history id="resume"/>
            <state id="playing"><transition event="pause" target="paused"/></state>
            <state id="paused"><transition event="play" target="playing"/></state>
            <transition event="off" target="standby"/>
          </state>
          <state id="standby"><transition event="on" target="resume"/></state>
        </scxml>
        """
    private let playerWarning = "<history id='resume'> has no <transition> giving its default history configuration; it enters the parent's initial state, as Qt does (SCXML requires the <transition>)"

    func testAHistoryWithoutADefaultEntersTheParentsInitialState() throws {
        let machine = try SCXMLMachine(string: playerText, fileName: "test.scxml")
        XCTAssertEqual(machine.warnings.map(\.description), ["test.scxml:3:5: warning: \(playerWarning)"])
        try machine.start()
        XCTAssertEqual(machine.configuration, ["standby"])
        try machine.send("on")          // never visited: the parent's initial, 'paused' (not its first child)
        XCTAssertEqual(machine.configuration, ["paused"])
        try machine.send("play")
        try machine.send("off")
        try machine.send("on")          // visited: the history restores 'playing'
        XCTAssertEqual(machine.configuration, ["playing"])
    }

    func testTheParserReportsItAsAWarningAndStrictlyAsAnError() throws {
        let document = try SCXMLParser.parse(string: playerText, fileName: "test.scxml")
        XCTAssertEqual(document.warnings.map(\.description), ["test.scxml:3:5: warning: \(playerWarning)"])
        XCTAssertThrowsError(try SCXMLParser.parse(string: playerText, fileName: "test.scxml", strict: true)) { error in
            XCTAssertEqual((error as? SCXMLParseError)?.diagnostics.map(\.description),
                           ["test.scxml:3:5: error: \(playerWarning)"])
        }
    }

    /// A shallow history whose default names a grandchild.
    private let radioText = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="off">
          <state id="off"><transition event="on" target="memory"/></state>
          <state id="radio">
            <history id="memory"><transition target="fm2"/></history>
            <state id="fm">
              <state id="fm1"/>
              <state id="fm2"/>
            </state>
            <state id="am"/>
          </state>
        </scxml>
        """
    private let radioWarning = "the default target 'fm2' of the shallow <history id='memory'> is not a child of <state id='radio'>; it is entered as written, with the states between, as Qt and uSCXML do (SCXML requires a child; type=\"deep\" allows deeper descendants)"

    func testAShallowHistoryDefaultNamingAGrandchildEntersIt() throws {
        let machine = try SCXMLMachine(string: radioText, fileName: "test.scxml")
        XCTAssertEqual(machine.warnings.map(\.description), ["test.scxml:4:26: warning: \(radioWarning)"])
        let entered = Entered()
        machine.onStateChange { state, isEntered in if isEntered { entered.add(state) } }
        try machine.start()
        try machine.send("on")
        XCTAssertEqual(machine.configuration, ["fm2"])
        XCTAssertEqual(entered.all, ["off", "radio", "fm", "fm2"])
    }

    func testAShallowHistoryDefaultNamingAGrandchildIsAnErrorWhenStrict() {
        var options = SCXMLMachine.Options()
        options.strict = true
        XCTAssertThrowsError(try SCXMLMachine(string: radioText, fileName: "test.scxml", options: options)) { error in
            XCTAssertEqual((error as? SCXMLLoadError)?.diagnostics.map(\.description),
                           ["test.scxml:4:26: error: \(radioWarning)"])
        }
    }

    private final class Entered: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }
}
