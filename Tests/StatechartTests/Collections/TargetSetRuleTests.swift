import XCTest
@testable import Statechart

/// The one rule for targets entered together, on a small tree numbered in document order:
///
///     0 root (compound)
///     ├─ 1 p (parallel)
///     │  ├─ 2 r1 ── 3 a1, 4 b1
///     │  └─ 5 r2 ── 6 a2
///     └─ 7 s
final class TargetSetRuleTests: XCTestCase {
    let parents = [-1, 0, 1, 2, 2, 1, 5, 0]
    let lastDescendants = [7, 6, 4, 3, 4, 6, 6, 7]

    func conflict(_ targets: [Int]) -> (first: Int, second: Int, conflict: TargetSetRule.Conflict)? {
        TargetSetRule.firstConflict(
            in: targets, parent: { self.parents[$0] }, lastDescendant: { self.lastDescendants[$0] },
            isParallel: { $0 == 1 })
    }

    func testStatesInDifferentRegionsOfAParallelStateGoTogether() {
        XCTAssertNil(conflict([3, 6]))
        XCTAssertNil(conflict([2, 6]))
        XCTAssertNil(conflict([7]))
        XCTAssertNil(conflict([]))
    }

    func testTheSameStateTwiceConflicts() {
        XCTAssertEqual(conflict([3, 3])?.conflict, .same)
    }

    func testAStateAndOneInsideItConflictEitherWayRound() {
        let outerFirst = conflict([1, 3])
        XCTAssertEqual(outerFirst?.first, 1)
        XCTAssertEqual(outerFirst?.second, 3)
        XCTAssertEqual(outerFirst?.conflict, .nested(firstIsInner: false))
        XCTAssertEqual(conflict([6, 5])?.conflict, .nested(firstIsInner: true))
    }

    func testStatesMeetingInACompoundStateConflict() {
        XCTAssertEqual(conflict([3, 4])?.conflict, .separate(commonAncestor: 2))
        XCTAssertEqual(conflict([3, 7])?.conflict, .separate(commonAncestor: 0))
        // Top-level states of a tree without a root node meet nowhere.
        let rootless = TargetSetRule.firstConflict(
            in: [0, 1], parent: { _ in -1 }, lastDescendant: { $0 }, isParallel: { _ in false })
        XCTAssertEqual(rootless?.conflict, .separate(commonAncestor: nil))
    }

    func testTheFirstConflictingPairInOrderIsReported() {
        // 3 and 6 go together; 6 and 7 do not.
        let found = conflict([3, 6, 7])
        XCTAssertEqual(found?.first, 3)
        XCTAssertEqual(found?.second, 7)
    }
}
