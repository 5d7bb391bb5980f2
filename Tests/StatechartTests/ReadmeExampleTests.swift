import Foundation
import Statechart
import XCTest

/// The README's Swift examples (the typed lamp, the untyped player), verbatim apart from
/// printing into a log, so they keep compiling and doing what the README says.
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
        // The README prints it in a module named app: `[app.Lamp.bright]`; here Lamp is nested
        // in this class of the module StatechartTests.
        XCTAssertEqual("\(lamp.configuration)", "[StatechartTests.ReadmeExampleTests.Lamp.bright]")
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

    func testPlayerExample() throws {
        let log = Log()
        let player = ChartDefinition(name: "player", states: [
            StateDefinition("stopped", transitions: [TransitionDefinition(on: "play", to: "active")]),
            StateDefinition("active", children: [
                StateDefinition(history: "resume", type: .shallow, defaultTargets: ["playing"]),
                StateDefinition("playing", transitions: [TransitionDefinition(on: "pause", to: "paused")]),
                StateDefinition("paused", transitions: [TransitionDefinition(on: "play", to: "playing")]),
            ], transitions: [TransitionDefinition(on: "stop", to: "stopped")],
               onEntry: [{ _ in log.add("speaker on") }], onExit: [{ _ in log.add("speaker off") }]),
        ])

        let machine = Machine(try CompiledChart(player))
        try machine.start()
        try machine.send("play")
        XCTAssertEqual(log.take(), ["speaker on"])
        try machine.send("pause")
        XCTAssertEqual(machine.configuration, ["paused"])
        XCTAssertEqual("\(machine.configuration)", #"["paused"]"#)
        try machine.send("stop")
        XCTAssertEqual(log.take(), ["speaker off"])
        XCTAssertEqual(machine.configuration, ["stopped"])
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
