import Foundation
import XCTest

/// A chart as Qt Creator's SCXML editor saves it: editor data in its own namespace, no
/// datamodel attribute, a `<history>` without a default transition, a `<log expr>` of plain
/// text. It validates with two warnings and runs as in Qt.
final class QtCreatorChartTests: XCTestCase {
    private let chart = """
        <?xml version="1.0" encoding="UTF-8"?>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" binding="early" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" name="Door" qt:editorversion="4.10.0" initial="Closed">
            <qt:editorinfo initialGeometry="50;50;-20;-20;40;40"/>
            <state id="Closed">
                <qt:editorinfo scenegeometry="100;100;40;50;120;100" geometry="100;100;-60;-50;120;100"/>
                <transition type="external" event="open" target="Opened">
                    <qt:editorinfo endTargetFactors="40;50"/>
                </transition>
                <onentry><log label="door" expr="closed"/></onentry><transition event="resume" target="HistoryState"/>
            </state>
            <state id="Opened">
                <history type="shallow" id="HistoryState"/>
                <state id="Ajar"><transition event="push" target="Wide"/></state>
                <state id="Wide"/>
                <transition type="external" event="close" target="Closed"/>
            </state>
        </scxml>
        """

    func testAQtCreatorChartValidatesWithWarningsAndRuns() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID()).scxml")
        try chart.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let path = url.path
        let warnings = [
            "\(path):9:18: warning: <log expr=\"closed\"> is not a null-datamodel expression; it is logged as the text itself, as Qt and uSCXML do (write expr=\"'...'\" to say so)",
            "\(path):12:9: warning: <history id='HistoryState'> has no <transition> giving its default history configuration; it enters the parent's initial state, as Qt does (SCXML requires the <transition>)",
        ]
        let validate = try CLI.run(["validate", path])
        XCTAssertEqual(validate.status, 0)
        XCTAssertEqual(validate.errorLines, warnings)

        // 'resume' before 'Opened' was ever active: the history's filled-in default, Opened's
        // initial state 'Ajar'; after 'Wide' was active: 'Wide'.
        let trace = try CLI.run(["trace", path], input: "resume\npush\nclose\nresume\n")
        XCTAssertEqual(trace.status, 0, trace.stderr)
        XCTAssertEqual(trace.lines, [
            "{\"event\": null, \"configuration\": [\"Closed\"]}",
            "{\"event\": \"resume\", \"configuration\": [\"Ajar\"]}",
            "{\"event\": \"push\", \"configuration\": [\"Wide\"]}",
            "{\"event\": \"close\", \"configuration\": [\"Closed\"]}",
            "{\"event\": \"resume\", \"configuration\": [\"Wide\"]}",
        ])
        XCTAssertEqual(trace.stderr, warnings.joined(separator: "\n") + "\nlog: door: closed\nlog: door: closed\n")

        let strict = try CLI.run(["validate", "--strict", path])
        XCTAssertEqual(strict.status, 2)
        XCTAssertEqual(strict.errorLines, warnings.map { $0.replacingOccurrences(of: ": warning: ", with: ": error: ") })
    }
}
