import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import XCTest

/// error.execution and error.communication (SCXML 4.9, 5.9, 6.2, B.2): each error stops its
/// block, the rest of the document runs on, and nothing a script does crashes the process.
final class DatamodelErrorTests: XCTestCase {
    /// One state per failing block: its onentry logs "before", fails, then would log "after";
    /// the error event moves on to the next state, logging the error's name.
    func testEachErrorStopsItsBlockAndRaisesErrorExecution() throws {
        let failing = [
            #"<assign location="undeclared" expr="1"/>"#,              // W3C 286: undeclared location
            #"<assign location="x" expr="return"/>"#,                  // W3C 312: illegal expression
            #"<log expr="nope.field"/>"#,                              // a ReferenceError
            #"<foreach array="x" item="item"/>"#,                      // W3C 152: not an array
            #"<foreach array="[1]" item="'continue'"/>"#,              // W3C 152: illegal item
            #"<script>throw new Error('boom');</script>"#,             // an exception
            #"<script>var ;</script>"#,                                // a syntax error
            #"<if cond="1 +"><log expr="'then'"/></if>"#,              // a bad <if> condition
            #"<send event="e" delayexpr="'soon'"/>"#,                  // not a CSS2 time
            #"<send event="e" type="nonsense"/>"#,                     // W3C 199: unknown type
            #"<send event="e" target="nowhere"/>"#,                    // W3C 194: invalid target
            #"<send event="e" namelist="&quot;x"/>"#,                  // W3C 553: illegal namelist
        ]
        var states = ""
        for (index, content) in failing.enumerated() {
            let next = index + 1 < failing.count ? "s\(index + 1)" : "done"
            states += """
                <state id="s\(index)">
                  <onentry><log expr="'before \(index)'"/>\(content)<log expr="'after \(index)'"/></onentry>
                  <transition event="error" target="\(next)"><log expr="_event.name"/></transition>
                  <transition event="*" target="fail"/>
                </state>

                """
        }
        let session = try TestSession("""
            <datamodel><data id="x" expr="7"/></datamodel>
            \(states)<final id="done"/><final id="fail"/>
            """)
        try session.run()
        XCTAssertEqual(session.machine.configuration, ["done"])
        XCTAssertEqual(session.logs, failing.indices.flatMap { ["before \($0)", "error.execution"] })
    }

    func testScriptSourcesLoadWithTheDocumentOrRejectIt() throws {
        // W3C 301 (manual): a <script src> that cannot be loaded makes the document invalid.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ecma-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "var loaded = 'from file';".write(to: folder.appendingPathComponent("lib.js"), atomically: true, encoding: .utf8)
        let session = try TestSession("""
            <script src="file:lib.js"/>
            <final id="done"><onentry><log expr="loaded"/></onentry></final>
            """, baseURL: folder)
        XCTAssertEqual(try session.run(), ["from file"])

        XCTAssertThrowsError(try TestSession(#"<script src="missing.js"/><final id="done"/>"#, baseURL: folder)) { error in
            let diagnostics = (error as? SCXMLLoadError)?.diagnostics ?? []
            XCTAssertEqual(diagnostics.count, 1)
            XCTAssertEqual(diagnostics.first?.location.line, 2)
            XCTAssertTrue(diagnostics.first?.message.hasPrefix(#"<script src="missing.js"> cannot be loaded, so the document is invalid: "#) ?? false,
                          "\(diagnostics)")
        }
        var ecmaScriptOnly = SCXMLMachine.Options(datamodels: [ECMAScriptDatamodel.self])
        ecmaScriptOnly.acceptsBasicHTTP = false
        XCTAssertThrowsError(try SCXMLMachine(contentsOf: W3CSuite.folder.appendingPathComponent("ecma/test301.scxml"),
                                              options: ecmaScriptOnly))
    }

    func testEventDataTheEngineCannotHoldIsLeftUndefined() throws {
        var deep = DataValue.number(1)
        for _ in 0..<5_000 { deep = .array([deep]) }
        let session = try TestSession("""
            <state id="s"><transition event="deep" target="done"><log expr="_event.name + ' ' + typeof _event.data"/></transition></state>
            <final id="done"/>
            """)
        try session.machine.start()
        try session.machine.send("deep", data: deep)
        XCTAssertEqual(session.logs, ["deep undefined"])
    }

    func testBadConditionIsFalseAndRaisesErrorExecution() throws {
        // W3C 309/344: the transition is not taken; error.execution follows.
        let session = try TestSession("""
            <state id="s0">
              <transition cond="return" target="fail"/>
              <transition target="s1"/>
            </state>
            <state id="s1"><transition event="error.execution" target="done"/><transition event="*" target="fail"/></state>
            <final id="done"/><final id="fail"/>
            """)
        try session.run()
        XCTAssertEqual(session.machine.configuration, ["done"])
    }

    func testUnreachableTargetsRaiseErrorCommunication() throws {
        // W3C 496/521: unknown session, no parent, unknown invocation; none stops the machine.
        let session = try TestSession("""
            <datamodel><data id="names" expr="[]"/></datamodel>
            <state id="s">
              <onentry><send event="e" target="#_scxml_no-such-session"/></onentry>
              <onentry><send event="e" target="#_parent"/></onentry>
              <onentry><send event="e" target="#_no-such-invocation"/></onentry>
              <onentry><send event="e" type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"/></onentry>
              <transition event="error" cond="names.length &lt; 3"><assign location="names" expr="names.concat(_event.name)"/></transition>
              <transition event="error" target="done"><log expr="names.concat(_event.name).join(' ')"/></transition>
            </state>
            <final id="done"/>
            """)
        XCTAssertEqual(try session.run(), [
            "error.communication error.communication error.communication error.communication",
        ])
    }

    func testScriptsThatMisbehaveNeverCrashTheProcess() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.functions["fails"] = { _ in throw SCXMLExecutionError("the host refused") }
        let hostile = [
            "function f() { return f() + 1; } f();",                     // stack overflow
            "var s = 'x'; while (true) { s = s + s; }",                  // memory exhaustion
            "throw { not: 'an error' };",                               // a thrown non-error
            "null.property;",                                           // a TypeError
            "fails();",                                                 // a host function error
            "JSON.parse('{');",                                         // a SyntaxError at run time
            "Object.defineProperty(this, '_sessionid', { value: 1 });", // redefining a system variable
        ]
        var states = ""
        for (index, code) in hostile.enumerated() {
            let next = index + 1 < hostile.count ? "s\(index + 1)" : "done"
            states += """
                <state id="s\(index)">
                  <onentry><script><![CDATA[\(code)]]></script><log expr="'survived \(index)'"/></onentry>
                  <transition event="error.execution" target="\(next)"><log expr="'error \(index)'"/></transition>
                </state>

                """
        }
        let session = try TestSession(states + #"<final id="done"><onentry><log expr="typeof _sessionid"/></onentry></final>"#,
                                      options: options)
        try session.run(seconds: 30)
        XCTAssertEqual(session.logs, hostile.indices.map { "error \($0)" } + ["string"])
    }
}
