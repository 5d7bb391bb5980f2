import Foundation
import XCTest

/// `statechart generate c FILE -o DIR [--name NAME] [--trace-main]`: files, exit codes, errors.
final class GenerateCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("generate-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testWritesHeaderSourceAndTraceMain() throws {
        let out = directory.appendingPathComponent("gen").path
        let result = try CLI.run(["generate", "c", "scxml/examples/traffic-light.scxml", "-o", out, "--trace-main"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       ["traffic_light.c", "traffic_light.h", "traffic_light_config.h", "traffic_light_main.c"])
        let named = try CLI.run(["generate", "c", "scxml/examples/microwave.scxml", "-o", out, "--name", "oven"])
        XCTAssertEqual(named.status, 0, named.stderr)
        let header = try String(contentsOfFile: out + "/oven.h", encoding: .utf8)
        XCTAssertTrue(header.contains("void oven_timer_start(void *context, sc_machine *machine, const char *send_id, sc_event event,"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/oven_main.c"))
    }

    func testADocumentWithoutACFormExitsTwoAndWritesNothing() throws {
        let source = directory.appendingPathComponent("bad.scxml")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a">
            <onentry><send event="e" target="#_parent"/></onentry>
          </state>
        </scxml>
        """.write(to: source, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("gen").path
        let result = try CLI.run(["generate", "c", source.path, "-o", out])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(source.path):3:14: error: <send target=\"#_parent\"> has no C form: generated C sends only to the machine itself (no target, or '#_internal')\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing is written for a refused document")
        let invalid = try CLI.run(["generate", "c", "scxml/fixtures/invalid.scxml", "-o", out])
        XCTAssertEqual(invalid.status, 2)
        XCTAssertTrue(invalid.stderr.hasPrefix("scxml/fixtures/invalid.scxml:4:5: error: transition target 'nowhere' does not name a state"), invalid.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let badName = try CLI.run(["generate", "c", "scxml/examples/microwave.scxml", "-o", out, "--name", "my-oven"])
        XCTAssertEqual(badName.status, 2)
        XCTAssertEqual(badName.stderr, "error: --name: 'my-oven' is not a C identifier (letters, digits and '_', not starting with a digit)\n")
    }
}
