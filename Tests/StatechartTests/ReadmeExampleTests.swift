import Foundation
import Statechart
import XCTest

/// The README's first example, verbatim apart from printing into a log, so it keeps compiling
/// and doing what the README says.
final class ReadmeExampleTests: XCTestCase {
    enum Lamp: Hashable, Sendable { case off, on, dim, bright }
    enum Switch: ChartEvent { case toggle, brighter, darker }

    func testLampExample() throws {
        let log = Log()
        let lamp = StateMachine(try lampChart(log))
        try lamp.start()
        try lamp.send(.toggle)
        XCTAssertEqual(log.take(), ["power on"])
        try lamp.send(.brighter)
        XCTAssertEqual(lamp.configuration, [.bright])
        try lamp.send(.toggle)
        XCTAssertEqual(log.take(), ["power off"])
        XCTAssertEqual(lamp.configuration, [.off])
    }

    func lampChart(_ log: Log) throws -> TypedChart<Lamp, Switch> {
        try TypedChart<Lamp, Switch>(name: "lamp") {
            StateNode(.off) {
                On(.toggle, to: .on)
            }
            StateNode(.on) {
                OnEntry { _ in log.add("power on") }
                OnExit { _ in log.add("power off") }
                StateNode(.dim) { On(.brighter, to: .bright) }
                StateNode(.bright) { On(.darker, to: .dim) }
                On(.toggle, to: .off)
            }
        }
    }

    /// The README's picture of the lamp (docs/images/readme-lamp.svg) is drawn from this
    /// export by scripts/diagrams.sh, which sets STATECHART_WRITE_DIAGRAMS to write it.
    func testTheLampsPictureIsItsExport() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/images/readme-lamp.dot")
        let dot = try lampChart(Log()).definition.dot()
        if ProcessInfo.processInfo.environment["STATECHART_WRITE_DIAGRAMS"] != nil {
            try dot.write(to: file, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), dot, "the lamp changed; run scripts/diagrams.sh")
    }
}
