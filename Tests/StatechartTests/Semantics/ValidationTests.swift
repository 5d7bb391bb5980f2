import Statechart
import XCTest

/// Illegal charts are rejected at compile time with errors that name the offending element.
final class ValidationTests: XCTestCase {
    func errors(_ states: [StateDefinition], initial: [String] = []) -> [String] {
        do {
            _ = try CompiledChart(ChartDefinition(name: "c", initial: initial, states: states))
            return []
        } catch let error as ChartCompilationError {
            return error.errors.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    func testDuplicateIDs() {
        XCTAssertEqual(errors([StateDefinition("a", children: [StateDefinition("b")]), StateDefinition("b")]),
                       ["c/b: error: duplicate state id 'b'; state ids must be unique"])
    }

    func testDuplicateIDNamesTheFirstDefinitionWhenLocationsAreKnown() {
        let first = StateDefinition("a", location: SourceLocation(file: "f.scxml", line: 3, column: 5))
        let second = StateDefinition("a", location: SourceLocation(file: "f.scxml", line: 9, column: 5))
        XCTAssertEqual(errors([first, second]),
                       ["f.scxml:9:5: error: duplicate state id 'a' (first defined at f.scxml:3:5); state ids must be unique"])
    }

    func testUnknownTarget() {
        XCTAssertEqual(errors([StateDefinition("a", transitions: [TransitionDefinition(on: "go", to: "nowhere")])]),
                       ["c/a transition #1 (on 'go'): error: transition target 'nowhere' does not name a state; known ids include 'a'"])
    }

    func testInitialThatIsNotADescendant() {
        XCTAssertEqual(errors([StateDefinition("a", initial: ["b"], children: [StateDefinition("a1")]), StateDefinition("b")]),
                       ["c/a: error: initial state of 'a' 'b' is not a descendant of 'a'; initial states must lie inside the state"])
    }

    func testInitialOnAnAtomicState() {
        XCTAssertEqual(errors([StateDefinition("a", initial: ["a"])]),
                       ["c/a: error: atomic state 'a' has an initial state but no children"])
    }

    func testInitialAttributeAndElementTogether() {
        let s = StateDefinition("a", initial: ["a1"], initialTransition: TransitionDefinition(to: ["a1"]),
                                children: [StateDefinition("a1")])
        XCTAssertEqual(errors([s]), ["c/a: error: 'a' has both an 'initial' attribute and an <initial> element; keep one"])
    }

    func testChartInitialThatDoesNotExist() {
        XCTAssertEqual(errors([StateDefinition("a")], initial: ["zz"]),
                       ["c: error: initial state 'zz' does not name a state; known ids include 'a'"])
    }

    func testInitialStatesThatCannotBeActiveTogether() {
        XCTAssertEqual(errors([StateDefinition("a", initial: ["a1", "a2"], children: [StateDefinition("a1"), StateDefinition("a2")])]),
                       ["c/a: error: initial states 'a1' and 'a2' cannot be active together; several initial states must lie in different regions of a parallel state"])
    }

    func testHistoryAtTheTopLevel() {
        XCTAssertEqual(errors([StateDefinition(history: "h", defaultTargets: ["a"]), StateDefinition("a")]),
                       ["c/h: error: history state 'h' must be a child of a compound or parallel state, not of the chart root"])
    }

    func testHistoryWithoutDefaultTransition() {
        let s = StateDefinition("a", children: [StateDefinition("h", kind: .history(.deep)), StateDefinition("a1")])
        XCTAssertEqual(errors([s]), ["c/a/h: error: history state 'h' needs a default transition with a target"])
    }

    func testHistoryDefaultOutsideItsParent() {
        let s = StateDefinition("a", children: [StateDefinition(history: "h", defaultTargets: ["b"]), StateDefinition("a1")])
        XCTAssertEqual(errors([s, StateDefinition("b")]),
                       ["c/a/h: error: history default target 'b' must be a state inside 'a' other than a history state"])
    }

    func testFinalStateWithChildrenAndTransitions() {
        let f = StateDefinition("f", kind: .final, children: [StateDefinition("x")],
                                transitions: [TransitionDefinition(on: "e", to: "x")])
        XCTAssertEqual(errors([f]), ["c/f: error: final state 'f' cannot contain states",
                                     "c/f: error: final state 'f' cannot have transitions"])
    }

    func testParallelWithInitial() {
        let p = StateDefinition("p", kind: .parallel, initial: ["r1"], children: [StateDefinition("r1"), StateDefinition("r2")])
        XCTAssertEqual(errors([p]), ["c/p: error: parallel state 'p' cannot have an initial state; all its children are entered"])
    }

    func testTransitionTargetsThatCannotBeActiveTogether() {
        let s = StateDefinition("s", children: [StateDefinition("x"), StateDefinition("y")],
                                transitions: [TransitionDefinition(on: ["go"], to: ["x", "y"])])
        XCTAssertEqual(errors([s]), ["c/s transition #1 (on 'go'): error: targets 'x' and 'y' cannot be active together; several targets must lie in different regions of a parallel state"])
    }

    func testEmptyChartAndEmptyID() {
        XCTAssertEqual(errors([]), ["c: error: a chart needs at least one state"])
        XCTAssertEqual(errors([StateDefinition("")]), ["c/#1: error: state has an empty id; give every state a unique, non-empty id"])
    }

    func testSeveralErrorsAreReportedTogetherInDocumentOrder() {
        let result = errors([
            StateDefinition("a", transitions: [TransitionDefinition(on: "x", to: "q")]),
            StateDefinition("a"),
            StateDefinition("b", transitions: [TransitionDefinition(on: "y", to: "r")]),
        ])
        XCTAssertEqual(result.count, 3)
        XCTAssertTrue(result[0].hasPrefix("c/a: error: duplicate state id 'a'"))
        XCTAssertTrue(result[1].contains("'q' does not name a state"))
        XCTAssertTrue(result[2].contains("'r' does not name a state"))
    }
}
