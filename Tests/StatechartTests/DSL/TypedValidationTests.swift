import Statechart
import XCTest

/// Illegal typed charts are rejected when the chart is built, with errors that name the
/// offending state or transition and the DSL line that wrote it.
final class TypedValidationTests: XCTestCase {
    func errors(_ build: () throws -> TypedChart<S, E>) -> [ChartError] {
        do {
            _ = try build()
            return []
        } catch let error as ChartCompilationError {
            return error.errors
        } catch {
            XCTFail("unexpected \(error)")
            return []
        }
    }

    func testUnknownTargetNamesTheTransitionAndItsLine() {
        let line = #line + 3
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) { On(.go, to: .b) }
            }
        }
        XCTAssertEqual(found.map(\.code), [.unknownTarget])
        XCTAssertEqual(found.first?.path, "t/a transition #1 (on 'go')")
        XCTAssertEqual(found.first?.description,
                       "StatechartTests/TypedValidationTests.swift:\(line):35: error: transition target 'b' does not name a state; known ids include 'a'")
    }

    func testDuplicateStatesAreRejected() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) { StateNode(.x) }
                StateNode(.b) { StateNode(.x) }
            }
        }
        XCTAssertEqual(found.map(\.code), [.duplicateID])
        XCTAssertEqual(found.first?.path, "t/b/x")
        XCTAssertTrue(found.first?.message.hasPrefix("duplicate state id 'x' (first defined at StatechartTests/TypedValidationTests.swift:") ?? false)
    }

    func testFinalStateWithATransition() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) { On(.go, to: .done) }
                Final(.done) { StateNode(.x) }
            }
        }
        XCTAssertEqual(found.map(\.code), [.invalidFinal])
        XCTAssertEqual(found.first?.message, "final state 'done' cannot contain states")
    }

    func testInitialOutsideTheState() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a, initial: .b) { StateNode(.a1) }
                StateNode(.b)
            }
        }
        XCTAssertEqual(found.map(\.message), ["initial state of 'a' 'b' is not a descendant of 'a'; initial states must lie inside the state"])
    }

    func testTargetsThatCannotBeActiveTogether() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) {
                    On(.go, to: .a1, .a2)
                    StateNode(.a1)
                    StateNode(.a2)
                }
            }
        }
        XCTAssertEqual(found.map(\.code), [.invalidTargets])
        XCTAssertEqual(found.first?.path, "t/a transition #1 (on 'go')")
    }

    func testHistoryPlacementAndDefaults() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                History(.h, default: .a)
                StateNode(.a)
            }
        }
        XCTAssertEqual(found.map(\.message), ["history state 'h' must be a child of a compound or parallel state, not of the chart root"])
    }

    func testEntryActionAtTheTopLevel() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                OnEntry { _ in }
                StateNode(.a)
            }
        }
        XCTAssertEqual(found.map(\.path), ["t"])
        XCTAssertEqual(found.map(\.code), [.actionOutsideState])
        XCTAssertEqual(found.first?.message, "entry and exit actions must be inside a state; the chart itself is never entered or exited")
    }

    func testExitActionAtTheTopLevel() {
        let line = #line + 4
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a)
                OnExit { _ in }
            }
        }
        XCTAssertEqual(found.map(\.code), [.actionOutsideState])
        XCTAssertEqual(found.map(\.path), ["t"])
        XCTAssertEqual(found.first?.location?.file, "StatechartTests/TypedValidationTests.swift")
        XCTAssertEqual(found.first?.location?.line, line)
        XCTAssertEqual(found.first?.message, "entry and exit actions must be inside a state; the chart itself is never entered or exited")
    }

    func testTwoInitialsInOneState() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) {
                    Initial(.a1)
                    Initial(.a2)
                    StateNode(.a1)
                    StateNode(.a2)
                }
            }
        }
        XCTAssertEqual(found.map(\.message), ["state 'a' has more than one Initial; keep one"])
        XCTAssertEqual(found.first?.path, "t/a")
    }

    func testTopLevelOnDoneNeedsAState() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a)
                OnDone(to: .a)
            }
        }
        XCTAssertEqual(found.map(\.message), ["OnDone at the top level needs 'of:' to name the state whose completion it handles"])
    }

    func testErrorsOfTopLevelTransitionsAreReportedOnce() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a)
                StateNode(.b)
                StateNode(.c)
                On(.reset, to: .idle)
            }
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.code, .unknownTarget)
    }

    func testEveryErrorIsReportedTogether() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) { On(.go, to: .x) }
                StateNode(.b) { On(.go, to: .y) }
            }
        }
        XCTAssertEqual(found.map(\.code), [.unknownTarget, .unknownTarget])
    }

    func testInvalidDescriptor() {
        let found = errors {
            try TypedChart<S, E>(name: "t") {
                StateNode(.a) { On(descriptor: "a*b", to: .a) }
            }
        }
        XCTAssertEqual(found.map(\.code), [.invalidDescriptor])
    }
}
