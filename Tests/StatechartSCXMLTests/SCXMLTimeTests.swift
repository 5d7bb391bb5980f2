import XCTest
import StatechartSCXML

final class SCXMLTimeTests: XCTestCase {
    func testValidDelays() {
        XCTAssertEqual(SCXMLTime.parseDelay("1s"), .seconds(1))
        XCTAssertEqual(SCXMLTime.parseDelay(".5s"), .milliseconds(500))
        XCTAssertEqual(SCXMLTime.parseDelay("1.5s"), .milliseconds(1500))
        XCTAssertEqual(SCXMLTime.parseDelay("100ms"), .milliseconds(100))
        XCTAssertEqual(SCXMLTime.parseDelay("0s"), .zero)
        XCTAssertEqual(SCXMLTime.parseDelay("2500ms"), .milliseconds(2500))
        XCTAssertEqual(SCXMLTime.parseDelay("0.25ms"), .microseconds(250))
        XCTAssertEqual(SCXMLTime.parseDelay(" 30s "), .seconds(30))
        XCTAssertEqual(SCXMLTime.parseDelay("1S"), .seconds(1))
        XCTAssertEqual(SCXMLTime.parseDelay("007s"), .seconds(7))
    }

    func testInvalidDelays() {
        for text in ["", "s", "ms", "5", "1.s", ".s", "-1s", "+1s", "1e3ms", "1 s", "1sec", "1m", "1.2.3s", "abc", "1,5s"] {
            XCTAssertNil(SCXMLTime.parseDelay(text), text)
        }
    }
}
