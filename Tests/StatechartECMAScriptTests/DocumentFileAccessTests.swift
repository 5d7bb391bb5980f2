import Foundation
import Statechart
import StatechartECMAScript
import StatechartSCXML
import Synchronization
import XCTest

/// What a running document can reach through files and sessions, end to end: `<data src>` and
/// `<script src>` stay inside the document's folder and never put a file's contents into an
/// error; `<invoke>` nesting and count are bounded; a full mailbox is an error, not a loss.
final class DocumentFileAccessTests: XCTestCase {
    private var root: URL!
    private var folder: URL!

    override func setUpWithError() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("file-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made.appendingPathComponent("charts"), withIntermediateDirectories: true)
        root = URL(fileURLWithPath: made.path).resolvingSymlinksInPath()
        folder = root.appendingPathComponent("charts")
        try "SECRET-CONTENTS".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private let readSecret = """
        <datamodel><data id="d" src="../secret.txt"/></datamodel>
        <state id="s"><transition cond="d === 'SECRET-CONTENTS'" target="leaked"/><transition target="kept"/></state>
        <final id="leaked"/><final id="kept"/>
        """

    func testDataSrcOutsideTheDocumentsFolderIsAnError() throws {
        let session = try TestSession(readSecret.replacingOccurrences(of: #"<transition target="kept"/>"#,
            with: #"<transition event="error.execution" target="kept"><log expr="_event.data"/></transition>"#),
            baseURL: folder)
        XCTAssertEqual(try session.run(), [
            // The session names the element and its place, the datamodel the data item again.
            "<data id=\"d\"> at test.scxml:2:12: <data id=\"d\">: cannot load '../secret.txt': it is not a file inside the folder documents may read from, \(folder.path) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)",
        ])
        XCTAssertEqual(session.machine.configuration, ["kept"])
    }

    func testAnAllowedFolderCanBeWidened() throws {
        var options = SCXMLMachine.Options.withECMAScript
        options.sourceDirectory = root
        let session = try TestSession(readSecret, options: options, baseURL: folder)
        try session.run()
        XCTAssertEqual(session.machine.configuration, ["leaked"])
    }

    func testAScriptThatDoesNotParseIsNamedNotCopied() throws {
        try "var x = 'SECRET-CONTENTS' +;".write(to: folder.appendingPathComponent("bad.js"), atomically: true, encoding: .utf8)
        let session = try TestSession("""
            <script src="bad.js"/>
            <state id="s"><transition event="error.execution" target="done"><log expr="_event.data"/></transition></state>
            <final id="done"/>
            """, baseURL: folder)
        let logs = try session.run()
        XCTAssertEqual(logs.count, 1)
        let message = logs.first ?? ""
        XCTAssertTrue(message.hasPrefix("SyntaxError: "), message)
        XCTAssertTrue(message.hasSuffix(" (in `<script src=\"bad.js\">`)"), message)
        XCTAssertFalse(message.contains("SECRET"), message)
    }

    func testADocumentThatInvokesItselfStopsAtTheDepthBound() throws {
        // Depths 0 (the host's), 1, 2 and 3 start; the session at depth 3 may not invoke
        // (3 is the bound), so it ends in `failed`, and each parent ends in turn.
        let path = folder.appendingPathComponent("self.scxml")
        try """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
              <state id="a">
                <invoke src="self.scxml"/>
                <transition event="error.execution" target="failed"><log expr="_event.data"/></transition>
                <transition event="done.invoke" target="done"/>
              </state>
              <final id="failed"/>
              <final id="done"/>
            </scxml>
            """.write(to: path, atomically: true, encoding: .utf8)
        var options = SCXMLMachine.Options.withECMAScript
        options.maximumInvokeDepth = 3
        let machine = try SCXMLMachine(contentsOf: path, options: options)
        let logs = Mutex<[String]>([])
        machine.onLog { _, message in logs.withLock { $0.append(message) } }
        try machine.start()
        XCTAssertTrue(machine.waitUntilFinished(timeout: .seconds(10)))
        XCTAssertEqual(machine.configuration, ["done"])
        XCTAssertEqual(logs.withLock { $0 }, [
            "<invoke> at \(path.path):3:5: invoking would nest sessions 4 deep, more than the limit of 3 (SCXMLMachine.Options.maximumInvokeDepth); does the document invoke itself without end?",
        ])
    }

    func testInvokedSessionsOfOneTreeAreCounted() throws {
        let child = #"<content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript"><state id="w"/></scxml></content>"#
        var options = SCXMLMachine.Options.withECMAScript
        options.maximumInvokedSessions = 2
        let session = try TestSession("""
            <parallel id="p">
              <state id="r1"><invoke id="i1">\(child)</invoke></state>
              <state id="r2"><invoke id="i2">\(child)</invoke></state>
              <state id="r3"><invoke id="i3">\(child)</invoke></state>
              <transition event="error.execution" target="done"><log expr="_event.data"/></transition>
            </parallel>
            <final id="done"/>
            """, options: options)
        XCTAssertEqual(try session.run(), [
            "<invoke> at test.scxml:5:18: 2 invoked sessions already run in this document tree, the limit (SCXMLMachine.Options.maximumInvokedSessions)",
        ])
    }

    func testAFullMailboxIsReportedToTheSender() throws {
        var receiverOptions = SCXMLMachine.Options.withECMAScript
        receiverOptions.maximumMailboxEvents = 2
        let receiver = try TestSession("""
            <datamodel><data id="n" expr="0"/></datamodel>
            <state id="r"><transition event="e"><assign location="n" expr="n + 1"/><log expr="'got ' + _event.data.k"/></transition>
              <transition cond="n === 2" target="done"/></state>
            <final id="done"/>
            """, options: receiverOptions)
        var options = SCXMLMachine.Options.withECMAScript
        options.values["target"] = .string("#_scxml_\(receiver.machine.sessionID)")
        // The receiver is not started, so its mailbox keeps what arrives: two fit.
        let sender = try TestSession("""
            <state id="s">
              <onentry>
                <send event="e" targetexpr="target"><param name="k" expr="1"/></send>
                <send event="e" targetexpr="target"><param name="k" expr="2"/></send>
                <send event="e" targetexpr="target"><param name="k" expr="3"/></send>
              </onentry>
              <transition event="error.communication" target="done"><log expr="_event.data"/></transition>
            </state>
            <final id="done"/>
            """, options: options)
        XCTAssertEqual(try sender.run(), [
            "<send> to '#_scxml_\(receiver.machine.sessionID)': the mailbox of session \(receiver.machine.sessionID) is full: 2 events are waiting (SCXMLMachine.Options.maximumMailboxEvents)",
        ])
        XCTAssertEqual(try receiver.run(), ["got 1", "got 2"])
    }

    func testAFullMailboxAnswersBasicHTTPWith503() throws {
        // The receiver is not started, so one event fills its mailbox; the BasicHTTP server
        // refuses the second with 503 and the sender hears it as error.communication.
        var receiverOptions = SCXMLMachine.Options.withECMAScript
        receiverOptions.maximumMailboxEvents = 1
        receiverOptions.basicHTTPServer = .always
        let receiver = try TestSession(#"<state id="r"><transition event="e" target="done"/></state><final id="done"/>"#,
                                       options: receiverOptions)
        let location = try XCTUnwrap(receiver.machine.basicHTTPLocation)
        var options = SCXMLMachine.Options.withECMAScript
        options.values["target"] = .string(location)
        let sender = try TestSession("""
            <state id="s">
              <onentry>
                <send event="e" type="basichttp" targetexpr="target"/>
                <send event="e" type="basichttp" targetexpr="target"/>
              </onentry>
              <transition event="error.communication" target="done"><log expr="_event.data"/></transition>
            </state>
            <final id="done"/>
            """, options: options)
        XCTAssertEqual(try sender.run(), ["<send> to \(location): the server answered HTTP/1.1 503 Service Unavailable"])
        try receiver.run()
        XCTAssertEqual(receiver.machine.configuration, ["done"])
    }
}
