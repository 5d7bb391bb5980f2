import Foundation
import StatechartCodegen
import XCTest

/// Generated C gives other tools' charts the meaning the Swift engine gives them
/// (docs/COMPATIBILITY.md), reports the same warnings, and refuses them when strict.
final class CompatibilityCodegenTests: XCTestCase {
    private let door = Data("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <state id="door"><onentry><log label="door" expr="Door opened"/></onentry></state>
        </scxml>
        """.utf8)
    private let message = "<log expr=\"Door opened\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)"

    func testLogTextIsWrittenAsALiteralWithTheWarning() throws {
        let files = try CCodeGenerator.generate(scxml: door, fileName: "door.scxml", name: "door")
        XCTAssertEqual(files.warnings.map(\.description), ["door.scxml:2:29: warning: \(message)"])
        XCTAssertTrue(files.source.contains(#"door_log(context, "door", "Door opened");"#), files.source)
    }

    func testStrictRefusesIt() {
        XCTAssertThrowsError(try CCodeGenerator.generate(scxml: door, fileName: "door.scxml", name: "door", strict: true)) {
            XCTAssertEqual("\($0)", "door.scxml:2:29: error: \(message)")
        }
    }
}
