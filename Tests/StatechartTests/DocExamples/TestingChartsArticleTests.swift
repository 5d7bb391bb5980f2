import Statechart
import XCTest

/// The TestingCharts article's example, as written there: test paths generated from a typed
/// chart drive the real machine, with the app's own action, through every transition.
final class TestingChartsArticleTests: XCTestCase {
    enum Gate: Hashable, Sendable { case locked, unlocked, broken }
    enum GateEvent: ChartEvent, CaseIterable { case coin, push, kick, repair }

    /// The app's side: what the chart's actions do.
    final class CoinBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = 0
        var coins: Int { lock.withLock { stored } }
        func insert() { lock.withLock { stored += 1 } }
    }

    static func turnstile(_ box: CoinBox) throws -> TypedChart<Gate, GateEvent> {
        try TypedChart<Gate, GateEvent>(name: "turnstile") {
            StateNode(.locked) {
                On(.coin, to: .unlocked) { _ in box.insert() }
                On(.kick, to: .broken)
            }
            StateNode(.unlocked) {
                On(.push, to: .locked)
                On(.coin) { _ in box.insert() }       // a second coin stays in the box
            }
            StateNode(.broken) { On(.repair, to: .locked) }
        }
    }

    func testEveryTransition() throws {
        let box = CoinBox()
        let chart = try Self.turnstile(box)
        let plan = try chart.testPlan()               // every case of GateEvent, every transition
        XCTAssertEqual(plan.unreached, [])
        for path in plan.paths {
            let machine = StateMachine(chart)
            try machine.start()
            XCTAssertEqual(machine.configuration, path.start)
            for step in path.steps {
                try machine.send(step.event)
                XCTAssertEqual(machine.configuration, step.expected, "after \(step.event) in \(path.steps.map(\.event))")
            }
        }
        // What the article shows the plan to be: the shortest paths to the three transitions
        // two events deep, which pass every other state and transition on the way.
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event) }, [[.coin, .push], [.coin, .coin], [.kick, .repair]])
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.expected) },
                       [[[.unlocked], [.locked]], [[.unlocked], [.unlocked]], [[.broken], [.locked]]])
        XCTAssertEqual(plan.paths.map(\.goals), [["unlocked -push-> locked"], ["unlocked -coin-> (targetless)"],
                                                 ["broken -repair-> locked"]])
        XCTAssertTrue(plan.isExhaustive)
    }
}
