import Statechart
import XCTest

/// The README's first example, verbatim apart from printing into a log, so it keeps compiling
/// and doing what the README says.
final class ReadmeExampleTests: XCTestCase {
    enum Lamp: Hashable, Sendable { case off, on, dim, bright }
    enum Switch: ChartEvent { case toggle, brighter, darker }

    func testLampExample() throws {
        let log = Log()
        let lamp = StateMachine(try TypedChart<Lamp, Switch>(name: "lamp") {
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
        })
        try lamp.start()
        try lamp.send(.toggle)
        XCTAssertEqual(log.take(), ["power on"])
        try lamp.send(.brighter)
        XCTAssertEqual(lamp.configuration, [.bright])
        try lamp.send(.toggle)
        XCTAssertEqual(log.take(), ["power off"])
        XCTAssertEqual(lamp.configuration, [.off])
    }
}
