import Foundation
import StatechartSCXML
import XCTest

/// The Swift examples of the StatechartSCXML DocC catalog (StatechartSCXML.md,
/// LoadingDocuments.md, FilesAndNetwork.md) as written there, with each result comment checked.
final class ArticleExampleTests: XCTestCase {
    func testTheOverviewLoadsTheMicrowave() throws {
        let file = Conformance.repository.appendingPathComponent("scxml/examples/microwave.scxml")
        let machine = try SCXMLMachine(contentsOf: file)
        try machine.start()
        try machine.send("door.close")
        try machine.send("turn.on")
        XCTAssertEqual(machine.configuration, ["cooking", "closed"])
    }

    func testLoadingAndRunning() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle">
              <state id="idle"><transition event="start" target="running"/></state>
              <state id="running"><transition event="stop" target="done"/></state>
              <final id="done"/>
            </scxml>
            """
        let machine = try SCXMLMachine(string: text)
        try machine.start()
        try machine.send("start")
        XCTAssertEqual(machine.configuration, ["running"])
        try machine.send("stop")
        XCTAssertTrue(machine.isFinished)
    }

    func testErrorsWithTheirPositions() throws {
        XCTAssertThrowsError(try SCXMLMachine(string: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="go" target="nowhere"/></state>
            </scxml>
            """, fileName: "broken.scxml")) { error in
            XCTAssertEqual((error as? SCXMLLoadError)?.diagnostics.map(\.description),
                           ["broken.scxml:2:17: error: transition target 'nowhere' does not name a state; known ids include 'a'"])
        }
    }

    func testTheSandboxAndNetworkOptions() throws {
        var options = SCXMLMachine.Options()
        options.sourceDirectory = URL(fileURLWithPath: "/srv/charts")
        options.maximumSourceSize = 1 << 20
        options.httpHosts.hosts.insert("orders.example.com")
        options.basicHTTPServer = .whenDocumentUsesIt
        XCTAssertEqual(options.sourceDirectory?.path, "/srv/charts")
        XCTAssertEqual(options.maximumSourceSize, 1_048_576)
        XCTAssertTrue(options.httpHosts.allowsLoopback, "loopback stays allowed")
        XCTAssertEqual(options.httpHosts.hosts, ["orders.example.com"])
    }
}
