import Statechart
import XCTest

/// `TypedChart.testPlan`: paths found by running the real machine, with what cannot be
/// reached and why.
final class TypedTestPlanTests: XCTestCase {
    enum Light: Hashable, Sendable { case off, on, dimmed, broken, spare, outer, inner }
    enum Switch: ChartEvent, CaseIterable { case flip, dim, smash }

    /// A guard that never holds, a state nothing enters, and one only an unreachable state
    /// leads to: the plan still covers the rest, and says why for each.
    func testUnreachableStatesAndTransitionsAreListedWithTheirReasons() throws {
        let chart = try TypedChart<Light, Switch>(name: "light") {
            StateNode(.off) { On(.flip, to: .on) }
            StateNode(.on) {
                On(.flip, to: .off)
                On(.dim, to: .dimmed, guard: { _ in false })
                On(.smash, to: .off)
                On(.smash, to: .broken)          // always preempted by the one above
            }
            StateNode(.dimmed) { On(.flip, to: .spare) }
            StateNode(.broken)
            StateNode(.spare)
            StateNode(.outer) { StateNode(.inner) }
        }
        let plan = try chart.testPlan()
        XCTAssertTrue(plan.isExhaustive)
        XCTAssertEqual(plan.unreached.map(\.description), [
            "state 'dimmed': no transition into it is ever taken: on -dim [guard]-> dimmed (its condition [guard] never holds when it could be taken)",
            "state 'broken': no transition into it is ever taken: on -smash-> broken (always preempted: whenever it could be taken, a transition of a state inside its source, or an earlier one in document order, is taken instead)",
            "state 'spare': no transition into it is ever taken: dimmed -flip-> spare (its source 'dimmed' is never active)",
            "state 'outer': no transition enters 'outer' or a state inside it, and no default entry leads to it",
            "state 'inner': its parent 'outer' is never entered",
            "transition on -dim [guard]-> dimmed: its condition [guard] never holds when it could be taken",
            "transition on -smash-> broken: always preempted: whenever it could be taken, a transition of a state inside its source, or an earlier one in document order, is taken instead",
            "transition dimmed -flip-> spare: its source 'dimmed' is never active",
        ])
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event) }, [[.flip, .flip], [.flip, .smash]])
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.expected) }, [[[.on], [.off]], [[.on], [.off]]])
    }

    /// A guard that reads the context the actions update: the context is part of the
    /// machine state, so the search counts up to the guard, replaying each path on a fresh
    /// machine made by `makeMachine`.
    func testTheContextTellsMachineStatesApart() throws {
        struct Count: Hashable, Sendable { var value = 0 }
        enum Step: Hashable, Sendable { case counting, done }
        enum Tick: ChartEvent, CaseIterable {
            case tick
            typealias Context = Count
        }
        final class Made: @unchecked Sendable {
            let lock = NSLock()
            var machines = 0
        }
        let made = Made()
        let chart = try TypedChart<Step, Tick>(name: "counter") {
            StateNode(.counting) {
                On(.tick, to: .done, guard: { ctx in ctx.context.value >= 3 })
                On(.tick) { ctx in ctx.context.value += 1 }
            }
            StateNode(.done)
        }
        let plan = try chart.testPlan(makeMachine: {
            made.lock.withLock { made.machines += 1 }
            return StateMachine(chart, context: Count())
        })
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event) }, [[.tick, .tick, .tick, .tick]])
        XCTAssertEqual(plan.paths.first?.steps.map(\.expected), [[.counting], [.counting], [.counting], [.done]])
        XCTAssertEqual(plan.unreached, [])
        XCTAssertTrue(plan.isExhaustive)
        // One machine for start-up, then a fresh one for each machine state expanded: the
        // counts 0 to 3 in `counting`, and `done`.
        XCTAssertEqual(made.lock.withLock { made.machines }, 6)
    }

    /// `reaching:` gives one shortest path to that state.
    func testOnePathToAState() throws {
        let chart = try TypedChart<Light, Switch>(name: "light") {
            StateNode(.off) { On(.flip, to: .on) }
            StateNode(.on) { On(.flip, to: .off); On(.dim, to: .dimmed) }
            StateNode(.dimmed) { On(.flip, to: .off) }
        }
        let plan = try chart.testPlan(reaching: .dimmed)
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event) }, [[.flip, .dim]])
        XCTAssertEqual(plan.paths.first?.goals, ["dimmed"])
        XCTAssertEqual(plan.unreached, [])
    }

    /// The length bound makes the search say it was bounded, and why things were missed.
    func testABoundedSearchSaysSo() throws {
        let chart = try TypedChart<Light, Switch>(name: "light") {
            StateNode(.off) { On(.flip, to: .on) }
            StateNode(.on) { On(.dim, to: .dimmed) }
            StateNode(.dimmed)
        }
        let plan = try chart.testPlan(maximumLength: 1)
        XCTAssertFalse(plan.isExhaustive)
        XCTAssertEqual(plan.paths.map { $0.steps.map(\.event) }, [[.flip]])
        XCTAssertEqual(plan.unreached.map(\.description), [
            "state 'dimmed': not reached by any sequence of up to 1 events the search tried (the search was bounded, so it may still be reachable)",
            "transition on -dim-> dimmed: not reached by any sequence of up to 1 events the search tried (the search was bounded, so it may still be reachable)",
        ])
    }
}
